package io.rekey.cli;

import io.rekey.common.FindingsFound;
import io.rekey.rekey.RekeyOptions;
import io.rekey.rekey.RepairJob;
import io.rekey.rekey.RepairOptions;
import io.rekey.rekey.RepairResult;
import io.rekey.report.RepairText;
import io.rekey.security.Grant;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;

/**
 * {@code rekey repair}: compare a migration's source and target row by row through the key mapping
 * and write only what differs; {@code --dry-run} counts and writes nothing.
 */
final class RekeyRepairCommand implements Command<RepairOptions> {
  @Override
  public About about() {
    return About.of(
            "rekey repair",
            "compare a re-keyed copy with its source row by row and write only what differs",
            RepairResult.class)
        .alsoExits(ExitCode.BUSY, ExitCode.FINDINGS)
        .throttle()
        .jobFilesOf("rekey");
  }

  @Override
  public List<Grant> grants(RepairOptions o) {
    RekeyOptions rekey = o.rekey();
    // The source through a snapshot (unless live); the target through one where these grants
    // allow it (TableRead.openCompared), else live.
    List<Grant> grants = new ArrayList<>(Grant.fullRead(rekey.source(), rekey.read()));
    grants.addAll(
        List.of(
            Grant.read(rekey.target()),
            Grant.describe(rekey.target()),
            Grant.write(rekey.target())));
    grants.addAll(Grant.state(TableName.valueOf(rekey.stateTable())));
    return grants;
  }

  @Override
  public Parsing<RepairOptions> parsing() {
    return new Parsing<>(RepairOptions.declared(), RepairOptions::from);
  }

  @Override
  public ExitCode run(RepairOptions options, CommandContext context) throws Exception {
    return context.runJob(
        about().name(),
        options.rekey().source(),
        options.rekey().target(),
        job -> {
          RepairResult result = new RepairJob(job, options).execute();
          context.emit(RepairText.repair(result), result);
          if (result.verify() != null && !result.verify().matches()) {
            throw new FindingsFound(
                "the verify after the repair found "
                    + result.verify().differingRegions()
                    + " target region(s) that still differ"
                    + (result.cellsMasked() > 0
                        ? ": " + result.maskedLine()
                        : " (the source changed while it ran?): run the repair again"));
          }
          String merged =
              result.verify() == null
                  ? null
                  : result.verify().mergedRefusal(options.rekey().allowMerge());
          if (merged != null) {
            throw new FindingsFound(merged);
          }
          if (result.verify() != null
              && !result.verify().unmapped().acknowledged(options.acceptUnmapped())) {
            throw new FindingsFound(
                "every mapped row matches, but "
                    + result.verify().unmapped().refusal(options.acceptUnmapped()));
          }
          return ExitCode.OK;
        });
  }
}
