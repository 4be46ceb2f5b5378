package io.rekey.generate;

import io.rekey.common.RekeyException;
import io.rekey.hbase.TableAdmin;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fills a messages table with {@link MessageGenerator} rows through a {@link BufferedMutator}. The
 * table it creates has the usual first design: one family {@code m}, one region, no compression.
 */
public final class GenerateJob {
  /** The family the generated table uses. */
  public static final byte[] FAMILY = Bytes.toBytes("m");

  /** VERSIONS of the created family: enough for the multi-version {@code m:read} cells. */
  public static final int MAX_VERSIONS = 3;

  private static final Logger LOG = LoggerFactory.getLogger(GenerateJob.class);
  private static final int TOP_SENDERS = 10;
  private static final long PROGRESS_EVERY_ROWS = 100_000;

  private final Connection connection;
  private final GenerateOptions options;

  public GenerateJob(Connection connection, GenerateOptions options) {
    this.connection = connection;
    this.options = options;
  }

  public GenerateResult execute() throws IOException {
    long started = System.nanoTime();
    TableName name = options.table();
    boolean created = createIfMissing(name);
    if (!created && options.ifNonEmpty() != GenerateOptions.IfNonEmpty.APPEND && hasRows(name)) {
      if (options.ifNonEmpty() == GenerateOptions.IfNonEmpty.SKIP) {
        LOG.info("generate: {} already holds rows; skipping as --if-nonempty skip asks", name);
        return GenerateResult.skipped(name.getNameAsString(), (System.nanoTime() - started) / 1e9);
      }
      throw new RekeyException(
          "table "
              + name.getNameAsString()
              + " already holds rows; generate refuses to mix data sets. Use another --table,"
              + " truncate it, or pass --if-nonempty append (or skip)");
    }
    MessageGenerator generator =
        new MessageGenerator(
            options.seed(),
            options.senders(),
            options.startMillis(),
            options.multiVersionPercent(),
            options.intervalMillis());
    Map<String, Long> bySender = new HashMap<>();
    long cells = 0;
    long bytes = 0;
    String firstKey = null;
    String lastKey = null;
    long firstTs = 0;
    long lastTs = 0;
    BufferedMutatorParams params = new BufferedMutatorParams(name).writeBufferSize(8L << 20);
    try (BufferedMutator mutator = connection.getBufferedMutator(params)) {
      for (long row = 0; row < options.rows(); row++) {
        Message m = generator.next();
        Put put = new Put(Bytes.toBytes(m.rowKey()));
        for (Message.GeneratedCell c : m.cells()) {
          put.addColumn(FAMILY, Bytes.toBytes(c.qualifier()), c.timestamp(), c.value());
          cells++;
          bytes += c.value().length;
        }
        mutator.mutate(put);
        bySender.merge(m.sender(), 1L, Long::sum);
        if (firstKey == null) {
          firstKey = m.rowKey();
          firstTs = m.timestamp();
        }
        lastKey = m.rowKey();
        lastTs = m.timestamp();
        if ((row + 1) % PROGRESS_EVERY_ROWS == 0) {
          double secs = (System.nanoTime() - started) / 1e9;
          LOG.info(
              "generate: {} of {} rows, {} cells written ({} rows/s)",
              row + 1,
              options.rows(),
              cells,
              Math.round((row + 1) / secs));
        }
      }
    }
    List<GenerateResult.SenderCount> top = new ArrayList<>();
    bySender.entrySet().stream()
        .sorted(
            Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                .thenComparing(Map.Entry.comparingByKey()))
        .limit(TOP_SENDERS)
        .forEach(e -> top.add(new GenerateResult.SenderCount(e.getKey(), e.getValue())));
    return new GenerateResult(
        name.getNameAsString(),
        options.rows(),
        cells,
        bytes,
        firstKey,
        lastKey,
        firstTs,
        lastTs,
        top,
        created,
        false,
        deleteFirstRows(name, options.deleteRows()),
        (System.nanoTime() - started) / 1e9);
  }

  /** Deletes the first {@code n} rows of {@code name} in key order, stamped now. */
  private long deleteFirstRows(TableName name, long n) throws IOException {
    if (n == 0) {
      return 0;
    }
    long deleted = 0;
    try (Table t = connection.getTable(name);
        ResultScanner s =
            t.getScanner(
                new Scan()
                    .setFilter(new FirstKeyOnlyFilter())
                    .setLimit((int) Math.min(n, Integer.MAX_VALUE)));
        BufferedMutator mutator = connection.getBufferedMutator(name)) {
      for (Result r : s) {
        mutator.mutate(new Delete(r.getRow()));
        deleted++;
      }
    }
    LOG.info("generate: deleted the first {} rows of {}", deleted, name);
    return deleted;
  }

  private boolean createIfMissing(TableName name) throws IOException {
    try (Admin admin = connection.getAdmin()) {
      if (admin.tableExists(name)) {
        return false;
      }
      new TableAdmin(connection).ensureNamespace(name.getNamespaceAsString());
      admin.createTable(
          TableDescriptorBuilder.newBuilder(name)
              .setColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(FAMILY)
                      .setMaxVersions(MAX_VERSIONS)
                      .build())
              .build());
      LOG.info("generate: created table {} (family m, VERSIONS {})", name, MAX_VERSIONS);
      return true;
    }
  }

  private boolean hasRows(TableName name) throws IOException {
    try (Table table = connection.getTable(name);
        ResultScanner scanner =
            table.getScanner(new Scan().setFilter(new FirstKeyOnlyFilter()).setLimit(1))) {
      Result first = scanner.next();
      return first != null;
    }
  }
}
