package io.rekey.cli;

import io.rekey.index.IndexDefinition;
import io.rekey.index.IndexJob;
import io.rekey.index.IndexRunOptions;
import io.rekey.index.IndexRunResult;
import io.rekey.report.IndexText;
import io.rekey.security.Grant;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code index build} and {@code index update}: write index entries through HFiles and bulk load.
 */
final class IndexRunCommand implements Command<IndexRunOptions> {
  @Override
  public About about() {
    return About.of(
            kind.command(),
            kind == IndexJob.Kind.UPDATE
                ? "index the source cells written since the last run (for schedules)"
                : "build a secondary index table in full through HFiles and bulk load",
            IndexRunResult.class)
        .alsoExits(ExitCode.BUSY)
        .throttle();
  }

  private final IndexJob.Kind kind;

  IndexRunCommand(IndexJob.Kind kind) {
    this.kind = kind;
  }

  @Override
  public List<Grant> grants(IndexRunOptions o) {
    return grantsOf(kind, o);
  }

  /** What a build or update of an index needs the user to hold. */
  static List<Grant> grantsOf(IndexJob.Kind kind, IndexRunOptions o) {
    IndexDefinition def = o.definition();
    List<Grant> grants =
        new ArrayList<>(
            kind == IndexJob.Kind.UPDATE
                ? List.of(Grant.read(def.source()), Grant.describe(def.source()))
                : Grant.fullRead(def.source(), o.read()));
    grants.add(Grant.read(def.indexTable()));
    grants.add(Grant.describe(def.indexTable()));
    if (o.write() == IndexRunOptions.Write.PUTS) {
      grants.add(Grant.write(def.indexTable()));
    } else {
      grants.addAll(Grant.bulkLoad(def.indexTable()));
    }
    grants.addAll(Grant.state(def.stateTable()));
    return grants;
  }

  @Override
  public Parsing<IndexRunOptions> parsing() {
    return kind == IndexJob.Kind.UPDATE
        ? new Parsing<>(
            IndexRunOptions.declaredForUpdate(),
            IndexDefinition::withDefinitionFile,
            IndexRunOptions::forUpdate)
        : new Parsing<>(
            IndexRunOptions.declaredForBuild(),
            IndexDefinition::withDefinitionFile,
            IndexRunOptions::forBuild);
  }

  @Override
  public ExitCode run(IndexRunOptions options, CommandContext context) throws Exception {
    return context.runJob(
        about().name(),
        options.definition().source(),
        options.definition().indexTable(),
        job -> {
          IndexRunResult result =
              kind == IndexJob.Kind.UPDATE
                  ? IndexJob.update(job, options).execute()
                  : IndexJob.build(job, options).execute();
          context.emit(IndexText.run(result), result);
          return ExitCode.OK;
        });
  }
}
