package io.rekey.cli;

import io.rekey.index.IndexDefinition;
import io.rekey.index.IndexScrutinyJob;
import io.rekey.index.IndexScrutinyOptions;
import io.rekey.index.IndexScrutinyResult;
import io.rekey.report.IndexText;
import io.rekey.security.Grant;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code index scrutiny}: compare an index with its source both ways; exits 4 when they differ and
 * nothing was repaired, or, with {@code --fail-on-foreign}, when the index table holds rows that
 * are no entries of the index.
 */
final class IndexScrutinyCommand implements Command<IndexScrutinyOptions> {
  @Override
  public About about() {
    return About.of(
            "index scrutiny",
            "find missing, stale, invalid and orphan index entries; --repair fixes them",
            IndexScrutinyResult.class)
        .alsoExits(ExitCode.BUSY, ExitCode.FINDINGS)
        .throttle();
  }

  @Override
  public List<Grant> grants(IndexScrutinyOptions o) {
    IndexDefinition def = o.definition();
    List<Grant> grants = new ArrayList<>(Grant.fullRead(def.source(), o.read()));
    grants.add(Grant.read(def.indexTable()));
    grants.add(Grant.describe(def.indexTable()));
    if (o.repair()) {
      grants.add(Grant.write(def.indexTable()));
    }
    grants.addAll(Grant.state(def.stateTable()));
    return grants;
  }

  @Override
  public Parsing<IndexScrutinyOptions> parsing() {
    return new Parsing<>(
        IndexScrutinyOptions.declared(),
        IndexDefinition::withDefinitionFile,
        IndexScrutinyOptions::from);
  }

  @Override
  public ExitCode run(IndexScrutinyOptions o, CommandContext context) throws Exception {
    return context.runJob(
        about().name(),
        o.definition().source(),
        o.definition().indexTable(),
        job -> {
          IndexScrutinyResult result =
              new IndexScrutinyJob(job, o.definition(), o.read(), o.staging())
                  .execute(o.repair(), o.samples(), o.breakLock());
          context.emit(IndexText.scrutiny(result), result);
          boolean foreignRefused = o.failOnForeign() && result.foreign() > 0;
          return (result.clean() || result.repaired()) && !foreignRefused
              ? ExitCode.OK
              : ExitCode.FINDINGS;
        });
  }
}
