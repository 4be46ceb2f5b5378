package io.rekey.cli;

import io.rekey.hbase.HBaseSettings;
import io.rekey.options.Location;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.pacing.Throttle;
import io.rekey.read.ReadOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Options every command takes: where HBase is, where to write JSON, a job file. */
final class CommonOptions {
  static final OptionDef<String> ZK =
      OptionDef.text(
          HBaseSettings.ZK_OPTION,
          "HOST:PORT[,HOST:PORT]",
          "ZooKeeper quorum of the HBase cluster; overrides the one in --hbase-conf");
  static final OptionDef<Path> HBASE_CONF =
      OptionDef.path(
          "hbase-conf",
          "DIR",
          "directory holding hbase-site.xml (default: $HBASE_CONF_DIR, else the classpath)");
  static final OptionDef<String> HBASE_SET =
      OptionDef.text(
              "hbase-set",
              "KEY=VALUE",
              "one HBase/Hadoop setting on top of the others (e.g. hbase.rootdir=hdfs://nn/hbase);"
                  + " repeatable")
          .repeatable()
          .validatedBy(
              (o, raw, v) -> {
                if (v.indexOf('=') <= 0) {
                  throw io.rekey.options.InvalidOptionException.of(
                      o, raw, "must look like key=value");
                }
                String key = v.substring(0, v.indexOf('=')).trim();
                if (key.startsWith("rekey.")) {
                  // The tool's own settings come from its options: one set here would silently
                  // override them (--gentle, --write-rate) or reach internals.
                  String option = Throttle.optionFor(key);
                  if (option == null) {
                    option = ReadOptions.optionFor(key);
                  }
                  throw io.rekey.options.InvalidOptionException.of(
                      o,
                      raw,
                      option != null
                          ? "rekey.* settings are the tool's own: use " + option + " instead"
                          : "rekey.* settings are the tool's own, and no option sets this one:"
                              + " leave it out");
                }
              });
  static final OptionDef<Location> JSON =
      OptionDef.location(
          "json",
          "FILE",
          "also write the result as JSON to FILE ('-' for stdout; hdfs://... for a Hadoop path)");
  static final OptionDef<Location> JOB_FILE =
      OptionDef.location(
          "job-file",
          "FILE",
          "job file: key = value lines with these options' names; command-line options win (a"
              + " local path, or hdfs://...)");

  /**
   * The job file's old name, kept so existing schedules run: after the command word it was easily
   * taken for spark-submit's {@code --conf K=V}. It warns.
   */
  static final OptionDef<Location> CONF =
      OptionDef.location("conf", "FILE", "deprecated: the same as --job-file");

  private CommonOptions() {}

  /** The common options, which every command's usage lists after its own. */
  static List<OptionDef<?>> declared() {
    return List.of(ZK, HBASE_CONF, HBASE_SET, JSON, JOB_FILE, CONF);
  }

  /** Options that make sense in a job file ({@code --job-file} inside a job file does not). */
  static List<OptionDef<?>> declaredInFiles() {
    return List.of(ZK, HBASE_CONF, HBASE_SET, JSON);
  }

  static HBaseSettings hbaseSettings(OptionValues values, Map<String, String> env) {
    Path confDir = values.get(HBASE_CONF);
    if (confDir == null && env.get("HBASE_CONF_DIR") != null) {
      confDir = Path.of(env.get("HBASE_CONF_DIR"));
    }
    Map<String, String> properties = new java.util.LinkedHashMap<>();
    for (String kv : values.getAll(HBASE_SET)) {
      int eq = kv.indexOf('=');
      properties.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
    }
    return new HBaseSettings(values.get(ZK), confDir, properties);
  }
}
