package io.rekey.stream.endpoint;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.replication.ReplicationEndpoint;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfig;
import org.apache.hadoop.hbase.replication.WALEntryFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.wal.WAL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replication endpoint a rekey stream's peer names, run by every region server of the source:
 * it receives each WAL edit of the source table (whatever its cells' timestamps) and writes it to
 * the target under the pinned key mapping ({@link EditMapper}). HBase delivers a batch at least
 * once, and a mapped cell written again is the same cell, so a batch shipped twice leaves the
 * target as once.
 *
 * <p>Nothing but a {@link VirtualMachineError} escapes into the region server: a failed write is
 * logged (the first target row and the reason), waited out with a growing pause and reported by
 * returning false, which makes HBase ship the same batch again. Rows the mapping refuses are
 * logged, one line each, recorded in the target's fence table (one cell a source row, with the
 * reason: {@link Fences#refused}) and not written.
 *
 * <p>A bulk load into the source reaches the log as a marker naming its store files: the endpoint
 * reads their cells and writes them at the marker's place ({@link BulkLoadedFiles}). Where edits
 * must land in order (a serial peer), each row's mutations are written in their order ({@link
 * TargetWriter}).
 *
 * <p>It also acknowledges the switch's {@link Fences}: a fence of its own peer in the fence table,
 * shipped in order with the source's edits of the same WAL, is acknowledged in the target's fence
 * table only after every edit shipped before it was written, with the count of source edits that
 * followed it in the batch (a writer that had not stopped).
 *
 * <p>Implements HBase's public {@link ReplicationEndpoint} contract only ({@code
 * BaseReplicationEndpoint} is HBase's private API); the class, the key codecs and an HBase client
 * are all it needs on the region servers' classpath.
 */
public final class RekeyingEndpoint implements ReplicationEndpoint {
  private static final Logger LOG = LoggerFactory.getLogger(RekeyingEndpoint.class);
  private static final long MAX_PAUSE_MS = 30_000;
  private static final int CLIENT_RETRIES = 3;
  private static final int CLIENT_TIMEOUT_MS = 20_000;

  /**
   * Bytes of target rows the endpoint gathers before it sends them: a replication batch can hold
   * hundreds of thousands of rows (a client's multi-row put is one WAL entry), and sending one in a
   * single call ran a region server with 2 GB of heap out of memory under the stream benchmark's
   * load. The client's buffered mutator sends each full buffer while the next is being mapped. An
   * unpaced load later ran the local 2 GB region server out of heap again; a heap dump showed the
   * memstore's chunks and the block cache holding it, not the endpoint (benchmarks.md), and HBase's
   * JVMs now use 8 MB G1 regions.
   */
  private static final long WRITE_BUFFER_BYTES = 4L << 20;

  /** Cells stamped in the past read back at a time (two batched reads, after a flush). */
  private static final int READ_BACK_CHUNK = 1_000;

  private enum State {
    NEW,
    RUNNING,
    STOPPED,
    FAILED
  }

  private volatile State state = State.NEW;
  private volatile Throwable failure;
  private Context context;
  private volatile StreamSettings settings;
  private volatile EditMapper mapper;
  private volatile BoundRows bound;
  private volatile IndexKeeper indexes;
  private volatile boolean inOrder;
  private volatile Connection target;
  private volatile Connection local;
  // replicate() runs on one thread per WAL group (several with multiwal).
  private final AtomicInteger failedInARow = new AtomicInteger();
  private final Map<String, WriteRate.Meter> meters = new ConcurrentHashMap<>();

  @Override
  public void init(Context context) throws IOException {
    this.context = context;
    configure(context.getPeerConfig());
  }

  private void configure(ReplicationPeerConfig peer) {
    StreamSettings s = StreamSettings.fromPeerConfiguration(peer.getConfiguration());
    mapper = EditMapper.of(s);
    indexes = new IndexKeeper(s.indexes());
    inOrder = peer.isSerial();
    settings = s;
    bound = null; // the target's families are read again, when a batch needs them
  }

  @Override
  public void peerConfigUpdated(ReplicationPeerConfig peer) {
    configure(peer);
  }

  @Override
  public boolean canReplicateToSameCluster() {
    return true;
  }

  /** A fixed id of the target: HBase marks shipped edits with it and never ships them back. */
  @Override
  public UUID getPeerUUID() {
    return UUID.nameUUIDFromBytes(
        ("rekey-stream:" + settings.target().getNameAsString()).getBytes(StandardCharsets.UTF_8));
  }

  /** The source table's edits, and the fence table's for the switch's {@link Fences}. */
  @Override
  public WALEntryFilter getWALEntryfilter() {
    return entry -> {
      TableName t = entry.getKey().getTableName();
      return t.equals(settings.source()) || t.equals(settings.fenceTable()) ? entry : null;
    };
  }

  /** What a batch wrote and refused so far, and the cells it has still to read back. */
  private static final class Written {
    final List<String> refused = new ArrayList<>();
    final List<HiddenCells.Stamped> stamped = new ArrayList<>();
    final List<Put> carried = new ArrayList<>();
    // The target rows written, when the stream keeps indexes of the target.
    final Set<byte[]> targetRows = new TreeSet<>(Bytes.BYTES_COMPARATOR);
    long rows;
    long cells;
    byte[] firstRow;
  }

  @Override
  public boolean replicate(ReplicateContext batch) {
    StreamSettings s = settings;
    Written w = new Written();
    // Fences seen in this batch, with the source edits that followed each (a writer not stopped).
    Map<Fences.Fence, Long> fences = new LinkedHashMap<>();
    try (TargetWriter out =
            new TargetWriter(
                target()
                    .getBufferedMutator(
                        new BufferedMutatorParams(s.target()).writeBufferSize(WRITE_BUFFER_BYTES)),
                inOrder);
        BoundRows.Batch placed = placer(s)) {
      if (placed != null) {
        placed.place(sourceRows(s, batch.getEntries()));
      }
      for (WAL.Entry entry : batch.getEntries()) {
        TableName table = entry.getKey().getTableName();
        if (table.equals(s.fenceTable())) {
          Fences.in(entry.getEdit().getCells(), context.getPeerId())
              .forEach(f -> fences.put(f, 0L));
          continue;
        }
        if (!table.equals(s.source())) {
          continue;
        }
        fences.replaceAll((f, after) -> after + 1);
        long loggedAt = entry.getKey().getWriteTime();
        EditMapper.Mapped mapped = map(entry.getEdit().getCells(), loggedAt, placed);
        write(s, mapped, out, w);
        for (Cell load : mapped.bulkLoads()) {
          carry(s, load, loggedAt, out, w, placed);
        }
      }
      // Every row is in the target before the cells are read back and the fences acknowledged.
      out.flush();
      readBack(s, w.stamped);
      keepIndexes(s, w);
      List<Put> moved = placed == null ? List.of() : placed.records();
      List<byte[]> unrefused = placed == null ? List.of() : placed.unrefused();
      if (!w.refused.isEmpty()
          || !w.carried.isEmpty()
          || !moved.isEmpty()
          || !unrefused.isEmpty()) {
        // Recorded where status and the switch read them: never dropped silently. The key map
        // says where rows are only once the target holds them there.
        try (Table t = target().getTable(s.fenceTable())) {
          t.put(Fences.refused(context.getPeerId(), w.refused));
          t.put(w.carried);
          t.put(moved);
          if (!unrefused.isEmpty()) {
            t.delete(Fences.unrefused(context.getPeerId(), unrefused));
          }
        }
      }
      if (!fences.isEmpty()) {
        // Only now: every edit shipped before each fence is in the target.
        acknowledge(s, fences);
      }
      recordRate(s, batch.getWalGroupId(), w.cells);
      failedInARow.set(0);
      return true;
    } catch (VirtualMachineError e) {
      throw e; // out of memory or a broken JVM: nothing this endpoint can wait out
    } catch (Throwable e) {
      // Anything else that escaped would abort the region server (a LinkageError: a jar that does
      // not match the servers'); it is logged, waited out and shipped again instead.
      int failures = failedInARow.incrementAndGet();
      long pause = Math.min(MAX_PAUSE_MS, 500L << Math.min(failures - 1, 6));
      LOG.warn(
          "rekey stream {} -> {}: cannot write {} target mutations (first row {}), attempt {} in a"
              + " row; HBase ships the batch again in {} ms: {}",
          s.source(),
          s.target(),
          w.rows,
          w.firstRow == null ? "-" : Bytes.toStringBinary(w.firstRow),
          failures,
          pause,
          e.toString());
      sleep(pause);
      return false;
    }
  }

  /** An edit's mapped cells: under their keys, or where {@code placed} puts their rows. */
  private EditMapper.Mapped map(List<Cell> cells, long loggedAt, BoundRows.Batch placed)
      throws IOException {
    if (placed == null) {
      return mapper.map(cells, loggedAt);
    }
    placed.place(BoundRows.rowsOf(cells));
    return mapper.map(cells, loggedAt, placed::take);
  }

  /** The source rows a batch's edits name, in order, each once. */
  private static List<byte[]> sourceRows(StreamSettings s, List<WAL.Entry> entries) {
    List<Cell> cells = new ArrayList<>();
    for (WAL.Entry e : entries) {
      if (e.getKey().getTableName().equals(s.source())) {
        cells.addAll(e.getEdit().getCells());
      }
    }
    return BoundRows.rowsOf(cells);
  }

  /** A batch's placer where the stream's key is bound to a column, else null. */
  private BoundRows.Batch placer(StreamSettings s) throws IOException {
    if (mapper.bound() == null) {
      return null;
    }
    return boundRows(s).new Batch(source().getTable(s.source()), target().getTable(s.fenceTable()));
  }

  /** The placer of a column-bound stream, with the target's families (read once). */
  private BoundRows boundRows(StreamSettings s) throws IOException {
    BoundRows b = bound;
    if (b == null) {
      List<byte[]> families = new ArrayList<>();
      try (Table t = target().getTable(s.target())) {
        for (var f : t.getDescriptor().getColumnFamilies()) {
          families.add(f.getName());
        }
      }
      b = new BoundRows(mapper.bound(), context.getPeerId(), families);
      bound = b;
    }
    return b;
  }

  /** Writes mapped mutations, and tallies and logs what they hold and what was refused. */
  private void write(StreamSettings s, EditMapper.Mapped mapped, TargetWriter out, Written w)
      throws IOException {
    for (String row : mapped.rejected()) {
      LOG.warn("rekey stream {} -> {}: cannot map row {}", s.source(), s.target(), row);
    }
    w.refused.addAll(mapped.rejected());
    if (w.firstRow == null && !mapped.mutations().isEmpty()) {
      w.firstRow = mapped.mutations().get(0).getRow();
    }
    w.rows += mapped.mutations().size();
    boolean indexed = !indexes.isEmpty();
    for (Mutation m : mapped.mutations()) {
      w.cells += m.size();
      if (indexed) {
        w.targetRows.add(m.getRow());
      }
    }
    out.write(mapped.mutations());
    w.stamped.addAll(mapped.stampedBefore());
    if (w.stamped.size() >= READ_BACK_CHUNK) {
      out.flush();
      readBack(s, w.stamped);
    }
  }

  /**
   * Brings the indexes of the target up to date with the rows the batch wrote, once the target
   * holds them (each row once a batch, after its last write); the rows an index rejects are refused
   * like rows the mapping cannot place.
   */
  private void keepIndexes(StreamSettings s, Written w) throws IOException {
    if (w.targetRows.isEmpty()) {
      return;
    }
    List<String> rejected =
        indexes.keep(target(), s.target(), w.targetRows, System.currentTimeMillis());
    for (String row : rejected) {
      LOG.warn("rekey stream {} -> {}: {} (no entry written)", s.source(), s.target(), row);
    }
    w.refused.addAll(rejected);
  }

  /**
   * Carries a bulk load into the source: its store files' cells, read where the region or the
   * archive keeps them and written at the marker's place in the log, like any edit's. A file gone
   * from both is refused in one line naming it (its cells are in the source, not in the target).
   */
  private void carry(
      StreamSettings s,
      Cell marker,
      long loggedAt,
      TargetWriter out,
      Written w,
      BoundRows.Batch placed)
      throws IOException {
    Configuration server = context.getLocalConfiguration();
    BulkLoadedFiles.Files files = BulkLoadedFiles.locate(marker, s.source(), server);
    if (!files.missing().isEmpty()) {
      try (Table t = target().getTable(s.fenceTable())) {
        if (BulkLoadedFiles.wasCarried(t, context.getPeerId(), files.load())) {
          LOG.info(
              "rekey stream {} -> {}: the bulk load {} was shipped again; carried already",
              s.source(),
              s.target(),
              files.load());
          return;
        }
      }
    }
    String load = "HBASE::BULK_LOAD of region " + files.load();
    for (String gone : files.missing()) {
      String line =
          load
              + "\tits store file "
              + gone
              + " was deleted before the stream read it: write its cells with 'rekey repair'"
              + " (with hbase.replication.bulkload.enabled HBase keeps it until the stream ships"
              + " the load)";
      LOG.warn("rekey stream {} -> {}: cannot carry {}", s.source(), s.target(), line);
      w.refused.add(line);
    }
    for (Path file : files.found()) {
      BulkLoadedFiles.read(file, server, cells -> write(s, map(cells, loggedAt, placed), out, w));
      LOG.info("rekey stream {} -> {}: carried the bulk-loaded {}", s.source(), s.target(), file);
    }
    w.carried.add(BulkLoadedFiles.carried(context.getPeerId(), files.load()));
  }

  /**
   * Reads the cells stamped in the past back from both tables, and records the ones that read
   * differently for the switch ({@link HiddenCells}); empties {@code stamped}.
   */
  private void readBack(StreamSettings s, List<HiddenCells.Stamped> stamped) throws IOException {
    if (stamped.isEmpty()) {
      return;
    }
    List<HiddenCells.Seen> differing;
    try (Table from = source().getTable(s.source());
        Table to = target().getTable(s.target())) {
      differing = HiddenCells.differing(from, to, stamped);
    }
    stamped.clear();
    if (differing.isEmpty()) {
      return;
    }
    for (HiddenCells.Seen c : differing) {
      LOG.warn(
          "rekey stream {} -> {}: cell {} (a delete marker one table compacted away and the other"
              + " keeps); recorded for the switch",
          s.source(),
          s.target(),
          c.describe());
    }
    try (Table t = target().getTable(s.fenceTable())) {
      t.put(HiddenCells.records(context.getPeerId(), differing));
    }
  }

  /**
   * Counts the batch's cells for its queue (its WAL group; HBase names one for every batch it
   * ships), and records the queue's count and rate.
   */
  private void recordRate(StreamSettings s, String walGroup, long cells) throws IOException {
    if (cells == 0) {
      return;
    }
    Put rate =
        meters
            .computeIfAbsent(walGroup == null ? "-" : walGroup, WriteRate.Meter::new)
            .written(context.getPeerId(), cells, System.currentTimeMillis());
    try (Table t = target().getTable(s.fenceTable())) {
      t.put(rate);
    }
  }

  private void acknowledge(StreamSettings s, Map<Fences.Fence, Long> fences) throws IOException {
    boolean severalWals = severalWals(context.getLocalConfiguration());
    List<Put> acks = new ArrayList<>();
    fences.forEach(
        (f, after) ->
            acks.add(
                Fences.ack(context.getPeerId(), f, severalWals ? Fences.SEVERAL_WALS : after)));
    try (Table t = target().getTable(s.fenceTable())) {
      t.put(acks);
    }
    LOG.info(
        "rekey stream {} -> {}: fence {} acknowledged (region {} of {})",
        s.source(),
        s.target(),
        fences.keySet().iterator().next().fenceId(),
        fences.keySet().iterator().next().region(),
        s.fenceTable());
  }

  /**
   * Whether this region server writes several WALs (HBase's {@code multiwal}, a region grouping
   * provider): a fence lands in one of them and proves nothing of the others.
   */
  static boolean severalWals(Configuration server) {
    String provider = server.getTrimmed("hbase.wal.provider", "");
    return provider.equalsIgnoreCase("multiwal") || provider.endsWith(".RegionGroupingProvider");
  }

  /** A connection to the source's own cluster, to read cells back. */
  private synchronized Connection source() throws IOException {
    if (local == null || local.isClosed()) {
      local =
          ConnectionFactory.createConnection(clientConfiguration(context.getLocalConfiguration()));
    }
    return local;
  }

  private synchronized Connection target() throws IOException {
    if (target == null || target.isClosed()) {
      target =
          ConnectionFactory.createConnection(
              settings.targetConfiguration(clientConfiguration(context.getLocalConfiguration())));
    }
    return target;
  }

  private static Configuration clientConfiguration(Configuration local) {
    Configuration c = new Configuration(local);
    // A call that cannot succeed fails within seconds, is logged and backed off here, instead of
    // holding the shipping thread in the client's retries for minutes with no line.
    c.setInt(HConstants.HBASE_CLIENT_RETRIES_NUMBER, CLIENT_RETRIES);
    c.setInt(HConstants.HBASE_CLIENT_OPERATION_TIMEOUT, CLIENT_TIMEOUT_MS);
    return c;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public boolean isRunning() {
    return state == State.RUNNING;
  }

  @Override
  public boolean isStarting() {
    return false;
  }

  @Override
  public void start() {
    state = State.RUNNING;
    LOG.info(
        "rekey stream {} -> {} started: {} {} {}",
        settings.source(),
        settings.target(),
        settings.sourceKey(),
        settings.reverse() ? "<=" : "=>",
        settings.targetKey());
  }

  @Override
  public void awaitRunning() {}

  @Override
  public void awaitRunning(long timeout, java.util.concurrent.TimeUnit unit) {}

  @Override
  public synchronized void stop() {
    state = State.STOPPED;
    for (Connection c : new Connection[] {target, local}) {
      if (c != null) {
        try {
          c.close();
        } catch (IOException e) {
          failure = e;
          state = State.FAILED;
        }
      }
    }
  }

  @Override
  public void awaitTerminated() {}

  @Override
  public void awaitTerminated(long timeout, java.util.concurrent.TimeUnit unit) {}

  @Override
  public Throwable failureCause() {
    return failure;
  }
}
