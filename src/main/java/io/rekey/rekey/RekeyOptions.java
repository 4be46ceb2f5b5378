package io.rekey.rekey;

import io.rekey.keys.KeyMapping;
import io.rekey.options.InvalidOptionException;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.options.OptionsBuilder;
import io.rekey.options.ReadMode;
import io.rekey.options.SharedOptions;
import io.rekey.read.ReadOptions;
import io.rekey.run.RunLock;
import io.rekey.run.RunState;
import io.rekey.schema.TableInspector;
import java.util.List;
import org.apache.hadoop.hbase.TableName;

/**
 * Options of {@code rekey}.
 *
 * @param read from a snapshot (the default), or a live scan through the region servers
 * @param staging where run directories go (a URI or path on the cluster's filesystem), or null for
 *     the default: {@code hbase.fs.tmp.dir/rekey} on the cluster's filesystem (see {@link
 *     io.rekey.run.RunFiles#staging})
 * @param regions regions of the target for layouts that do not start with a salt
 * @param tasksPerRegion writer tasks per target region, 0 to choose from the cluster's cores
 * @param batch cells per scan result, so wide rows are read in pieces
 * @param raw read raw: delete markers and the cells they hide are copied too
 * @param createNamespace create the target's namespace when it does not exist
 * @param stateTable where the run lock of the target lives
 * @param breakLock take the target's run lock even when held
 * @param safetyLagMillis the sync watermark the copy records is its read's start minus this
 */
public record RekeyOptions(
    TableName source,
    TableName target,
    KeyMapping mapping,
    ReadMode read,
    boolean keepSnapshot,
    String staging,
    long maxRejects,
    boolean dryRun,
    boolean verify,
    long maxFileBytes,
    int splitsPerBucket,
    int regions,
    int tasksPerRegion,
    boolean allowNonEmpty,
    boolean allowMerge,
    int batch,
    boolean raw,
    boolean createNamespace,
    String stateTable,
    boolean breakLock,
    long safetyLagMillis) {
  public static final OptionDef<String> SOURCE = SharedOptions.SOURCE;
  public static final OptionDef<String> TARGET = SharedOptions.TARGET;
  public static final OptionDef<String> SOURCE_KEY = SharedOptions.SOURCE_KEY;
  public static final OptionDef<String> TARGET_KEY = SharedOptions.TARGET_KEY;
  public static final OptionDef<Boolean> SNAPSHOT = ReadOptions.SNAPSHOT;
  public static final OptionDef<Boolean> LIVE_SCAN = ReadOptions.LIVE_SCAN;
  public static final OptionDef<Boolean> KEEP_SNAPSHOT =
      OptionDef.flag("keep-snapshot", "keep the snapshot taken of the source after the job");
  public static final OptionDef<String> STAGING = SharedOptions.STAGING;
  public static final OptionDef<Long> MAX_REJECTS = SharedOptions.MAX_REJECTS;
  public static final OptionDef<Boolean> DRY_RUN =
      OptionDef.flag("dry-run", "print the plan (sample keys, regions) and touch nothing");
  public static final OptionDef<Boolean> NO_VERIFY =
      OptionDef.flag("no-verify", "skip comparing source and target after the load");
  public static final OptionDef<Long> MAX_FILE_SIZE =
      OptionDef.number("max-file-size", "BYTES", "roll HFiles at this size", 1L << 20, 1L << 40)
          .withDefault(1L << 30);
  public static final OptionDef<Long> SPLITS_PER_BUCKET =
      OptionDef.number("splits-per-bucket", "K", "regions per salt bucket in the new table", 1, 256)
          .withDefault(1L);
  public static final OptionDef<Long> REGIONS =
      OptionDef.number(
              "regions",
              "N",
              "regions of the new table when the layout does not start with a salt",
              1,
              65_536)
          .withDefault(16L);
  public static final OptionDef<Long> TASKS_PER_REGION =
      OptionDef.number(
              "tasks-per-region",
              "K",
              "writer tasks per target region, so a hot region is not one slow task (0: from the"
                  + " cores)",
              0,
              16)
          .withDefault(0L);
  public static final OptionDef<Boolean> ALLOW_NONEMPTY =
      OptionDef.flag("allow-nonempty", "write into a target that already holds rows");
  public static final OptionDef<Boolean> ALLOW_MERGE = SharedOptions.ALLOW_MERGE;
  public static final OptionDef<Long> BATCH = ReadOptions.BATCH;

  public static final OptionDef<Boolean> RAW = SharedOptions.RAW;

  public static final OptionDef<Boolean> CREATE_NAMESPACE = SharedOptions.CREATE_NAMESPACE;

  /** Every option of {@code rekey}, in usage order. */
  /** Typed options set option by option, validated as a command line's ({@link #from}). */
  public static OptionsBuilder<RekeyOptions> builder() {
    return new OptionsBuilder<>(declared(), RekeyOptions::from);
  }

  public static List<OptionDef<?>> declared() {
    return List.of(
        SOURCE,
        TARGET,
        SOURCE_KEY,
        TARGET_KEY,
        SNAPSHOT,
        LIVE_SCAN,
        ReadOptions.TARGET_SNAPSHOT_MIB,
        KEEP_SNAPSHOT,
        STAGING,
        MAX_REJECTS,
        DRY_RUN,
        NO_VERIFY,
        MAX_FILE_SIZE,
        SPLITS_PER_BUCKET,
        REGIONS,
        TASKS_PER_REGION,
        ALLOW_NONEMPTY,
        ALLOW_MERGE,
        BATCH,
        RAW,
        CREATE_NAMESPACE,
        RunLock.STATE_TABLE,
        RunLock.BREAK_LOCK,
        RunState.SAFETY_LAG,
        RunState.ALLOW_SHORT_LAG);
  }

  /** Builds and checks the options from validated values. */
  public static RekeyOptions from(OptionValues values) {
    ReadMode read = ReadOptions.mode(values);
    TableName source = TableInspector.tableName(SOURCE.name(), values.get(SOURCE));
    TableName target = TableInspector.tableName(TARGET.name(), values.get(TARGET));
    if (source.equals(target)) {
      throw InvalidOptionException.of(
          TARGET.name(), values.get(TARGET), "is the source table; rekey writes a new table");
    }
    return new RekeyOptions(
        source,
        target,
        mapping(values.get(SOURCE_KEY), values.get(TARGET_KEY)),
        read,
        values.get(KEEP_SNAPSHOT),
        values.get(STAGING),
        values.get(MAX_REJECTS),
        values.get(DRY_RUN),
        !values.get(NO_VERIFY),
        values.get(MAX_FILE_SIZE),
        values.get(SPLITS_PER_BUCKET).intValue(),
        values.get(REGIONS).intValue(),
        values.get(TASKS_PER_REGION).intValue(),
        values.get(ALLOW_NONEMPTY),
        values.get(ALLOW_MERGE),
        values.get(BATCH).intValue(),
        values.get(RAW),
        values.get(CREATE_NAMESPACE),
        values.get(RunLock.STATE_TABLE),
        values.get(RunLock.BREAK_LOCK),
        RunState.lagMillis(values.get(RunState.SAFETY_LAG), values.get(RunState.ALLOW_SHORT_LAG)));
  }

  /** Parses both key specs; a bad one is an option error naming its option and column. */
  public static KeyMapping mapping(String sourceSpec, String targetSpec) {
    return SharedOptions.mapping(sourceSpec, targetSpec);
  }

  /**
   * Every option that changes which cells are written, or how they are cut into files: a rerun with
   * any of them changed starts clean instead of loading files written without it.
   */
  public String fingerprint() {
    return source()
        + " -> "
        + target()
        + " | "
        + mapping().source().canonicalSpec()
        + " => "
        + mapping().target().canonicalSpec()
        + " | read="
        + read().cliName()
        + (raw() ? ",raw" : "")
        + " batch="
        + batch()
        + " allow-merge="
        + allowMerge()
        + " max-rejects="
        + maxRejects()
        + " max-file-size="
        + maxFileBytes()
        + " regions="
        + regions()
        + " splits-per-bucket="
        + splitsPerBucket()
        + " tasks-per-region="
        + tasksPerRegion();
  }
}
