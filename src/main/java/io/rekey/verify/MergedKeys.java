package io.rekey.verify;

import io.rekey.keys.ColumnBinding;
import io.rekey.keys.KeyMapping;
import io.rekey.read.SourceReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.PairFlatMapFunction;
import scala.Tuple2;

/**
 * The target keys that two or more source rows map to, with a layout that is not injective: their
 * cells merge under one key, and a comparison of digests sums them, so it cannot see it. Found by
 * one more pass over the source and a shuffle of keys only; an injective layout cannot merge rows
 * and skips it.
 *
 * @param keys how many target keys hold two or more source rows
 * @param examples the first few, printable
 */
public record MergedKeys(long keys, List<String> examples) {
  static final MergedKeys NONE = new MergedKeys(0, List.of());

  /** The merged keys of {@code source} through {@code mapping} (null: the target side, none). */
  static MergedKeys of(
      JavaSparkContext sc,
      JavaPairRDD<ImmutableBytesWritable, Result> source,
      KeyMapping mapping,
      Counted counted) {
    if (mapping == null || mapping.injectivity().injective()) {
      return NONE;
    }
    sc.setJobDescription(
        "verify: target keys that two or more source rows map to (the layout is not injective)");
    JavaPairRDD<String, Integer> shared =
        source
            .mapPartitionsToPair(new RowKeys(mapping, counted))
            .reduceByKey(Integer::sum)
            .filter(t -> t._2() > 1);
    long keys = shared.count();
    List<String> examples = new ArrayList<>();
    if (keys > 0) {
      for (String k : shared.keys().take(UnmappedRows.EXAMPLES)) {
        examples.add(Bytes.toStringBinary(RowDifferences.key(k)));
      }
    }
    return new MergedKeys(keys, examples);
  }

  /**
   * The merged keys of {@code source} read through its region servers as of {@code below} (the
   * cells stamped before it): the check a sync of a layout that is not injective makes before it
   * writes, as the copy does. Only the row keys and the columns the key reads are fetched.
   */
  public static MergedKeys inSource(
      JavaSparkContext sc, Configuration conf, TableName source, KeyMapping mapping, long below) {
    if (mapping.injectivity().injective()) {
      return NONE;
    }
    Scan scan = new Scan().setCacheBlocks(false);
    try {
      scan.setTimeRange(0, below);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read below " + below, e);
    }
    if (mapping.source().columns().isEmpty()) {
      scan.setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()));
    } else {
      for (ColumnBinding c : mapping.source().columns()) {
        scan.addColumn(Bytes.toBytes(c.family()), Bytes.toBytes(c.qualifier()));
      }
    }
    return of(sc, SourceReader.live(sc, conf, source, scan), mapping, Counted.everyCell());
  }

  /** Each source row's target key with a count of one, once per row (wide rows come in batches). */
  private static final class RowKeys
      implements PairFlatMapFunction<
          Iterator<Tuple2<ImmutableBytesWritable, Result>>, String, Integer> {
    private static final long serialVersionUID = 1L;
    private final KeyMapping mapping;
    private final Counted counted;

    RowKeys(KeyMapping mapping, Counted counted) {
      this.mapping = mapping;
      this.counted = counted;
    }

    @Override
    public Iterator<Tuple2<String, Integer>> call(
        Iterator<Tuple2<ImmutableBytesWritable, Result>> rows) {
      byte[][] last = {null};
      return new MappedRows(mapping, counted)
          .each(
              rows,
              (read, row) -> {
                if (Arrays.equals(last[0], read.getRow())) {
                  return null; // a later batch of a row already counted
                }
                last[0] = read.getRow();
                return new Tuple2<>(RowDifferences.text(row.key()), 1);
              });
    }
  }
}
