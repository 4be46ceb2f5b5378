package io.rekey.cli;

import io.rekey.hbase.HBaseConnections;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.report.StateText;
import io.rekey.run.RunLock;
import io.rekey.run.TableState;
import io.rekey.schema.TableInspector;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;

/**
 * {@code state}: where a live migration or an index stands, read from the state table without Spark
 * and without writing: the watermark and its lag, the lock holder, the last runs.
 */
final class StateCommand implements Command<StateCommand.Options> {
  @Override
  public About about() {
    return About.of(
        "state",
        "show a migration's or an index's watermark, lag, lock holder and last runs (no Spark)",
        TableState.class);
  }

  static final OptionDef<String> TABLE =
      OptionDef.text(
              "table", "NS:TABLE", "a migration's target (rekey, sync, repair) or an index table")
          .required();
  static final OptionDef<Long> RUNS =
      OptionDef.number("runs", "N", "how many of the last runs to show", 0, 1000).withDefault(5L);

  /**
   * Options of {@code state}.
   *
   * @param table the table whose state to show
   * @param stateTable where the jobs keep it
   * @param runs how many runs to show
   */
  record Options(TableName table, TableName stateTable, int runs) {}

  @Override
  public Parsing<Options> parsing() {
    return new Parsing<>(List.of(TABLE, RunLock.STATE_TABLE, RUNS), this::read);
  }

  private Options read(OptionValues values) {
    return new Options(
        TableInspector.tableName(TABLE.name(), values.get(TABLE)),
        TableInspector.tableName(RunLock.STATE_TABLE.name(), values.get(RunLock.STATE_TABLE)),
        Math.toIntExact(values.get(RUNS)));
  }

  @Override
  public ExitCode run(Options o, CommandContext context) throws Exception {
    try (Connection connection = HBaseConnections.open(context.hbase())) {
      TableState state =
          TableState.read(
              connection, o.stateTable(), o.table(), o.runs(), System.currentTimeMillis());
      context.emit(StateText.render(state), state);
      return ExitCode.OK;
    }
  }
}
