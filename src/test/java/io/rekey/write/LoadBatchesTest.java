package io.rekey.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.write.LoadBatches.Batch;
import io.rekey.write.LoadBatches.Store;
import io.rekey.write.LoadBatches.StoreFiles;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The bulk load's batching, from store-file counts alone: no entry pushes a store past its blocking
 * count less one, the throttle's regions per batch and one family per batch hold, and the store
 * with no room is named. {@code PressureIT} runs the same rules against a real region server.
 */
class LoadBatchesTest {
  static final TableName T = TableName.valueOf("t");

  /** Regions [,b) [b,d) [d,): a, b, c, d. */
  static final List<RegionInfo> REGIONS = regions("b", "d");

  static List<RegionInfo> regions(String... splits) {
    List<RegionInfo> out = new ArrayList<>();
    byte[] start = new byte[0];
    for (int i = 0; i <= splits.length; i++) {
      byte[] end = i < splits.length ? Bytes.toBytes(splits[i]) : new byte[0];
      out.add(
          RegionInfoBuilder.newBuilder(T).setStartKey(start).setEndKey(end).setRegionId(1).build());
      start = end;
    }
    return out;
  }

  static String name(int region) {
    return REGIONS.get(region).getRegionNameAsString();
  }

  static Ledger.Entry entry(String name, String family, String first, String last) {
    HexFormat hex = HexFormat.of();
    return new Ledger.Entry(
        family + "/" + name,
        family,
        100,
        10,
        hex.formatHex(Bytes.toBytes(first)),
        hex.formatHex(Bytes.toBytes(last)),
        Ledger.State.COMMITTED,
        null);
  }

  /** Every region holds {@code files} store files in every family. */
  static StoreFiles files(int... perRegion) {
    Map<String, Integer> totals = new HashMap<>();
    for (int i = 0; i < perRegion.length; i++) {
      totals.put(name(i), perRegion[i]);
    }
    return new StoreFiles(totals, null, Map.of());
  }

  static Batch next(
      List<Ledger.Entry> left, StoreFiles files, int limit, int maxRegions, boolean perFamily) {
    return LoadBatches.next(
        left, REGIONS, files, Map.of("d", limit, "m", limit), maxRegions, perFamily);
  }

  @Test
  void anEntryCountsAgainstEveryRegionItsRowsSpan() {
    assertThat(LoadBatches.spanned(entry("1", "d", "a", "a"), REGIONS)).containsExactly(name(0));
    assertThat(LoadBatches.spanned(entry("1", "d", "a", "c"), REGIONS))
        .containsExactly(name(0), name(1));
    assertThat(LoadBatches.spanned(entry("1", "d", "b", "b"), REGIONS)).containsExactly(name(1));
    assertThat(LoadBatches.spanned(entry("1", "d", "a", "z"), REGIONS)).hasSize(3);
    assertThat(LoadBatches.spanned(entry("1", "d", "d", "z"), REGIONS)).containsExactly(name(2));
  }

  @ParameterizedTest(name = "{0} files now, limit {1}: {2} of 5 entries fit")
  @CsvSource({
    "0, 16, 5",
    "10, 16, 5",
    "11, 16, 4",
    "14, 16, 1",
    "15, 16, 0",
    "20, 16, 0",
    "0, 3, 2"
  })
  void aStoreKeepsOneFileOfRoomBelowItsBlockingCount(int now, int limit, int fit) {
    List<Ledger.Entry> left = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      left.add(entry("f" + i, "d", "a", "a"));
    }
    Batch batch = next(left, files(now, 0, 0), limit, 0, false);
    assertThat(batch.entries()).containsExactlyElementsOf(left.subList(0, fit));
    if (fit == 0) {
      assertThat(batch.full()).isEqualTo(new Store(name(0), "d"));
      assertThat(batch.fullLimit()).isEqualTo(limit);
      assertThat(batch.regionsWithoutRoom()).containsExactly(name(0));
    } else {
      assertThat(batch.regions()).isEqualTo(1);
    }
  }

  @Test
  void aFullRegionHoldsBackOnlyTheEntriesThatFallInIt() {
    List<Ledger.Entry> left =
        List.of(entry("1", "d", "a", "a"), entry("2", "d", "b", "c"), entry("3", "d", "a", "c"));
    Batch batch = next(left, files(15, 0, 0), 16, 0, false);
    assertThat(batch.entries()).containsExactly(left.get(1));
    assertThat(batch.full()).isEqualTo(new Store(name(0), "d"));
    assertThat(batch.regionsWithoutRoom()).containsExactly(name(0));
  }

  @Test
  void aStoreThatTheBatchFilledIsNotAskedToCompact() {
    List<Ledger.Entry> left = List.of(entry("1", "d", "a", "a"), entry("2", "d", "a", "a"));
    Batch batch = next(left, files(14, 0, 0), 16, 0, false);
    assertThat(batch.entries()).containsExactly(left.get(0));
    assertThat(batch.full()).isEqualTo(new Store(name(0), "d"));
    assertThat(batch.regionsWithoutRoom()).isEmpty();
  }

  @Test
  void theThrottleBoundsTheRegionsOfABatch() {
    List<Ledger.Entry> left =
        List.of(
            entry("1", "d", "a", "a"),
            entry("2", "d", "b", "b"),
            entry("3", "d", "a", "a"),
            entry("4", "d", "e", "e"));
    Batch one = next(left, files(0, 0, 0), 16, 1, false);
    assertThat(one.entries()).containsExactly(left.get(0), left.get(2));
    assertThat(one.regions()).isEqualTo(1);
    Batch two = next(left, files(0, 0, 0), 16, 2, false);
    assertThat(two.entries()).containsExactly(left.get(0), left.get(1), left.get(2));
    assertThat(two.regions()).isEqualTo(2);
  }

  @Test
  void aBatchPerFamilyTakesTheFirstEntrysFamilyOnly() {
    List<Ledger.Entry> left =
        List.of(entry("1", "m", "a", "a"), entry("2", "d", "a", "a"), entry("3", "m", "e", "e"));
    assertThat(next(left, files(0, 0, 0), 16, 0, true).entries())
        .containsExactly(left.get(0), left.get(2));
    assertThat(next(left, files(0, 0, 0), 16, 0, false).entries()).containsExactlyElementsOf(left);
  }

  @Test
  void perStoreCountsAreCappedByTheRegionsTotalAndStandInForItWhenListed() {
    RegionInfo a = REGIONS.get(0);
    Map<String, Map<String, Integer>> perStore =
        Map.of(a.getEncodedName(), Map.of("d", 15, "m", 1));
    StoreFiles files =
        new StoreFiles(Map.of(name(0), 16), perStore, Map.of(name(0), a.getEncodedName()));
    assertThat(files.count(new Store(name(0), "d"))).isEqualTo(15);
    assertThat(files.count(new Store(name(0), "m"))).isEqualTo(1);
    StoreFiles stale =
        new StoreFiles(Map.of(name(0), 3), perStore, Map.of(name(0), a.getEncodedName()));
    assertThat(stale.count(new Store(name(0), "d"))).isEqualTo(3);
    assertThat(new StoreFiles(Map.of(name(0), 15), null, Map.of()).count(new Store(name(0), "m")))
        .isEqualTo(15);

    List<Ledger.Entry> left = List.of(entry("1", "d", "a", "a"), entry("2", "m", "a", "a"));
    assertThat(next(left, files, 16, 0, false).entries()).containsExactly(left.get(1));
  }

  @Test
  void theBlockingCountIsTheFamilysOwnElseTheTablesElseTheClusters() {
    var table =
        TableDescriptorBuilder.newBuilder(T)
            .setValue(LoadBatches.BLOCKING_KEY, "40")
            .setColumnFamily(
                ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("d"))
                    .setConfiguration(LoadBatches.BLOCKING_KEY, " 8 ")
                    .build())
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of("m"))
            .build();
    assertThat(LoadBatches.limits(table, 16)).isEqualTo(Map.of("d", 8, "m", 40));
    var plain =
        TableDescriptorBuilder.newBuilder(T)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of("m"))
            .build();
    assertThat(LoadBatches.limits(plain, 16)).isEqualTo(Map.of("m", 16));
  }
}
