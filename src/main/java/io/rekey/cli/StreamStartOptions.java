package io.rekey.cli;

import io.rekey.options.InvalidOptionException;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.rekey.RekeyOptions;
import io.rekey.run.RunLock;
import io.rekey.schema.TableInspector;
import io.rekey.stream.endpoint.EditMapper;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;

/**
 * Options of {@code stream start}: the stream's, and the copy's (rekey's own options) that runs
 * between the peer's creation and its enabling.
 *
 * @param stream which stream and what it re-keys
 * @param copy the copy into the target; null with {@code --no-copy}
 * @param stateTable where a copy pinned the migration's definition, which the stream must share
 */
record StreamStartOptions(StreamOptions stream, RekeyOptions copy, TableName stateTable) {
  static final OptionDef<Boolean> NO_COPY =
      OptionDef.flag(
          "no-copy",
          "the target already holds a copy: add the stream alone (what was written between that"
              + " copy's snapshot and now is then rekey sync's to carry)");

  static List<OptionDef<?>> declared() {
    List<OptionDef<?>> out = new ArrayList<>(RekeyOptions.declared());
    for (OptionDef<?> o : StreamOptions.declaredForStart()) {
      if (!out.contains(o)) {
        out.add(o);
      }
    }
    out.add(NO_COPY);
    return out;
  }

  static StreamStartOptions from(OptionValues values) {
    StreamOptions stream = StreamOptions.forStart(values);
    TableName state =
        TableInspector.tableName(RunLock.STATE_TABLE.name(), values.get(RunLock.STATE_TABLE));
    if (values.get(NO_COPY)) {
      if (values.get(StreamOptions.TARGET_ZK) != null
          && EditMapper.keyUsesColumns(stream.settings().mapping())) {
        throw InvalidOptionException.of(
            StreamOptions.TARGET_ZK.name(),
            values.get(StreamOptions.TARGET_ZK),
            "is another cluster, and the new key is bound to a column: the stream keeps a map of"
                + " where each row is held, seeded from a target on the source's own cluster only;"
                + " stream within one cluster, or use rekey sync");
      }
      return new StreamStartOptions(stream, null, state);
    }
    if (values.get(StreamOptions.TARGET_ZK) != null) {
      throw InvalidOptionException.of(
          StreamOptions.TARGET_ZK.name(),
          values.get(StreamOptions.TARGET_ZK),
          "is another cluster, which the copy (a bulk load on the source's cluster) cannot write;"
              + " copy the table there first, then start the stream with --no-copy");
    }
    return new StreamStartOptions(stream, RekeyOptions.from(values), state);
  }
}
