package io.rekey.cli;

import io.rekey.common.FindingsFound;
import io.rekey.report.VerifyText;
import io.rekey.run.RunFiles;
import io.rekey.security.Grant;
import io.rekey.verify.VerifyJob;
import io.rekey.verify.VerifyOptions;
import io.rekey.verify.VerifyResult;
import io.rekey.verify.VerifyVerdict;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;

/** {@code verify}: prove a target holds what a source held, through a key mapping. */
final class VerifyCommand implements Command<VerifyOptions> {
  @Override
  public About about() {
    return About.of(
            "verify",
            "compare a source, through a key mapping, with a target: counts and digests per region",
            VerifyResult.class)
        .alsoExits(ExitCode.FINDINGS)
        .throttle();
  }

  @Override
  public List<Grant> grants(VerifyOptions o) {
    List<Grant> grants = new ArrayList<>(Grant.fullRead(o.source(), o.read()));
    grants.add(Grant.read(o.target()));
    grants.add(Grant.describe(o.target()));
    // The definition a rekey pinned, when there is a state table.
    grants.add(Grant.read(TableName.valueOf(o.stateTable())));
    return grants;
  }

  @Override
  public Parsing<VerifyOptions> parsing() {
    return new Parsing<>(VerifyOptions.declared(), VerifyOptions::from);
  }

  @Override
  public ExitCode run(VerifyOptions options, CommandContext context) throws Exception {
    return context.runJob(
        about().name(),
        options.source(),
        options.target(),
        job -> {
          VerifyResult result =
              VerifyJob.recorded(job, options, RunFiles.staging(job.conf(), null));
          context.emit(
              "verify: "
                  + options.source()
                  + " -> "
                  + options.target()
                  + (options.until() == null
                      ? ""
                      : " (cells below " + java.time.Instant.ofEpochMilli(options.until()) + ")")
                  + "\n"
                  + VerifyText.verify(result),
              result);
          var finding = VerifyVerdict.finding(result, options);
          if (finding.isPresent()) {
            throw new FindingsFound(finding.get());
          }
          return ExitCode.OK;
        });
  }
}
