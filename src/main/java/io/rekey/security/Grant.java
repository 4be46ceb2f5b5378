package io.rekey.security;

import io.rekey.options.ReadMode;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.security.access.Permission.Action;

/**
 * One permission a command needs on a secure cluster, checked by {@link GrantCheck} before any
 * work: any one of {@code anyOf} on a table (or, for a table the job creates, on its namespace), or
 * the snapshot read's access to a table's files on the file system. Each command lists its grants
 * once ({@code Command.grants}); deploy/README.md's permissions table says the same.
 *
 * @param table the table the permission is on; null for a global one
 * @param anyOf the actions of which one suffices, e.g. ADMIN or CREATE to bulk load
 * @param purpose what the job does with it, for the refusal ("to take its snapshot")
 * @param otherwise another way to run without it, or empty ("or run with --live-scan")
 * @param kind on the table, on its namespace when the table is yet to be made, or on its files
 */
public record Grant(
    TableName table, List<Action> anyOf, String purpose, String otherwise, Kind kind) {

  /** What the grant is on. */
  public enum Kind {
    /** The table; checked only if it exists (a missing table is the job's own error). */
    TABLE,
    /** The table's namespace, when the job is to create the table (its creator then owns it). */
    NAMESPACE_IF_ABSENT,
    /** Read access to the table's files in hbase.rootdir, which a snapshot read needs. */
    SNAPSHOT_FILES,
    /** The cluster: global permission, as replication peers ask (no table). */
    GLOBAL
  }

  private static final String LIVE_SCAN = "or run with --live-scan";

  /** Global ADMIN, which HBase asks to add, list, change or remove a replication peer. */
  public static Grant clusterAdmin(String purpose) {
    return new Grant(null, List.of(Action.ADMIN), purpose, "", Kind.GLOBAL);
  }

  /** READ on {@code table}, to scan it. */
  public static Grant read(TableName table) {
    return new Grant(table, List.of(Action.READ), "to read it", "", Kind.TABLE);
  }

  /** WRITE on {@code table}, to write Puts and Deletes into it. */
  public static Grant write(TableName table) {
    return new Grant(table, List.of(Action.WRITE), "to write into it", "", Kind.TABLE);
  }

  /** ADMIN or CREATE on {@code table}, which HBase asks before it shows a table's settings. */
  public static Grant describe(TableName table) {
    return new Grant(
        table, List.of(Action.ADMIN, Action.CREATE), "to read its settings", "", Kind.TABLE);
  }

  /** What reading all of {@code table} takes: READ, its settings, and its snapshot unless live. */
  public static List<Grant> fullRead(TableName table, ReadMode read) {
    List<Grant> grants = new java.util.ArrayList<>(List.of(read(table), describe(table)));
    grants.addAll(snapshotRead(table, read));
    return grants;
  }

  /**
   * A snapshot read of {@code table}: ADMIN to take the snapshot and access to its files; none when
   * read live.
   */
  public static List<Grant> snapshotRead(TableName table, ReadMode read) {
    if (read == ReadMode.LIVE_SCAN) {
      return List.of();
    }
    return List.of(
        new Grant(table, List.of(Action.ADMIN), "to take its snapshot", LIVE_SCAN, Kind.TABLE),
        new Grant(table, List.of(), "to read its snapshot", LIVE_SCAN, Kind.SNAPSHOT_FILES));
  }

  /**
   * ADMIN or CREATE on {@code table} to bulk load into it (HBase's secure bulk load), or on its
   * namespace when the job creates it.
   */
  public static List<Grant> bulkLoad(TableName table) {
    return List.of(
        new Grant(
            table, List.of(Action.ADMIN, Action.CREATE), "to bulk load into it", "", Kind.TABLE),
        create(table, ""));
  }

  /**
   * READ and WRITE on the state table (run locks, watermarks, histories), or ADMIN or CREATE on its
   * namespace when it is yet to be created.
   */
  public static List<Grant> state(TableName stateTable) {
    return List.of(
        create(stateTable, "or have an admin create it"),
        new Grant(stateTable, List.of(Action.READ), "to read run state", "", Kind.TABLE),
        new Grant(stateTable, List.of(Action.WRITE), "to keep run state", "", Kind.TABLE));
  }

  /** ADMIN or CREATE on {@code table}'s namespace, when the table is yet to be created. */
  public static Grant create(TableName table, String otherwise) {
    return new Grant(
        table,
        List.of(Action.ADMIN, Action.CREATE),
        "to create " + table.getNameAsString(),
        otherwise,
        Kind.NAMESPACE_IF_ABSENT);
  }
}
