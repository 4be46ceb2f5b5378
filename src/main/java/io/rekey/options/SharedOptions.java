package io.rekey.options;

import io.rekey.keys.KeyMapping;
import io.rekey.keys.LayoutException;

/**
 * The options several commands take, declared once: the two tables and key specs of a copy (rekey,
 * rekey sync, verify, layout), reading raw, the staging directory and the reject limit. A command's
 * own options class lists them next to its own, never borrowing another command's. (The read
 * options live with the readers, {@code read.ReadOptions}, and the safety lag with the run state,
 * {@code hbase.RunState}.)
 */
public final class SharedOptions {
  /** Whether a job may create the namespace of a table it creates. */
  public static final OptionDef<Boolean> CREATE_NAMESPACE =
      OptionDef.flag(
          "create-namespace",
          "create the namespace of a table the job creates when it does not exist (else a missing"
              + " one is refused)");

  public static final OptionDef<String> SOURCE =
      OptionDef.text("source", "NS:TABLE", "the table to copy").required();
  public static final OptionDef<String> TARGET =
      OptionDef.text("target", "NS:TABLE", "the table to write (created pre-split when missing)")
          .required();
  public static final OptionDef<String> SOURCE_KEY =
      OptionDef.text("source-key", "SPEC", "how the old row key is made (see README)").required();
  public static final OptionDef<String> TARGET_KEY =
      OptionDef.text("target-key", "SPEC", "how to build the new row key").required();
  public static final OptionDef<Boolean> RAW =
      OptionDef.flag(
          "raw",
          "also copy delete markers and the cells they hide (a raw scan), so the target masks"
              + " exactly what the source masks");
  public static final OptionDef<String> STAGING =
      OptionDef.text(
          "staging",
          "DIR",
          "directory for run files, snapshot restores and HFiles on the cluster's filesystem,"
              + " checked for write access first (default: /user/USER/hbase-staging/rekey, HBase's"
              + " hbase.fs.tmp.dir, on hbase.rootdir's filesystem; rekey-staging next to a local"
              + " hbase.rootdir)");
  public static final OptionDef<Long> MAX_REJECTS =
      OptionDef.number(
              "max-rejects",
              "N",
              "stop before loading when more rows than this cannot be mapped or indexed",
              0,
              Long.MAX_VALUE)
          .withDefault(0L);

  public static final OptionDef<Boolean> ALLOW_MERGE =
      OptionDef.flag(
          "allow-merge",
          "let a layout that is not injective merge old rows that get the same new key");
  public static final OptionDef<Long> ACCEPT_UNMAPPED =
      OptionDef.number(
          "accept-unmapped",
          "N",
          "acknowledge exactly N source rows that the key mapping cannot place (a key-bound column"
              + " deleted, a value the layout refuses): a match of every other row may then stand"
              + " as the verdict; refused when the count found is not N",
          0,
          Long.MAX_VALUE);

  private SharedOptions() {}

  /** The mapping the two specs describe; a spec that cannot be used names its option. */
  public static KeyMapping mapping(String sourceSpec, String targetSpec) {
    try {
      return KeyMapping.parse(sourceSpec, targetSpec);
    } catch (LayoutException e) {
      boolean source = "source key".equals(e.side());
      throw InvalidOptionException.of(
          source ? SOURCE_KEY.name() : TARGET_KEY.name(),
          source ? sourceSpec : targetSpec,
          "cannot be used: " + e.problemAndColumn());
    }
  }
}
