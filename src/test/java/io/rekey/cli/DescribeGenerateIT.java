package io.rekey.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.rekey.common.Json;
import io.rekey.generate.MessageGenerator;
import io.rekey.testing.CliRun;
import io.rekey.testing.MiniHBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code generate} and {@code describe} through the CLI against a real HBase mini cluster. */
@ExtendWith(MiniHBase.class)
class DescribeGenerateIT {
  @TempDir Path dir;

  @Test
  void generateWritesExactlyWhatTheGeneratorMakesAndDescribeFlagsTheDesign() throws Exception {
    String table = "gen:messages_" + System.nanoTime();
    Path json = dir.resolve("generate.json");
    CliRun gen =
        CliRun.of(
            "generate",
            "--zk",
            MiniHBase.zkQuorum(),
            "--table",
            table,
            "--rows",
            "2000",
            "--seed",
            "11",
            "--senders",
            "50",
            "--json",
            json.toString());
    assertThat(gen.exit()).as(gen.toString()).isEqualTo(ExitCode.OK);
    assertThat(gen.out()).contains("generate: wrote 2,000 rows", "busiest senders: user00000");

    JsonNode result = Json.mapper().readTree(json.toFile());
    long cells = result.get("cells").asLong();
    assertThat(result.get("rows").asLong()).isEqualTo(2000);
    assertThat(result.get("createdTable").asBoolean()).isTrue();

    // The table holds exactly the generator's cells, with their own timestamps, all versions.
    MessageGenerator expected = new MessageGenerator(11, 50, 1_767_225_600_000L, 10);
    long seen = 0;
    try (Table t = MiniHBase.util().getConnection().getTable(TableName.valueOf(table));
        ResultScanner scanner = t.getScanner(new Scan().readAllVersions())) {
      for (Result r : scanner) {
        var m = expected.next();
        assertThat(Bytes.toString(r.getRow())).isEqualTo(m.rowKey());
        List<String> actual = new ArrayList<>();
        for (Cell c : r.rawCells()) {
          actual.add(
              Bytes.toString(CellUtil.cloneQualifier(c))
                  + "@"
                  + c.getTimestamp()
                  + "="
                  + Bytes.toString(CellUtil.cloneValue(c)));
          seen++;
        }
        List<String> want = new ArrayList<>();
        m.cells().stream()
            .sorted(
                (a, b) ->
                    a.qualifier().equals(b.qualifier())
                        ? Long.compare(b.timestamp(), a.timestamp())
                        : a.qualifier().compareTo(b.qualifier()))
            .forEach(
                c -> want.add(c.qualifier() + "@" + c.timestamp() + "=" + new String(c.value())));
        assertThat(actual).isEqualTo(want);
      }
    }
    assertThat(seen).isEqualTo(cells);

    // A second run into the same table is refused, unless asked for.
    CliRun again =
        CliRun.of("generate", "--zk", MiniHBase.zkQuorum(), "--table", table, "--rows", "10");
    assertThat(again.exit()).isEqualTo(ExitCode.FAILED);
    assertThat(again.err())
        .contains("table " + table + " already holds rows", "--if-nonempty append");
    CliRun allowed =
        CliRun.of(
            "generate",
            "--zk",
            MiniHBase.zkQuorum(),
            "--table",
            table,
            "--rows",
            "10",
            "--seed",
            "99",
            "--if-nonempty",
            "append");
    assertThat(allowed.exit()).as(allowed.toString()).isEqualTo(ExitCode.OK);
    assertThat(allowed.out()).contains("wrote 10 rows");
    CliRun skipped =
        CliRun.of(
            "generate", "--zk", MiniHBase.zkQuorum(), "--table", table, "--if-nonempty", "skip");
    assertThat(skipped.exit()).as(skipped.toString()).isEqualTo(ExitCode.OK);
    assertThat(skipped.out()).contains("already holds rows; wrote nothing (--if-nonempty skip)");
    assertThat(MiniHBase.util().countRows(TableName.valueOf(table))).isEqualTo(2010);

    // describe: the settings, the one region, and the design checks that must fire.
    Path describeJson = dir.resolve("describe.json");
    CliRun describe =
        CliRun.of(
            "describe",
            "--zk",
            MiniHBase.zkQuorum(),
            "--table",
            table,
            "--json",
            describeJson.toString());
    assertThat(describe.exit()).as(describe.toString()).isEqualTo(ExitCode.OK);
    assertThat(describe.out())
        .contains(
            "Table " + table,
            "m: VERSIONS=3 MIN_VERSIONS=0 TTL=FOREVER COMPRESSION=NONE",
            "Regions (1;",
            "[single-region]",
            "[no-compression]");
    JsonNode d = Json.mapper().readTree(describeJson.toFile());
    assertThat(d.at("/table/families/0/name").asText()).isEqualTo("m");
    assertThat(d.at("/table/families/0/maxVersions").asInt()).isEqualTo(3);
    assertThat(d.at("/table/regions").size()).isEqualTo(1);
    List<String> codes = new ArrayList<>();
    d.get("findings").forEach(f -> codes.add(f.get("code").asText()));
    assertThat(codes).containsExactlyInAnyOrder("single-region", "no-compression");
  }

  @Test
  void describeShowsRegionsSettingsAndSkew() throws Exception {
    TableName name = MiniHBase.uniqueTable("described");
    try (Admin admin = MiniHBase.util().getConnection().getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(name)
              .setColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("content"))
                      .setMaxVersions(Integer.MAX_VALUE)
                      .setTimeToLive(86400)
                      .setMinVersions(1)
                      .setCompressionType(Compression.Algorithm.GZ)
                      .build())
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of("d"))
              .build(),
          new byte[][] {Bytes.toBytes("g"), new byte[] {(byte) 0xff, 0x00}});
    }
    // Two megabytes into the middle region, nothing elsewhere.
    try (Table t = MiniHBase.util().getConnection().getTable(name)) {
      byte[] value = new byte[1024];
      for (int i = 0; i < 2048; i++) {
        t.put(
            new org.apache.hadoop.hbase.client.Put(Bytes.toBytes("k" + i))
                .addColumn(Bytes.toBytes("d"), Bytes.toBytes("q"), value));
      }
    }
    MiniHBase.util().flush(name);
    CliRun run =
        CliRun.of("describe", "--zk", MiniHBase.zkQuorum(), "--table", name.getNameAsString());
    assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCode.OK);
    assertThat(run.out())
        .contains(
            "content: VERSIONS=2147483647 MIN_VERSIONS=1 TTL=86400s COMPRESSION=GZ",
            "d: VERSIONS=1",
            "Regions (3;",
            "['', 'g')",
            "['g', '\\xFF\\x00')  hex [67, ff00)",
            "[long-family-name]",
            "[unbounded-versions]",
            "[min-versions-outlive-ttl]",
            "[several-families]",
            "[region-size-skew]");
    assertThat(run.out()).doesNotContain("[single-region]");
  }

  @Test
  void describeOfAMissingTableExits1AndNamesIt() {
    CliRun run = CliRun.of("describe", "--zk", MiniHBase.zkQuorum(), "--table", "nope:missing");
    assertThat(run.exit()).isEqualTo(ExitCode.FAILED);
    assertThat(run.err().lines().count()).isEqualTo(1);
    assertThat(run.err())
        .startsWith("error: describe: table nope:missing does not exist on this cluster");
  }

  @Test
  void jobFileRunsTheSameAsOptions() throws Exception {
    String table = "gen:from_file_" + System.nanoTime();
    Path job = dir.resolve("gen.properties");
    Files.writeString(job, "command = generate\ntable = " + table + "\nrows = 100\n");
    CliRun run = CliRun.of("generate", "--zk", MiniHBase.zkQuorum(), "--job-file", job.toString());
    assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCode.OK);
    assertThat(run.out()).contains("wrote 100 rows");
  }
}
