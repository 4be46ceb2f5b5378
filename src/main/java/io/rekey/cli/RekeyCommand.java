package io.rekey.cli;

import io.rekey.common.FindingsFound;
import io.rekey.hbase.HBaseConnections;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.rekey.RekeyJob;
import io.rekey.rekey.RekeyOptions;
import io.rekey.rekey.RekeyPlan;
import io.rekey.rekey.RekeyPlanner;
import io.rekey.rekey.RekeyResult;
import io.rekey.report.RekeyText;
import io.rekey.security.Grant;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/** {@code rekey}: copy a table into a new row-key layout through HFiles and bulk load. */
final class RekeyCommand implements Command<RekeyOptions> {
  @Override
  public About about() {
    return About.of(
            "rekey",
            "copy a table into a new row-key layout through HFiles and bulk load, then verify",
            RekeyResult.class)
        .alsoExits(ExitCode.BUSY, ExitCode.FINDINGS)
        .throttle();
  }

  @Override
  public List<Grant> grants(RekeyOptions o) {
    List<Grant> grants = new ArrayList<>(Grant.fullRead(o.source(), o.liveScan()));
    grants.addAll(Grant.bulkLoad(o.target()));
    // Its verify reads the target; a target it creates is its own.
    grants.add(Grant.read(o.target()));
    grants.add(Grant.describe(o.target()));
    grants.addAll(Grant.state(TableName.valueOf(o.stateTable())));
    return grants;
  }

  @Override
  public List<OptionDef<?>> options() {
    return RekeyOptions.declared();
  }

  @Override
  public RekeyOptions typed(OptionValues values) {
    return RekeyOptions.from(values);
  }

  @Override
  public ExitCode run(RekeyOptions options, CommandContext context) throws Exception {
    Configuration conf = context.hbase().toConfiguration();
    try (Connection connection = HBaseConnections.open(context.hbase())) {
      if (options.dryRun()) {
        RekeyResult result = RekeyJob.dryRun(connection, conf, options);
        RekeyPlan plan = result.plan();
        context.emit(RekeyText.result(result), result);
        if (plan.everySampleRejected()) {
          // A plan that would copy nothing is no plan: say so, and let a script see it.
          context
              .err()
              .println(
                  "error: rekey: every one of the "
                      + plan.sampleKeys().size()
                      + " sample rows is rejected (first: "
                      + plan.sampleKeys().get(0).reject()
                      + "): --source-key does not describe "
                      + options.source()
                      + "'s keys; fix it and try again");
          return ExitCode.FAILED;
        }
        return ExitCode.OK;
      }
      SparkSession spark =
          context.spark("hbase-rekey rekey " + options.source() + " -> " + options.target());
      JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
      RekeyPlanner.Planned planned = RekeyJob.plan(sc, connection, conf, options);
      RekeyResult result = new RekeyJob(sc, connection, conf, options, planned).execute();
      context.emit(RekeyText.result(result), result);
      if (result.verify() != null && !result.verify().matches()) {
        throw new FindingsFound(
            "verify found "
                + result.verify().differingRegions()
                + " target region(s) that differ from the source (listed above); the data is"
                + " loaded, inspect those key ranges");
      }
      return ExitCode.OK;
    }
  }
}
