package io.rekey.cli;

import io.rekey.audit.AuditJob;
import io.rekey.audit.AuditOptions;
import io.rekey.audit.AuditResult;
import io.rekey.options.OptionDef;
import io.rekey.report.AuditReport;
import io.rekey.report.AuditText;
import io.rekey.security.Grant;
import java.util.List;

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
    return Grant.fullRead(o.table(), o.read());
  }

  @Override
  public Parsing<AuditOptions> parsing() {
    return new Parsing<>(AuditOptions.declared(), AuditOptions::from);
  }

  @Override
  public ExitCode run(AuditOptions options, CommandContext context) throws Exception {
    return context.runJob(
        "hbase-rekey audit " + options.table(),
        job -> {
          AuditResult result = new AuditJob(job, options).execute();
          AuditReport.write(result, options.out(), job.conf());
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
        });
  }
}
