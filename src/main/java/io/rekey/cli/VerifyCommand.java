package io.rekey.cli;

import io.rekey.RekeyException;
import io.rekey.hbase.HBaseConnections;
import io.rekey.hbase.RunFiles;
import io.rekey.hbase.SourceReader;
import io.rekey.hbase.SparkSessions;
import io.rekey.hbase.TableAdmin;
import io.rekey.hbase.TableRead;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.report.RekeyText;
import io.rekey.verify.VerifyJob;
import io.rekey.verify.VerifyOptions;
import io.rekey.verify.VerifyResult;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;

/** {@code verify}: prove a target holds what a source held, through a key mapping. */
final class VerifyCommand implements Command<VerifyOptions> {
  @Override
  public String name() {
    return "verify";
  }

  @Override
  public String summary() {
    return "compare a source, through a key mapping, with a target: counts and digests per region";
  }

  @Override
  public List<OptionDef<?>> options() {
    return VerifyOptions.declared();
  }

  @Override
  public VerifyOptions typed(OptionValues values) {
    return VerifyOptions.from(values);
  }

  @Override
  public ExitCode run(VerifyOptions options, CommandContext context) throws Exception {
    Configuration conf = context.hbase().toConfiguration();
    try (Connection connection = HBaseConnections.open(context.hbase())) {
      TableAdmin admin = new TableAdmin(connection);
      admin.descriptor(options.source(), "source");
      admin.descriptor(options.target(), "target");
      JavaSparkContext sc =
          JavaSparkContext.fromSparkContext(
              SparkSessions.getOrCreate("hbase-rekey verify").sparkContext());
      // The source through its own snapshot (a point in time), deleted when done, failed or not.
      try (TableRead source =
          TableRead.open(
              sc,
              connection,
              conf,
              options.source(),
              SourceReader.fullScan(batch(options), options.raw()),
              options.liveScan(),
              RunFiles.staging(conf, null),
              "rekey-verify")) {
        JavaPairRDD<ImmutableBytesWritable, Result> target =
            SourceReader.live(
                sc, conf, options.target(), SourceReader.fullScan(options.batch(), options.raw()));
        VerifyResult result =
            new VerifyJob(sc, options.mapping(), admin.regionStartKeys(options.target()))
                .compare(source.rows(), target);
        context.emit(
            "verify: "
                + options.source()
                + " -> "
                + options.target()
                + "\n"
                + RekeyText.verify(result),
            result);
        if (!result.matches()) {
          throw new RekeyException(
              "the target differs from the source in "
                  + result.differingRegions()
                  + " region(s), listed above");
        }
        return ExitCode.OK;
      }
    }
  }

  /** Rows with column-bound fields must arrive whole. */
  private static int batch(VerifyOptions options) {
    return options.mapping().source().columns().isEmpty() ? options.batch() : 0;
  }
}
