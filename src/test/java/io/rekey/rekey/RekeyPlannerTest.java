package io.rekey.rekey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.common.RekeyException;
import io.rekey.hbase.FamilySettings;
import io.rekey.hbase.InMemoryCluster;
import io.rekey.keys.KeyText;
import io.rekey.options.InvalidOptionException;
import io.rekey.options.OptionsBuilder;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The rekey plan as a pure call over an in-memory cluster: every rule of {@link RekeyPlanner} with
 * no HBase running. {@code RekeyIT} checks the same plans end to end on a mini cluster.
 */
class RekeyPlannerTest {
  static final long NOW = 1_767_225_600_000L;
  static final String SOURCE_KEY = "text: ts:long + '_' + user + '_' + order";
  static final String SALTED = "salt(8, user) + user + reverse_ts(ts) + order";
  static final String UNSALTED = "user + reverse_ts(ts) + order";
  static final List<String> FAMILIES = List.of("d", "m");

  /** A source {@code src} of {@code rows} rows, users u0..u6, split in three regions. */
  static InMemoryCluster source(int rows) {
    InMemoryCluster c =
        new InMemoryCluster().table("src", FAMILIES, "1767225600010", "1767225600020");
    for (int i = 0; i < rows; i++) {
      c.put("src", (NOW + i) + "_u" + (i % 7) + "_o" + i, "d:v", "value " + i);
    }
    return c;
  }

  /** Options from src into dst with the source key of the rows, and {@code targetKey}. */
  static OptionsBuilder<RekeyOptions> into(String targetKey) {
    return into("dst", SOURCE_KEY, targetKey);
  }

  static OptionsBuilder<RekeyOptions> into(String target, String sourceKey, String targetKey) {
    return RekeyOptions.builder()
        .set(RekeyOptions.SOURCE, "src")
        .set(RekeyOptions.TARGET, target)
        .set(RekeyOptions.SOURCE_KEY, sourceKey)
        .set(RekeyOptions.TARGET_KEY, targetKey);
  }

  static RekeyOptions options(String targetKey) {
    return into(targetKey).build();
  }

  static RekeyPlan plan(InMemoryCluster cluster, int cores, RekeyOptions options) {
    Configuration conf = new Configuration(false);
    conf.set("hbase.rootdir", "file:///var/hbase/root");
    return new RekeyPlanner(cluster, conf, Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC))
        .plan(options, cores)
        .plan();
  }

  @ParameterizedTest(name = "salt({0}) × {1} per bucket: {2} regions")
  @CsvSource({"8, 1, 8", "8, 4, 32", "2, 1, 2", "1, 1, 1", "16, 2, 32"})
  void aSaltedLayoutGetsItsBucketsTimesSplitsPerBucketRegions(
      int buckets, int perBucket, int regions) {
    String layout = "salt(" + buckets + ", user) + user + reverse_ts(ts) + order";
    RekeyPlan plan =
        plan(
            source(50),
            2,
            into(layout).set(RekeyOptions.SPLITS_PER_BUCKET, (long) perBucket).build());
    assertThat(plan.targetRegions()).isEqualTo(regions);
    assertThat(plan.createTarget()).isTrue();
    assertThat(plan.splitPoints()).isSortedAccordingTo(RekeyPlannerTest::compare);
  }

  @ParameterizedTest(name = "{0} sampled rows, --regions {1}: {2} regions")
  @CsvSource({"35, 16, 3", "500, 16, 16", "500, 4, 4", "5, 16, 1", "0, 16, 1"})
  void anUnsaltedLayoutIsSplitAtQuantilesOfASampleOfNewKeys(int rows, int asked, int regions) {
    RekeyPlan plan =
        plan(source(rows), 2, into(UNSALTED).set(RekeyOptions.REGIONS, (long) asked).build());
    assertThat(plan.targetRegions()).isEqualTo(regions);
    assertThat(plan.splitPoints())
        .isSortedAccordingTo(RekeyPlannerTest::compare)
        .doesNotHaveDuplicates();
  }

  @Test
  void aHashedLayoutIsSplitEvenlyWithoutASample() {
    RekeyPlan plan =
        plan(
            source(0),
            2,
            into("hash(user, bytes=2) + user + order").set(RekeyOptions.REGIONS, 4L).build());
    assertThat(plan.splitPoints()).extracting(KeyText::hex).containsExactly("4000", "8000", "c000");
  }

  @Test
  void aNewTargetTakesTheSourcesFamiliesAndASnapshotNamedForTheSourceAndTheClock() {
    RekeyPlan plan = plan(source(20), 2, options(SALTED));
    assertThat(plan.families()).extracting(FamilySettings::name).containsExactly("d", "m");
    assertThat(plan.snapshot()).isEqualTo("rekey-src-" + NOW);
    assertThat(plan.read()).isEqualTo("snapshot");
    assertThat(plan.sourceRegions()).isEqualTo(3);
    assertThat(plan.runDir()).isEqualTo("file:/var/hbase/rekey-staging/dst-from-src");
  }

  @Test
  void aLiveScanTakesNoSnapshotAndARawReadSaysSo() {
    RekeyPlan plan =
        plan(source(20), 2, into(SALTED).set(RekeyOptions.LIVE_SCAN).set(RekeyOptions.RAW).build());
    assertThat(plan.snapshot()).isNull();
    assertThat(plan.read()).isEqualTo("live-scan, raw (delete markers and hidden cells too)");
  }

  @Test
  void theRunDirectoryIsUnderTheGivenStagingNamedForBothTables() {
    InMemoryCluster c = source(5).namespace("ns");
    RekeyOptions o = into("ns:dst", SOURCE_KEY, SALTED).set(RekeyOptions.STAGING, "/stage").build();
    assertThat(plan(c, 2, o).runDir()).isEqualTo("file:/stage/ns_dst-from-src");
  }

  @Test
  void anExistingTargetKeepsItsRegionsAndItsFamilySettings() {
    InMemoryCluster c = source(20);
    TableDescriptorBuilder target = TableDescriptorBuilder.newBuilder(TableName.valueOf("dst"));
    target.setColumnFamily(
        ColumnFamilyDescriptorBuilder.newBuilder("d".getBytes()).setBlocksize(8192).build());
    target.setColumnFamily(ColumnFamilyDescriptorBuilder.of("m"));
    c.table(target.build(), "b", "m");

    RekeyPlan plan = plan(c, 2, options(SALTED));
    assertThat(plan.createTarget()).isFalse();
    assertThat(plan.splitPoints()).extracting(KeyText::printable).containsExactly("b", "m");
    assertThat(plan.families().get(0).blockSize()).isEqualTo(8192);
  }

  @Test
  void anExistingTargetWithOtherFamiliesIsRefused() {
    InMemoryCluster c = source(5).table("dst", List.of("d"));
    assertThatThrownBy(() -> plan(c, 2, options(SALTED)))
        .isInstanceOf(RekeyException.class)
        .hasMessage(
            "the target dst has families [d] but the source src has [d, m]; drop the target"
                + " (rekey creates it with the source's families) or give it the same families");
  }

  @Test
  void aRawCopyOfASourceWhoseMarkersDependOnWriteOrderIsRefusedBeforeAnyWork() {
    InMemoryCluster c =
        new InMemoryCluster()
            .table(
                TableDescriptorBuilder.newBuilder(TableName.valueOf("src"))
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.of("d"))
                    .setColumnFamily(
                        ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("m"))
                            .setNewVersionBehavior(true)
                            .build())
                    .build());
    RekeyOptions raw = into(SALTED).set(RekeyOptions.RAW).build();
    assertThatThrownBy(() -> plan(c, 2, raw))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageStartingWith(
            "--raw is 'true' but the family m of src keeps NEW_VERSION_BEHAVIOR")
        .hasMessageContaining("leave out --raw")
        .hasMessageEndingWith("alter 'src', {NAME => 'm', NEW_VERSION_BEHAVIOR => false}");
    assertThat(plan(c, 2, options(SALTED)).createTarget()).isTrue();
  }

  @Test
  void aMissingSourceIsRefusedByName() {
    assertThatThrownBy(() -> plan(new InMemoryCluster(), 2, options(SALTED)))
        .isInstanceOf(RekeyException.class)
        .hasMessage("the source table src does not exist on this cluster");
  }

  @Test
  void aKeyBoundToAFamilyTheSourceLacksIsRefused() {
    RekeyOptions o =
        into("dst", "text: ts:long + '_' + order ; sender = x:sender", "sender + order").build();
    assertThatThrownBy(() -> plan(source(5), 2, o))
        .isInstanceOf(RekeyException.class)
        .hasMessage("the source key binds sender to x:sender, but src has no family 'x'");
  }

  @Test
  void aNewTargetInAMissingNamespaceIsRefusedUnlessItMayBeCreated() {
    RekeyOptions refused = into("nowhere:dst", SOURCE_KEY, SALTED).build();
    assertThatThrownBy(() -> plan(source(5), 2, refused))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageContaining("--target is 'nowhere:dst'")
        .hasMessageContaining("namespace 'nowhere', which does not exist")
        .hasMessageContaining("--create-namespace");

    RekeyOptions allowed =
        into("nowhere:dst", SOURCE_KEY, SALTED).set(RekeyOptions.CREATE_NAMESPACE).build();
    assertThat(plan(source(5), 2, allowed).createTarget()).isTrue();
  }

  @ParameterizedTest(name = "{0} cores, salt(8), --tasks-per-region {1}: {2}")
  @CsvSource({"2, 0, 1", "8, 0, 2", "16, 0, 4", "200, 0, 16", "2, 3, 3"})
  void writerTasksPerRegionComeFromTheCoresUnlessGiven(int cores, int given, int tasks) {
    RekeyPlan plan =
        plan(
            source(5),
            cores,
            into(SALTED).set(RekeyOptions.TASKS_PER_REGION, (long) given).build());
    assertThat(plan.tasksPerRegion()).isEqualTo(tasks);
  }

  @Test
  void theFirstTenRowsAreShownWithTheirNewKeysOrTheirRejects() {
    InMemoryCluster c = source(12);
    c.put("src", "0000_not-a-number", "d:v", "x");
    RekeyPlan plan = plan(c, 2, options(SALTED));
    assertThat(plan.sampleKeys()).hasSize(10);
    RekeyPlan.SampleKey bad = plan.sampleKeys().get(0);
    assertThat(bad.oldKey().printable()).isEqualTo("0000_not-a-number");
    assertThat(bad.newKey()).isNull();
    assertThat(bad.reject()).isNotBlank();
    assertThat(plan.sampleKeys().subList(1, 10)).allMatch(k -> k.newKey() != null);
    assertThat(plan.everySampleRejected()).isFalse();
  }

  @Test
  void aSourceKeyThatFitsNoRowRejectsEverySample() {
    InMemoryCluster c = new InMemoryCluster().table("src", FAMILIES);
    for (int i = 0; i < 4; i++) {
      c.put("src", "row" + i, "d:v", "x");
    }
    assertThat(plan(c, 2, options(SALTED)).everySampleRejected()).isTrue();
  }

  @Test
  void aLayoutThatMergesRowsIsCheckedForCollisionsUnlessMergingIsAllowed() {
    RekeyPlan checked = plan(source(5), 2, options("user + order"));
    assertThat(checked.injectivity().injective()).isFalse();
    assertThat(checked.collisionCheck()).isTrue();
    assertThat(
            plan(source(5), 2, into("user + order").set(RekeyOptions.ALLOW_MERGE).build())
                .collisionCheck())
        .isFalse();
    assertThat(plan(source(5), 2, options(SALTED)).collisionCheck()).isFalse();
  }

  private static int compare(KeyText a, KeyText b) {
    return a.hex().compareTo(b.hex());
  }
}
