package io.rekey.cli;

import io.rekey.audit.AuditJob;
import io.rekey.audit.AuditOptions;
import io.rekey.audit.AuditResult;
import io.rekey.hbase.HBaseConnections;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.report.AuditReport;
import io.rekey.report.AuditText;
import io.rekey.security.Grant;
import java.util.List;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * {@code audit}: profile a table's keys, skew and hotspots in one pass, simulate layouts, and write
 * a JSON and an HTML report; the exit code follows {@code --fail-on}.
 */
final class AuditCommand implements Command<AuditOptions> {
  @Override
  public About about() {
    return About.of(
            "audit",
            "profile a table for key skew, hotspots, wide rows and cell sizes; simulate layouts;"
                + " write audit.json and audit.html",
            AuditResult.class)
        .alsoExits(ExitCode.FINDINGS)
        .throttle();
  }

  @Override
  public List<Grant> grants(AuditOptions o) {
    return Grant.fullRead(o.table(), o.liveScan());
  }

  @Override
  public List<OptionDef<?>> options() {
    return AuditOptions.declared();
  }

  @Override
  public AuditOptions typed(OptionValues values) {
    return AuditOptions.from(values);
  }

  @Override
  public ExitCode run(AuditOptions options, CommandContext context) throws Exception {
    try (Connection connection = HBaseConnections.open(context.hbase())) {
      SparkSession spark = context.spark("hbase-rekey audit " + options.table());
      JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
      AuditResult result =
          new AuditJob(sc, connection, context.hbase().toConfiguration(), options).execute();
      AuditReport.write(result, options.out(), context.hbase().toConfiguration());
      context.emit(AuditText.summary(result, options.out().toString()), result);
      if (AuditJob.fails(result, options.failOn())) {
        context
            .err()
            .println(
                "audit: findings at or above --fail-on "
                    + OptionDef.cliName(options.failOn())
                    + " fired; exit code "
                    + ExitCode.FINDINGS.code());
        return ExitCode.FINDINGS;
      }
      return ExitCode.OK;
    }
  }
}
