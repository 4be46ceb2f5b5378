package io.rekey.run;

import com.fasterxml.jackson.databind.JsonNode;
import io.rekey.common.Json;
import io.rekey.common.JsonResult;
import io.rekey.options.InvalidOptionException;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;

/**
 * What the state table says of one table that jobs keep writing (a migration's target or an index
 * table), read without writing anything: the definition it is written with, the watermark and how
 * far it is behind now, who holds the run lock and since when, and the last runs as their history
 * lines recorded them (the fields of {@link RunRecord} first, then the job's own counts).
 *
 * @param table the table whose state this is
 * @param stateTable where the state lives
 * @param definition the key mapping or index definition the table was first written with; null when
 *     none was recorded
 * @param watermark cells older than this (epoch millis) are in the table; null before the first run
 * @param watermarkTime the watermark, ISO-8601; null with it
 * @param behindSeconds how far the watermark is behind the reader's clock; null with it
 * @param lock who holds the run lock; null when it is free
 * @param runs the newest runs, newest first
 */
public record TableState(
    String table,
    String stateTable,
    String definition,
    Long watermark,
    String watermarkTime,
    Long behindSeconds,
    Lock lock,
    List<JsonNode> runs)
    implements JsonResult {

  /**
   * The run lock, taken.
   *
   * @param holder what the run does, its process and host, its Spark application and start
   * @param since when it was taken, ISO-8601
   * @param heldSeconds how long it has been held, by the reader's clock
   */
  public record Lock(String holder, String since, long heldSeconds) {}

  /**
   * Reads the state of {@code written}.
   *
   * @param runs how many of the newest runs to include
   * @param now the reader's clock, for the lags
   * @throws InvalidOptionException when the state table or the table's state does not exist
   */
  public static TableState read(
      Connection connection, TableName stateTable, TableName written, int runs, long now) {
    RunState state = new RunState(connection, stateTable, written);
    if (!state.tableExists()) {
      throw noState(stateTable, written, "the state table " + stateTable + " does not exist");
    }
    OptionalLong watermark = state.watermark();
    String definition = state.pinnedDefinition();
    Lock lock =
        state
            .lockHolder()
            .map(
                h ->
                    new Lock(
                        h.holder(),
                        Instant.ofEpochMilli(h.sinceMillis()).toString(),
                        Math.max(0, (now - h.sinceMillis()) / 1000)))
            .orElse(null);
    List<JsonNode> history = new ArrayList<>();
    for (String line : state.history(runs)) {
      history.add(parse(line));
    }
    if (watermark.isEmpty() && definition == null && lock == null && history.isEmpty()) {
      throw noState(stateTable, written, stateTable + " holds nothing for it");
    }
    return new TableState(
        written.getNameAsString(),
        stateTable.getNameAsString(),
        definition,
        watermark.isPresent() ? watermark.getAsLong() : null,
        watermark.isPresent() ? Instant.ofEpochMilli(watermark.getAsLong()).toString() : null,
        watermark.isPresent() ? Math.max(0, (now - watermark.getAsLong()) / 1000) : null,
        lock,
        List.copyOf(history));
  }

  private static JsonNode parse(String line) {
    try {
      return Json.mapper().readTree(line);
    } catch (IOException e) {
      // A line no run of this version wrote: show it as it is rather than hide the history.
      return Json.mapper().createObjectNode().put("unreadable", line);
    }
  }

  private static InvalidOptionException noState(
      TableName stateTable, TableName written, String why) {
    return InvalidOptionException.of(
        "table",
        written.getNameAsString(),
        "has no state: "
            + why
            + ". Give the target of a rekey or the table of an index (their runs keep state), and"
            + " --state-table when those runs were given one (this looked in "
            + stateTable
            + ")");
  }
}
