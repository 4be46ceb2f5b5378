package io.rekey.hbase;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.KeepDeletedCells;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.Test;

/** Which families let a compaction purge delete markers before a sync reads them. */
class PurgedDeletesTest {
  static TableDescriptor table(ColumnFamilyDescriptorBuilder... families) {
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(TableName.valueOf("ns:t"));
    for (ColumnFamilyDescriptorBuilder f : families) {
      b.setColumnFamily(f.build());
    }
    return b.build();
  }

  @Test
  void hbasesDefaultsAreNamedWithTheAlterThatKeepsTheMarkersADay() {
    TableDescriptor t =
        table(
            ColumnFamilyDescriptorBuilder.newBuilder(b("m")),
            ColumnFamilyDescriptorBuilder.newBuilder(b("kept"))
                .setKeepDeletedCells(KeepDeletedCells.TRUE),
            ColumnFamilyDescriptorBuilder.newBuilder(b("day"))
                .setConfiguration(PurgedDeletes.PURGE_DELAY, "86400000"),
            ColumnFamilyDescriptorBuilder.newBuilder(b("hour"))
                .setConfiguration(PurgedDeletes.PURGE_DELAY, "3600000"));
    assertThat(PurgedDeletes.warnings(t, new Configuration(false), null, PurgedDeletes.Reader.SYNC))
        .containsExactly(
            "ns:t family hour purges delete markers 3600000 ms after a major compaction"
                + " (KEEP_DELETED_CELLS false, hbase.hstore.time.to.purge.deletes 3600000): a delete"
                + " compacted away before the next sync never reaches the target. Keep them a day"
                + " with: alter 'ns:t', {NAME => 'hour', CONFIGURATION =>"
                + " {'hbase.hstore.time.to.purge.deletes' => '86400000'}}; 'rekey sync --final"
                + " --repair' restores what was lost",
            "ns:t family m purges delete markers at once after a major compaction"
                + " (KEEP_DELETED_CELLS false, hbase.hstore.time.to.purge.deletes 0): a delete"
                + " compacted away before the next sync never reaches the target. Keep them a day"
                + " with: alter 'ns:t', {NAME => 'm', CONFIGURATION =>"
                + " {'hbase.hstore.time.to.purge.deletes' => '86400000'}}; 'rekey sync --final"
                + " --repair' restores what was lost");
  }

  @Test
  void theClustersOwnDelayCountsWhereTheFamilySetsNone() {
    Configuration cluster = new Configuration(false);
    cluster.setLong(PurgedDeletes.PURGE_DELAY, 7L * 24 * 3600 * 1000);
    assertThat(
            PurgedDeletes.warnings(
                table(ColumnFamilyDescriptorBuilder.newBuilder(b("m"))),
                cluster,
                null,
                PurgedDeletes.Reader.SYNC))
        .isEmpty();
  }

  static byte[] b(String s) {
    return org.apache.hadoop.hbase.util.Bytes.toBytes(s);
  }
}
