package io.rekey.cli;

import io.rekey.common.FindingsFound;
import io.rekey.hbase.HBaseConnections;
import io.rekey.rekey.RekeyJob;
import io.rekey.rekey.RekeyOptions;
import io.rekey.rekey.RekeyPlan;
import io.rekey.rekey.RekeyResult;
import io.rekey.report.RekeyText;
import io.rekey.security.Grant;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;

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
    return grantsOf(o);
  }

  /** What a copy needs granted, also {@code stream start}'s. */
  static List<Grant> grantsOf(RekeyOptions o) {
    List<Grant> grants = new ArrayList<>(Grant.fullRead(o.source(), o.read()));
    grants.addAll(Grant.bulkLoad(o.target()));
    // Its verify reads the target; a target it creates is its own.
    grants.add(Grant.read(o.target()));
    grants.add(Grant.describe(o.target()));
    grants.addAll(Grant.state(TableName.valueOf(o.stateTable())));
    return grants;
  }

  @Override
  public Parsing<RekeyOptions> parsing() {
    return new Parsing<>(RekeyOptions.declared(), RekeyOptions::from);
  }

  @Override
  public ExitCode run(RekeyOptions options, CommandContext context) throws Exception {
    if (options.dryRun()) {
      return dryRun(options, context);
    }
    return context.runJob(
        about().name(),
        options.source(),
        options.target(),
        job -> {
          RekeyResult result = new RekeyJob(job, options, RekeyJob.plan(job, options)).execute();
          context.emit(RekeyText.result(result), result);
          if (result.verify() != null && !result.verify().matches()) {
            throw new FindingsFound(
                "verify found "
                    + result.verify().differingRegions()
                    + " target region(s) that differ from the source (listed above); the data is"
                    + " loaded, inspect those key ranges");
          }
          return ExitCode.OK;
        });
  }

  /** The plan alone, without starting Spark. */
  private static ExitCode dryRun(RekeyOptions options, CommandContext context) throws IOException {
    try (Connection connection = HBaseConnections.open(context.hbase())) {
      RekeyResult result = RekeyJob.dryRun(connection, context.hbase().toConfiguration(), options);
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
  }
}
