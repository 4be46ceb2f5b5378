package io.rekey.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rekey.cli.ExitCode;
import io.rekey.common.Finding;
import io.rekey.common.Json;
import io.rekey.hbase.HBaseConnections;
import io.rekey.keys.Murmur3;
import io.rekey.options.OptionsBuilder;
import io.rekey.report.AuditReport;
import io.rekey.sketch.Weighted;
import io.rekey.testing.CliRun;
import io.rekey.testing.EveryCell;
import io.rekey.testing.MiniHBase;
import io.rekey.testing.SparkLocal;
import io.rekey.testing.TestTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * audit on a real mini cluster with real Spark, over tables built to have a known answer: a
 * time-first key, a salted key, one wide row, a hot prefix.
 */
@EveryCell
@ExtendWith(MiniHBase.class)
class AuditIT {
  static final long T0 = 1_767_225_600_000L;
  static final int ROWS = 4000;
  static Connection connection;

  @TempDir Path dir;

  @BeforeAll
  static void connect() {
    connection = HBaseConnections.open(MiniHBase.settings());
  }

  @AfterAll
  static void close() throws Exception {
    connection.close();
  }

  static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  static void create(TableName t, byte[][] splits) throws Exception {
    try (Admin admin = connection.getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(t)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of("m"))
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of("x"))
              .build(),
          splits);
    }
  }

  /** Keys {@code <millis>_user<n>}, written in time order: 3 cells in m, 1 in x per row. */
  static TableName timeFirst(String name, boolean salted) throws Exception {
    TableName t = TableName.valueOf(name);
    byte[][] splits;
    if (salted) {
      splits = new byte[7][];
      for (int i = 1; i < 8; i++) {
        splits[i - 1] = new byte[] {(byte) i};
      }
    } else {
      // Four regions split by time, as a table that grew and split would be.
      splits = new byte[3][];
      for (int i = 1; i < 4; i++) {
        splits[i - 1] = b(Long.toString(T0 + i * (ROWS / 4) * 1000L));
      }
    }
    create(t, splits);
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      byte[] key = b((T0 + i * 1000L) + "_user" + (i % 40));
      if (salted) {
        key = Bytes.add(new byte[] {(byte) Math.floorMod(Murmur3.hash32(key, 0), 8)}, key);
      }
      long ts = T0 + i * 1000L;
      Put p = new Put(key);
      p.addColumn(b("m"), b("sender"), ts, b("user" + (i % 40)));
      p.addColumn(b("m"), b("body"), ts, new byte[100 + i % 50]);
      p.addColumn(b("m"), b("read"), ts, b("false"));
      p.addColumn(b("x"), b("n"), ts, Bytes.toBytes(i));
      puts.add(p);
    }
    TestTables.put(t, puts);
    return t;
  }

  static AuditResult audit(TableName t) {
    return audit(options(t));
  }

  /** The options of an audit of {@code t}, to add more to. */
  static OptionsBuilder<AuditOptions> options(TableName t) {
    return AuditOptions.builder().set(AuditOptions.TABLE, t.getNameAsString());
  }

  static AuditResult audit(OptionsBuilder<AuditOptions> options) {
    return new AuditJob(
            SparkLocal.job(connection, MiniHBase.settings().toConfiguration()), options.build())
        .execute();
  }

  static List<String> codes(AuditResult r) {
    return r.findings().stream().map(Finding::code).toList();
  }

  @Test
  void aTimeFirstKeyIsMonotonicAndItsLastRegionTakesTheNewWrites() throws Exception {
    TableName t = timeFirst("audit_time_first", false);
    // One delete marker, stored until a major compaction.
    try (Table table = connection.getTable(t)) {
      table.delete(
          new Delete(b((T0 + 5000L) + "_user5")).addColumns(b("m"), b("read"), T0 + 5000L));
    }
    AuditResult r = audit(options(t).set(AuditOptions.SOURCE_KEY, "text: ts:long + '_' + user"));

    assertThat(r.totals().rows()).isEqualTo(ROWS);
    // The flush for the snapshot drops the put the marker covers and keeps the marker.
    assertThat(r.totals().cells()).isEqualTo(ROWS * 4L);
    assertThat(r.totals().deleteMarkers()).isEqualTo(1);
    assertThat(r.totals().oldestTs()).isEqualTo(T0);
    assertThat(r.totals().newestTs()).isEqualTo(T0 + (ROWS - 1) * 1000L);
    assertThat(r.families()).extracting(AuditResult.FamilyStats::name).containsExactly("m", "x");
    assertThat(r.families().get(0).cells()).isEqualTo(ROWS * 3L);
    assertThat(r.families().get(0).deleteMarkers()).isEqualTo(1);
    assertThat(r.families().get(0).distinctQualifiers()).isEqualTo(3);
    assertThat(r.families().get(1).topQualifiersByCells()).containsExactly(new Weighted("n", ROWS));
    assertThat(r.skew().regionCount()).isEqualTo(4);
    assertThat(r.skew().regions())
        .extracting(AuditResult.RegionStats::rows)
        .containsExactly(1000L, 1000L, 1000L, 1000L);
    assertThat(r.distributions().cellsPerRow().p50()).isEqualTo(4);
    assertThat(r.distributions().valueSize().max()).isEqualTo(149);

    assertThat(r.monotonic().monotonic()).isTrue();
    assertThat(r.monotonic().keyTimeCorrelation()).isGreaterThan(0.99);
    assertThat(codes(r)).contains("monotonic-key", "recent-write-hotspot");
    Finding hot =
        r.findings().stream()
            .filter(f -> f.code().equals("recent-write-hotspot"))
            .findFirst()
            .orElseThrow();
    assertThat(hot.subject()).startsWith("region 3 ");
    // The newest 10% of 4000 rows all sit in the last region: 4× the mean of 4 regions.
    assertThat(r.skew().recentMaxOverMean()).isGreaterThan(3.5);
    assertThat(r.skew().hottestRecent().get(0).index()).isEqualTo(3);
    assertThat(r.heatmap().keyAxis()).isEqualTo("regions");
    // The heatmap's diagonal: the first region was written only in the first quarter of time.
    long[] first = r.heatmap().cells()[0];
    long early = 0;
    long late = 0;
    for (int i = 0; i < first.length; i++) {
      if (i < first.length / 4 + 1) {
        early += first[i];
      } else {
        late += first[i];
      }
    }
    assertThat(late).isLessThan(early / 20);
    assertThat(r.whatIf().recommended()).contains("salt");
  }

  @Test
  void aSaltedKeyIsEvenAndRaisesNoKeyFindings() throws Exception {
    AuditResult r = audit(timeFirst("audit_salted", true));
    assertThat(r.totals().rows()).isEqualTo(ROWS);
    // Each of the 8 regions is read by at least one task, each sending one bounded profile.
    assertThat(r.sampling().readTasks()).isGreaterThanOrEqualTo(8);
    assertThat(r.sampling().largestTaskProfileBytes()).isBetween(1L, 8L << 20);
    assertThat(r.monotonic().monotonic()).isFalse();
    assertThat(codes(r))
        .doesNotContain("monotonic-key", "recent-write-hotspot", "stored-skew", "hot-prefix");
    assertThat(r.skew().recentMaxOverMean()).isLessThan(1.6);
    assertThat(r.skew().cellsMaxOverMean()).isLessThan(1.3);
    // A fraction of the rows, chosen by key hash: the same rows on a second run.
    AuditResult half =
        audit(options(TableName.valueOf("audit_salted")).set(AuditOptions.SAMPLE_FRACTION, 0.5));
    assertThat(half.sampling().mode()).isEqualTo("fraction");
    assertThat(half.totals().rows()).isBetween(ROWS * 3L / 10, ROWS * 7L / 10);
    assertThat(half.totals().cells()).isEqualTo(half.totals().rows() * 4);
    assertThat(
            audit(options(TableName.valueOf("audit_salted")).set(AuditOptions.SAMPLE_FRACTION, 0.5))
                .totals())
        .isEqualTo(half.totals());
    // Compared at the table's own 8 regions, the current key is as even as any redesign.
    assertThat(r.whatIf().regions()).isEqualTo(8);
    assertThat(r.whatIf().recommended()).isEqualTo(LayoutSimulator.KEEP_KEY_NAME);
  }

  @Test
  void oneWideRowIsFoundAndNamed() throws Exception {
    TableName t = TableName.valueOf("audit_wide");
    create(t, new byte[0][]);
    List<Put> puts = new ArrayList<>();
    int columns = (int) ProfileSettings.WIDE_ROW_COLUMNS + 10;
    for (int from = 0; from < columns; from += 20_000) {
      Put p = new Put(b("sensor-7"));
      for (int c = from; c < Math.min(columns, from + 20_000); c++) {
        p.addColumn(b("m"), b("t" + c), T0 + c, new byte[] {1});
      }
      puts.add(p);
    }
    for (int i = 0; i < 50; i++) {
      puts.add(new Put(b("sensor-" + (100 + i))).addColumn(b("m"), b("t0"), T0, new byte[] {1}));
    }
    TestTables.put(t, puts);
    AuditResult r = audit(options(t).set(AuditOptions.BATCH, 5000L));
    assertThat(r.totals().rows()).isEqualTo(51);
    assertThat(r.totals().cells()).isEqualTo(columns + 50L);
    assertThat(r.extremes().wideRows()).isEqualTo(1);
    assertThat(r.extremes().widestRows().get(0).key()).isEqualTo("sensor-7");
    assertThat(r.extremes().widestRows().get(0).columns()).isEqualTo(columns);
    assertThat(codes(r)).contains("wide-rows");
    // Over the exact limit the qualifiers are counted by a sketch, within its error.
    assertThat((double) r.families().get(0).distinctQualifiers())
        .isBetween(columns * 0.95, columns * 1.05);
  }

  @Test
  void aHotPrefixIsFoundThroughTheFirstKeyField() throws Exception {
    TableName t = TableName.valueOf("audit_prefix");
    create(t, new byte[0][]);
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      String user = i % 2 == 0 ? "bigcustomer" : "user" + (i % 97);
      puts.add(new Put(b(user + "_" + i)).addColumn(b("m"), b("v"), T0 + i, b("x")));
    }
    TestTables.put(t, puts);
    AuditResult r = audit(options(t).set(AuditOptions.SOURCE_KEY, "text: user + '_' + n:long"));
    assertThat(codes(r)).contains("hot-prefix");
    assertThat(r.prefixes().firstField().topByCells().get(0))
        .isEqualTo(new Weighted("bigcustomer", 1000));
    assertThat(r.prefixes().firstField().mismatches()).isZero();
    AuditResult.LayoutOutcome byUser =
        r.whatIf().layouts().stream()
            .filter(o -> o.spec().equals("salt(16, user) + key"))
            .findFirst()
            .orElseThrow();
    // Salting by the hot field cannot spread it: half the rows stay in one bucket.
    assertThat(byUser.rowsMaxOverMean()).isGreaterThan(6);
  }

  @Test
  void theCommandWritesBothReportsAndItsExitCodeFollowsFailOn() throws Exception {
    TableName t = timeFirst("audit_cli", false);
    Path out = dir.resolve("report");
    CliRun run =
        CliRun.of(
            cluster(
                "audit",
                "--table",
                t.getNameAsString(),
                "--source-key",
                "text: ts:long + '_' + user",
                "--candidate",
                "salt(4, user) + user + ts",
                "--out",
                out.toString(),
                "--fail-on",
                "error"));
    assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCode.FINDINGS);
    assertThat(run.out()).contains("keys follow time: YES", "monotonic-key", "audit.html");
    assertThat(run.err()).contains("--fail-on error");
    JsonNode json = Json.mapper().readTree(out.resolve(AuditReport.JSON).toFile());
    assertThat(json.get("schemaVersion").asInt()).isEqualTo(AuditResult.SCHEMA_VERSION);
    assertThat(json.at("/totals/rows").asLong()).isEqualTo(ROWS);
    assertThat(json.at("/whatIf/layouts/0/spec").asText()).isEqualTo("salt(4, user) + user + ts");
    DocumentBuilderFactory.newInstance()
        .newDocumentBuilder()
        .parse(out.resolve(AuditReport.HTML).toFile());
    assertThat(Files.size(out.resolve(AuditReport.JSON))).isLessThan(200_000);

    CliRun sampled =
        CliRun.of(
            cluster(
                "audit",
                "--table",
                t.getNameAsString(),
                "--rows-per-split",
                "100",
                "--out",
                dir.resolve("sampled").toString(),
                "--live-scan"));
    assertThat(sampled.exit()).as(sampled.toString()).isEqualTo(ExitCode.OK);
    assertThat(sampled.out()).contains("400 rows", "at most 100 rows per split");

    // Either way of reading names the missing table and lists the tables that exist.
    for (String read : List.of("--snapshot", "--live-scan")) {
      CliRun missing = CliRun.of(cluster("audit", "--table", "no_such_table", read));
      assertThat(missing.exit()).as(missing.toString()).isEqualTo(ExitCode.FAILED);
      assertThat(missing.err())
          .contains("no_such_table does not exist on this cluster", "existing tables: ")
          .doesNotContain("\tat ");
    }
  }

  static String[] cluster(String... args) {
    SparkLocal.context();
    Map<String, String> s = MiniHBase.settings().properties();
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--zk", MiniHBase.zkQuorum()));
    s.forEach((k, v) -> all.addAll(List.of("--hbase-set", k + "=" + v)));
    return all.toArray(new String[0]);
  }
}
