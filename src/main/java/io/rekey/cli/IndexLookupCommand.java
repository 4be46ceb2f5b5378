package io.rekey.cli;

import io.rekey.hbase.HBaseConnections;
import io.rekey.index.IndexDefinition;
import io.rekey.index.IndexLookup;
import io.rekey.index.IndexLookupOptions;
import io.rekey.report.IndexText;
import io.rekey.security.Grant;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.Connection;

/**
 * {@code index lookup}: one value's entries, newest first, with their source rows. With {@code
 * --check-source} it exits 4 when the source holds another number of rows with the value.
 */
final class IndexLookupCommand implements Command<IndexLookupOptions> {
  @Override
  public About about() {
    return About.of(
            "index lookup",
            "read one value's entries newest first and fetch their source rows (no Spark)",
            IndexLookup.Result.class)
        .alsoExits(ExitCode.FINDINGS);
  }

  @Override
  public List<Grant> grants(IndexLookupOptions o) {
    IndexDefinition def = o.definition();
    List<Grant> grants = new ArrayList<>(List.of(Grant.read(def.indexTable())));
    if (o.checkSource()) {
      grants.add(Grant.read(def.source()));
    }
    return grants;
  }

  @Override
  public Parsing<IndexLookupOptions> parsing() {
    return new Parsing<>(
        IndexLookupOptions.declared(),
        IndexDefinition::withDefinitionFile,
        IndexLookupOptions::from);
  }

  @Override
  public ExitCode run(IndexLookupOptions o, CommandContext context) throws Exception {
    try (Connection connection = HBaseConnections.open(context.hbase())) {
      IndexLookup.Result result =
          new IndexLookup(connection, o.definition())
              .lookup(o.value(), o.from(), o.to(), o.limit(), o.checkSource());
      context.emit(IndexText.lookup(result), result);
      boolean differs = result.sourceRows() != null && result.sourceRows() != result.entries();
      return differs ? ExitCode.FINDINGS : ExitCode.OK;
    }
  }
}
