package io.rekey.cli;

import io.rekey.hbase.HadoopFiles;
import io.rekey.index.IndexDefinition;
import io.rekey.index.IndexRunOptions;
import io.rekey.options.InvalidOptionException;
import io.rekey.options.Location;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.options.SharedOptions;
import io.rekey.rekey.RekeyOptions;
import io.rekey.run.RunLock;
import io.rekey.schema.TableInspector;
import io.rekey.stream.endpoint.EditMapper;
import io.rekey.stream.endpoint.StreamSettings;
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
 * @param indexes indexes of the target the stream builds after the copy and then keeps
 */
record StreamStartOptions(
    StreamOptions stream, RekeyOptions copy, TableName stateTable, List<IndexRunOptions> indexes) {
  static final OptionDef<Location> INDEX =
      OptionDef.location(
              "index",
              "FILE",
              "an index definition (as index build takes) of the target table: built after the"
                  + " copy, then kept by the stream; repeatable")
          .repeatable();

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
    out.add(INDEX);
    return out;
  }

  static StreamStartOptions from(OptionValues values) {
    StreamOptions stream = StreamOptions.forStart(values);
    TableName state =
        TableInspector.tableName(RunLock.STATE_TABLE.name(), values.get(RunLock.STATE_TABLE));
    List<IndexRunOptions> indexes = indexes(values, stream.settings());
    if (values.get(NO_COPY)) {
      if (values.get(StreamOptions.TARGET_ZK) != null && !indexes.isEmpty()) {
        throw InvalidOptionException.of(
            INDEX.name(),
            values.getAll(INDEX).get(0).toString(),
            "is built on the target, which --target-zk puts on another cluster: build and keep"
                + " indexes of a target on the source's own cluster, or run index update there");
      }
      if (values.get(StreamOptions.TARGET_ZK) != null
          && EditMapper.keyUsesColumns(stream.settings().mapping())) {
        throw InvalidOptionException.of(
            StreamOptions.TARGET_ZK.name(),
            values.get(StreamOptions.TARGET_ZK),
            "is another cluster, and the new key is bound to a column: the stream keeps a map of"
                + " where each row is held, seeded from a target on the source's own cluster only;"
                + " stream within one cluster, or use rekey sync");
      }
      return new StreamStartOptions(stream, null, state, indexes);
    }
    if (values.get(StreamOptions.TARGET_ZK) != null) {
      throw InvalidOptionException.of(
          StreamOptions.TARGET_ZK.name(),
          values.get(StreamOptions.TARGET_ZK),
          "is another cluster, which the copy (a bulk load on the source's cluster) cannot write;"
              + " copy the table there first, then start the stream with --no-copy");
    }
    return new StreamStartOptions(stream, RekeyOptions.from(values), state, indexes);
  }

  /** The settings of the peer: the stream's, with the indexes it keeps. */
  StreamSettings settings() {
    List<StreamSettings.StreamedIndex> kept = new ArrayList<>();
    for (IndexRunOptions i : indexes) {
      kept.add(
          new StreamSettings.StreamedIndex(
              i.definition().indexTable(), i.definition().shape(), i.definition().stateTable()));
    }
    return stream.settings().withIndexes(kept);
  }

  /**
   * The build of each {@code --index} file: an index of the table the stream writes, staged where
   * the copy is.
   */
  private static List<IndexRunOptions> indexes(OptionValues values, StreamSettings stream) {
    List<IndexRunOptions> out = new ArrayList<>();
    for (Location file : values.getAll(INDEX)) {
      OptionValues definition =
          HadoopFiles.readJobFile(file, INDEX.name(), "index", IndexDefinition.declared());
      if (values.get(SharedOptions.STAGING) != null) {
        definition =
            definition.with(SharedOptions.STAGING.name(), values.get(SharedOptions.STAGING));
      }
      IndexRunOptions build =
          IndexRunOptions.forBuild(definition.validate(IndexRunOptions.declaredForBuild()));
      if (stream.reverse() || !build.definition().source().equals(stream.target())) {
        throw InvalidOptionException.of(
            INDEX.name(),
            file.toString(),
            "indexes "
                + build.definition().source()
                + ", but the stream writes "
                + stream.target()
                + ": a stream keeps the indexes of the table it writes; give a definition with"
                + " source = "
                + stream.target());
      }
      out.add(build);
    }
    return out;
  }
}
