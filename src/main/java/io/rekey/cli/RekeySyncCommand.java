package io.rekey.cli;

import io.rekey.common.FindingsFound;
import io.rekey.rekey.RekeyOptions;
import io.rekey.rekey.SwitchVerdict;
import io.rekey.rekey.SyncJob;
import io.rekey.rekey.SyncOptions;
import io.rekey.rekey.SyncResult;
import io.rekey.report.SyncText;
import io.rekey.security.Grant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.TableName;

/**
 * {@code rekey sync}: copy what was written to the source since the last copy or sync, through the
 * key mapping, deletes included; {@code --final} once writers are stopped, with a verify.
 */
final class RekeySyncCommand implements Command<SyncOptions> {
  @Override
  public About about() {
    return About.of(
            "rekey sync",
            "catch a re-keyed copy up with the source's later writes and deletes (live migration)",
            SyncResult.class)
        .alsoExits(ExitCode.BUSY, ExitCode.FINDINGS)
        .throttle()
        .jobFilesOf("rekey");
  }

  @Override
  public List<Grant> grants(SyncOptions o) {
    RekeyOptions rekey = o.rekey();
    List<Grant> grants =
        new ArrayList<>(
            List.of(
                Grant.read(rekey.source()),
                Grant.describe(rekey.source()),
                Grant.read(rekey.target()),
                Grant.describe(rekey.target())));
    if (o.write() != SyncOptions.Write.HFILES || o.repair()) {
      // A repair writes Puts and Deletes whatever the windows use.
      grants.add(Grant.write(rekey.target()));
    }
    if (o.write() != SyncOptions.Write.PUTS) {
      grants.addAll(Grant.bulkLoad(rekey.target()));
    }
    if (o.finalRun()) {
      // The final verify (and repair) read the source through a snapshot, unless live.
      grants.addAll(Grant.snapshotRead(rekey.source(), rekey.read()));
    }
    grants.addAll(Grant.state(TableName.valueOf(rekey.stateTable())));
    return grants;
  }

  @Override
  public Parsing<SyncOptions> parsing() {
    return new Parsing<>(SyncOptions.declared(), SyncOptions::from);
  }

  @Override
  public ExitCode run(SyncOptions options, CommandContext context) throws Exception {
    return context.runJob(
        about().name(),
        options.rekey().source(),
        options.rekey().target(),
        job -> {
          SyncResult result = new SyncJob(job, options).execute();
          context.emit(SyncText.sync(result), result);
          if (result.finalRun()) {
            Optional<String> refusal = SwitchVerdict.refusal(result);
            if (refusal.isPresent()) {
              throw new FindingsFound(refusal.get());
            }
          }
          return ExitCode.OK;
        });
  }
}
