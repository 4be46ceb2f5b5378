package io.rekey.cli;

import io.rekey.common.FindingsFound;
import io.rekey.rekey.RekeyOptions;
import io.rekey.rekey.SyncJob;
import io.rekey.rekey.SyncOptions;
import io.rekey.rekey.SyncResult;
import io.rekey.report.RekeyText;
import io.rekey.security.Grant;
import java.util.ArrayList;
import java.util.List;
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
      grants.addAll(Grant.snapshotRead(rekey.source(), rekey.liveScan()));
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
          context.emit(RekeyText.sync(result), result);
          if (result.finalRun() && !result.switchSafe()) {
            if (result.sourceChanged() != null) {
              throw new FindingsFound(result.sourceChanged() + "; do not switch");
            }
            if (result.rowsWrittenAfterStop() > 0) {
              throw new FindingsFound(
                  result.rowsWrittenAfterStop()
                      + " source rows hold cells stamped at or after "
                      + java.time.Instant.ofEpochMilli(result.windowTo())
                      + " (first: "
                      + result.firstWrittenAfterStop()
                      + "): writers have not stopped; do not switch. Stop them, then run 'rekey sync"
                      + " --final' again with --writes-stopped-at after their last write");
            }
            String merged =
                result.verdict() == null
                    ? null
                    : result.verdict().mergedRefusal(result.mergeAllowed());
            if (merged != null && result.verdict().matches()) {
              throw new FindingsFound(merged + "; do not switch yet");
            }
            if (result.verdict() != null
                && result.verdict().matches()
                && result.verdict().rowsChangedSince() > 0) {
              throw new FindingsFound(
                  result.verdict().rowsChangedSince()
                      + " target rows hold cells stamped at or after --writes-stopped-at (first: "
                      + String.join(", ", result.verdict().changedExamples())
                      + "), so they were not compared: something wrote them after the stop; do not"
                      + " switch yet");
            }
            if (result.verdict() != null && result.verdict().matches()) {
              throw new FindingsFound(
                  "every mapped row matches, but "
                      + result.verdict().unmapped().refusal(result.acceptedUnmapped())
                      + "; do not switch yet");
            }
            throw new FindingsFound(
                "the final comparison found "
                    + result.verdict().differingRegions()
                    + " target region(s) that differ from the source below "
                    + java.time.Instant.ofEpochMilli(result.windowTo())
                    + " (listed above): do not switch yet. "
                    + (result.repair() == null
                        ? "A write stamped before the watermark or a delete a compaction purged is not"
                            + " seen by a time window: run 'rekey sync --final --repair' (or 'rekey"
                            + " repair') to write exactly what differs"
                        : result.repair().cellsMasked() > 0
                            ? RekeyText.masked(result.repair())
                            : "The source changed while the repair ran: run it again"));
          }
          return ExitCode.OK;
        });
  }
}
