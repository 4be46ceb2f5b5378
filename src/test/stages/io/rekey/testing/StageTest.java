package io.rekey.testing;

import com.holdenkarau.spark.testing.SharedJavaSparkContext;
import io.rekey.hbase.ShippedConfiguration;
import io.rekey.run.RunFiles;
import io.rekey.write.ShuffleCell;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.Function2;
import org.junit.jupiter.api.BeforeEach;
import scala.Tuple2;

/**
 * A fast test of one Spark stage: spark-testing-base's local context, shared by every stage test of
 * the JVM (two cores, no UI, as the project's local Spark, with a cluster's four tries of a failed
 * task), and rows built in memory. HBase's {@link Result} is not serializable, so rows travel as
 * {@link CellSpec}s and become Results on the executors, as a table read hands them to a stage.
 */
public abstract class StageTest extends SharedJavaSparkContext {
  @Override
  public SparkConf conf() {
    return super.conf()
        // Two cores; a failed task is tried four times, as on a cluster.
        .setMaster("local[2,4]")
        .set("spark.ui.enabled", "false")
        .set("spark.driver.host", "127.0.0.1");
  }

  @BeforeEach
  void startSpark() {
    runBefore();
  }

  /**
   * One cell, serializable: a Put when {@code type} is Put, else a delete marker of that type.
   *
   * @param value null for markers
   */
  public record CellSpec(
      String row, String family, String qualifier, long ts, KeyValue.Type type, String value)
      implements Serializable {
    public static CellSpec put(String row, String column, long ts, String value) {
      String[] fq = column.split(":", 2);
      return new CellSpec(row, fq[0], fq[1], ts, KeyValue.Type.Put, value);
    }

    public KeyValue cell() {
      return new KeyValue(
          Bytes.toBytes(row),
          Bytes.toBytes(family),
          qualifier == null ? null : Bytes.toBytes(qualifier),
          ts,
          type,
          value == null ? null : Bytes.toBytes(value));
    }
  }

  /**
   * The cells of a stage's output record ({@link io.rekey.write.ShuffleCell}), each as {@code ROW
   * FAMILY:QUALIFIER@TS TYPE=VALUE} with the row printable.
   */
  public static List<String> cells(byte[] record) {
    List<String> out = new ArrayList<>();
    for (int at = 0; at < record.length; at += ShuffleCell.cellLength(record, at)) {
      out.add(text(ShuffleCell.asKeyValue(record, at)));
    }
    return out;
  }

  /** A cell as {@link #cells} shows it. */
  public static String text(Cell c) {
    return Bytes.toStringBinary(CellUtil.cloneRow(c))
        + " "
        + Bytes.toString(CellUtil.cloneFamily(c))
        + ":"
        + Bytes.toString(CellUtil.cloneQualifier(c))
        + "@"
        + c.getTimestamp()
        + " "
        + c.getType()
        + "="
        + Bytes.toStringBinary(CellUtil.cloneValue(c));
  }

  /** {@code row}'s cells as {@link #cells} shows them, moved to {@code newKey}. */
  public static List<String> movedTo(byte[] newKey, List<CellSpec> row) {
    List<String> out = new ArrayList<>();
    for (CellSpec c : row) {
      out.add(Bytes.toStringBinary(newKey) + " " + text(c.cell()).replaceFirst("^\\S+ ", ""));
    }
    return out;
  }

  /** A Hadoop configuration for a stage's run files on the local filesystem. */
  public static ShippedConfiguration localFiles() {
    return new ShippedConfiguration(new Configuration());
  }

  /**
   * The counts the {@code partitions} map tasks left in the run directory, each line parsed and all
   * summed, as the driver proves a run's counts.
   */
  public static <S> S summedCounts(
      String run, int partitions, S zero, Function<String, S> parse, BinaryOperator<S> plus)
      throws IOException {
    S total = zero;
    for (String line : RunFiles.partitionCounts(new Configuration(), new Path(run), partitions)) {
      total = plus.apply(total, parse.apply(line));
    }
    return total;
  }

  /**
   * The cells a map stage (a partition's rows to {@link ShuffleCell} records) makes of {@code rows}
   * in {@code partitions} partitions, as {@link #cells} shows them.
   */
  protected JavaRDD<String> cellsOut(
      int partitions,
      List<List<CellSpec>> rows,
      Function2<
              Integer,
              Iterator<Tuple2<ImmutableBytesWritable, Result>>,
              Iterator<Tuple2<byte[], byte[]>>>
          stage) {
    return rows(partitions, rows)
        .mapPartitionsWithIndex(stage, false)
        .flatMap(t -> cells(t._1()).iterator());
  }

  /**
   * The rows, each a list of its cells, in {@code partitions} input partitions, as a read gives.
   */
  protected JavaPairRDD<ImmutableBytesWritable, Result> rows(
      int partitions, List<List<CellSpec>> rows) {
    List<ArrayList<CellSpec>> serializable = new ArrayList<>();
    rows.forEach(r -> serializable.add(new ArrayList<>(r)));
    return jsc()
        .parallelize(serializable, partitions)
        .mapToPair(
            r -> {
              Cell[] cells = r.stream().map(CellSpec::cell).toArray(Cell[]::new);
              Arrays.sort(cells, CellComparator.getInstance());
              return new Tuple2<>(
                  new ImmutableBytesWritable(Bytes.toBytes(r.get(0).row())), Result.create(cells));
            });
  }
}
