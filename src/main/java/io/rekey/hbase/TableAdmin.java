package io.rekey.hbase;

import io.rekey.common.RekeyException;
import io.rekey.security.GrantCheck;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Table-level operations the jobs need: existence, emptiness, pre-split creation, snapshots; and
 * the real {@link ClusterView} the planners read.
 */
public final class TableAdmin implements ClusterView {
  private static final Logger LOG = LoggerFactory.getLogger(TableAdmin.class);

  /** HBase's bound on a client's wait for a table procedure. */
  static final String SYNC_WAIT_KEY = "hbase.client.sync.wait.timeout.msec";

  private static final long DEFAULT_SYNC_WAIT_MS = 10 * 60_000L;
  private final Connection connection;

  public TableAdmin(Connection connection) {
    this.connection = connection;
  }

  @Override
  public boolean exists(TableName table) {
    try (Admin admin = connection.getAdmin()) {
      return admin.tableExists(table);
    } catch (IOException e) {
      throw new RekeyException("cannot check whether " + table + " exists: " + e.getMessage(), e);
    }
  }

  @Override
  public Optional<TableDescriptor> findTable(TableName table) {
    try (Admin admin = connection.getAdmin()) {
      return admin.tableExists(table) ? Optional.of(admin.getDescriptor(table)) : Optional.empty();
    } catch (IOException e) {
      throw new RekeyException("cannot read the descriptor of " + table + ": " + e.getMessage(), e);
    }
  }

  @Override
  public List<Result> firstRows(TableName table, int limit) {
    List<Result> rows = new ArrayList<>();
    try (Table t = connection.getTable(table);
        ResultScanner scanner = t.getScanner(new Scan().setLimit(limit).setCaching(limit))) {
      for (Result r : scanner) {
        rows.add(r);
      }
    } catch (IOException e) {
      throw new RekeyException("cannot read the first rows of " + table + ": " + e.getMessage(), e);
    }
    return rows;
  }

  @Override
  public List<Result> sampleRows(TableName table, Scan scan, int n) {
    List<Result> rows = new ArrayList<>();
    RowSampler.sample(connection, table, scan, n, rows::add);
    return rows;
  }

  /** Whether the table holds at least one row. */
  public boolean hasRows(TableName table) {
    try (Table t = connection.getTable(table);
        ResultScanner scanner =
            t.getScanner(new Scan().setFilter(new FirstKeyOnlyFilter()).setLimit(1))) {
      return scanner.next() != null;
    } catch (IOException e) {
      throw new RekeyException("cannot read " + table + ": " + e.getMessage(), e);
    }
  }

  @Override
  public List<byte[]> regionStartKeys(TableName table) {
    try (RegionLocator locator = connection.getRegionLocator(table)) {
      List<byte[]> starts = new ArrayList<>();
      for (byte[] s : locator.getStartKeys()) {
        starts.add(s);
      }
      starts.sort(Bytes.BYTES_COMPARATOR);
      return starts;
    } catch (IOException e) {
      throw new RekeyException("cannot list the regions of " + table + ": " + e.getMessage(), e);
    }
  }

  /**
   * The bytes each region of {@code table} holds, store files and memstore, as its region server
   * reports them now, by region name ({@link Bytes#toStringBinary}); a region no live server
   * reports is absent.
   */
  public Map<String, Long> regionBytes(TableName table) {
    Map<String, Long> byName = new HashMap<>();
    try (Admin admin = connection.getAdmin()) {
      for (ServerName server : admin.getRegionServers()) {
        for (RegionMetrics m : admin.getRegionMetrics(server, table)) {
          long bytes =
              (long) m.getStoreFileSize().get(Size.Unit.BYTE)
                  + (long) m.getMemStoreSize().get(Size.Unit.BYTE);
          byName.put(Bytes.toStringBinary(m.getRegionName()), bytes);
        }
      }
    } catch (IOException e) {
      throw new RekeyException(
          "cannot read the region sizes of " + table + ": " + e.getMessage(), e);
    }
    return byName;
  }

  /**
   * Families of {@code target} must be exactly {@code source}'s, or the copy cannot be faithful.
   */
  public static void requireSameFamilies(TableDescriptor source, TableDescriptor target) {
    TreeSet<String> s = new TreeSet<>();
    for (ColumnFamilyDescriptor f : source.getColumnFamilies()) {
      s.add(f.getNameAsString());
    }
    TreeSet<String> t = new TreeSet<>();
    for (ColumnFamilyDescriptor f : target.getColumnFamilies()) {
      t.add(f.getNameAsString());
    }
    if (!s.equals(t)) {
      throw new RekeyException(
          "the target "
              + target.getTableName()
              + " has families "
              + t
              + " but the source "
              + source.getTableName()
              + " has "
              + s
              + "; drop the target (rekey creates it with the source's families) or give it the"
              + " same families");
    }
  }

  /**
   * Creates {@code target} pre-split at {@code splits}, with every family copied from {@code
   * source}, settings and all (compression, bloom filter, block size, encoding, VERSIONS, TTL).
   */
  public void createLike(TableDescriptor source, TableName target, List<byte[]> splits) {
    await(createLikeAsync(source, target, splits), target);
  }

  /** Disables and deletes a table (one this job created and nothing was loaded into). */
  public void drop(TableName table) {
    try (Admin admin = connection.getAdmin()) {
      if (admin.isTableEnabled(table)) {
        admin.disableTable(table);
      }
      admin.deleteTable(table);
    } catch (IOException e) {
      throw new RekeyException("cannot drop " + table + ": " + e.getMessage(), e);
    }
  }

  /** {@link #createLike}, started: {@link #await} waits for the regions to be assigned. */
  public Future<Void> createLikeAsync(
      TableDescriptor source, TableName target, List<byte[]> splits) {
    TableDescriptorBuilder builder = TableDescriptorBuilder.newBuilder(target);
    for (ColumnFamilyDescriptor f : source.getColumnFamilies()) {
      builder.setColumnFamily(ColumnFamilyDescriptorBuilder.copy(f));
    }
    // Where HBase gives the source's readers HDFS ACLs on its snapshots, it gives the target's
    // owner the same on the target's: a comparison then reads the target through a snapshot too.
    String snapshotAcls = source.getValue(GrantCheck.SYNC_ACLS_TO_HDFS);
    if (snapshotAcls != null) {
      builder.setValue(GrantCheck.SYNC_ACLS_TO_HDFS, snapshotAcls);
    }
    return createAsync(builder.build(), splits);
  }

  /** Whether namespace {@code ns} exists ({@link GrantCheck#namespaceListed}). */
  @Override
  public boolean namespaceExists(String ns) {
    try (Admin admin = connection.getAdmin()) {
      return GrantCheck.namespaceListed(admin, ns);
    } catch (IOException e) {
      throw new RekeyException("cannot look up namespace " + ns + ": " + e.getMessage(), e);
    }
  }

  /** Creates namespace {@code ns} unless it exists. */
  public void ensureNamespace(String ns) {
    if (namespaceExists(ns)) {
      return;
    }
    try (Admin admin = connection.getAdmin()) {
      admin.createNamespace(NamespaceDescriptor.create(ns).build());
    } catch (org.apache.hadoop.hbase.NamespaceExistException e) {
      // Created by another run at the same moment.
    } catch (IOException e) {
      throw new RekeyException("cannot create namespace " + ns + ": " + e.getMessage(), e);
    }
  }

  /** Creates a table pre-split at {@code splits}; its namespace must exist. */
  public void create(TableDescriptor table, List<byte[]> splits) {
    await(createAsync(table, splits), table.getTableName());
  }

  /**
   * Starts creating a table, pre-split at {@code splits}: the master assigns the regions while the
   * caller goes on; {@link #await} waits for it, within its bound. The request itself is sent from
   * a thread of its own, since the master answers it only once the table's lock is taken: a master
   * that cannot take it (or has gone) would otherwise hold the caller for the RPC timeout. Its
   * namespace must exist ({@link #ensureNamespace}): a namespace is never made as a side effect of
   * a typo.
   */
  public Future<Void> createAsync(TableDescriptor table, List<byte[]> splits) {
    CompletableFuture<Void> created = new CompletableFuture<>();
    Thread request =
        new Thread(
            () -> {
              try (Admin admin = connection.getAdmin()) {
                (splits.isEmpty()
                        ? admin.createTableAsync(table)
                        : admin.createTableAsync(table, splits.toArray(new byte[0][])))
                    .get();
                created.complete(null);
              } catch (ExecutionException e) {
                created.completeExceptionally(e.getCause());
              } catch (IOException | RuntimeException e) {
                created.completeExceptionally(e);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                created.completeExceptionally(e);
              }
            },
            "create " + table.getTableName());
    request.setDaemon(true);
    request.start();
    return created;
  }

  /**
   * Waits until a table {@link #createAsync} started is created, its regions assigned, for at most
   * HBase's own bound on such waits, {@code hbase.client.sync.wait.timeout.msec} (ten minutes by
   * default; {@code --hbase-set} changes it).
   */
  public void await(Future<Void> creation, TableName table) {
    long bound = connection.getConfiguration().getLong(SYNC_WAIT_KEY, DEFAULT_SYNC_WAIT_MS);
    try {
      creation.get(bound, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new RekeyException(
          "the master did not finish creating "
              + table
              + " within "
              + bound / 1000
              + " s ("
              + SYNC_WAIT_KEY
              + "); check that HBase is up ('hbase-rekey status'), then rerun the same command",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RekeyException("interrupted while creating the table " + table, e);
    } catch (ExecutionException e) {
      throw new RekeyException(
          "cannot create the table " + table + ": " + e.getCause().getMessage(), e.getCause());
    }
  }

  /**
   * Attempts at a snapshot while another operation holds the table's lock. The master has already
   * waited for the lock for its own timeout (the RPC timeout, a minute by default) before an
   * attempt fails, so the attempts need no pause of their own.
   */
  static final int SNAPSHOT_ATTEMPTS = 3;

  /**
   * Takes a flush-consistent snapshot of {@code table} named {@code name}. When the master cannot
   * get the table's lock in time, the snapshot is asked for again, up to {@link #SNAPSHOT_ATTEMPTS}
   * times: a table operation (a split, an alter, a region move) holds the lock for a while, and
   * HBase 2.5 can lose a lock's wake-up and hold it until its procedure times out. A scheduled
   * audit or index update then waits that out instead of failing the run. On a secure cluster it
   * returns once the job's user can read the snapshot (see {@link
   * GrantCheck#awaitSnapshotReadable}); when that wait fails, the snapshot is deleted before the
   * failure is passed on, so that no refusal leaves one behind.
   */
  public void snapshot(TableName table, String name) {
    take(table, name);
    try {
      GrantCheck.awaitSnapshotReadable(connection.getConfiguration(), name);
    } catch (IOException | RuntimeException e) {
      deleteSnapshotAfter(name, e);
      throw new RekeyException(
          "cannot read snapshot " + name + " of " + table + ": " + e.getMessage(), e);
    }
  }

  /**
   * Deletes a snapshot that a failed job took, keeping the failure the job reports: a delete that
   * fails too is added to it, not thrown in its place.
   */
  public void deleteSnapshotAfter(String name, Throwable failure) {
    try {
      deleteSnapshot(name);
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
      LOG.warn("could not delete snapshot {} after a failure: {}", name, e.getMessage());
    }
  }

  private void take(TableName table, String name) {
    long othersUntil = System.nanoTime() + OTHER_SNAPSHOT_WAIT.toNanos();
    int attempt = 0;
    while (true) {
      try (Admin admin = connection.getAdmin()) {
        admin.snapshot(name, table);
        return;
      } catch (IOException e) {
        if (isOtherSnapshotRunning(e) && System.nanoTime() < othersUntil) {
          // Another job's snapshot of the table (HBase takes one at a time): seconds, as a rule.
          LOG.info("snapshot {} of {}: another snapshot of it is under way; waiting", name, table);
          pause(Duration.ofMillis(500));
          continue;
        }
        attempt++;
        boolean locked = isTableLockTimeout(e);
        if (locked && attempt < SNAPSHOT_ATTEMPTS) {
          LOG.warn(
              "snapshot {} of {}: the master could not get the table's lock, another operation"
                  + " holds it (attempt {} of {}); asking again",
              name,
              table,
              attempt,
              SNAPSHOT_ATTEMPTS);
          continue;
        }
        String why = "cannot take snapshot " + name + " of " + table + ": " + e.getMessage();
        throw new RekeyException(
            locked
                ? why
                    + ". Another operation held the table's lock through "
                    + attempt
                    + " attempts ('list_locks' in the HBase shell shows which): run again when it"
                    + " is done, or use --live-scan to read the table directly"
                : why + "; use --live-scan to read the table directly",
            e);
      }
    }
  }

  /** How long a snapshot waits for another of the same table, which HBase runs one at a time. */
  static final Duration OTHER_SNAPSHOT_WAIT = Duration.ofMinutes(2);

  /** Whether HBase refused a snapshot because another of the same table was being taken. */
  static boolean isOtherSnapshotRunning(Throwable e) {
    return saysSomewhere(e, "already running another snapshot on the same table");
  }

  /** Whether {@code e} or one of its causes has {@code words} in its message. */
  private static boolean saysSomewhere(Throwable e, String words) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getMessage() != null && t.getMessage().contains(words)) {
        return true;
      }
    }
    return false;
  }

  private static void pause(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RekeyException("interrupted while waiting to take a snapshot", e);
    }
  }

  /** Whether a failed snapshot failed because the master timed out waiting for the table lock. */
  static boolean isTableLockTimeout(Throwable e) {
    return saysSomewhere(e, "Master lock could not be acquired");
  }

  /** Whether a snapshot of that name exists. */
  public boolean snapshotExists(String name) {
    try (Admin admin = connection.getAdmin()) {
      return !admin
          .listSnapshots(java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(name)))
          .isEmpty();
    } catch (IOException e) {
      throw new RekeyException("cannot list snapshots: " + e.getMessage(), e);
    }
  }

  /** Deletes a snapshot if it exists. */
  public void deleteSnapshot(String name) {
    try (Admin admin = connection.getAdmin()) {
      if (admin
          .listSnapshots(java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(name)))
          .isEmpty()) {
        return;
      }
      admin.deleteSnapshot(name);
    } catch (IOException e) {
      throw new RekeyException("cannot delete snapshot " + name + ": " + e.getMessage(), e);
    }
  }
}
