package io.rekey.rekey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.keys.KeyMapping;
import io.rekey.options.InvalidOptionException;
import org.apache.hadoop.hbase.KeepDeletedCells;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.Test;

/** What an existing target's families must share with the source's, and the alter that fixes it. */
class TargetFamiliesTest {
  private static final KeyMapping BY_KEY =
      KeyMapping.parse("text: ts:long + '_' + msgid", "msgid + reverse_ts(ts)");
  private static final KeyMapping BOUND =
      KeyMapping.parse(
          "text: ts:long + '_' + msgid ; sender = m:sender", "sender + reverse_ts(ts) + msgid");

  private static TableDescriptor table(String name, ColumnFamilyDescriptorBuilder... families) {
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(TableName.valueOf(name));
    for (ColumnFamilyDescriptorBuilder f : families) {
      b.setColumnFamily(f.build());
    }
    return b.build();
  }

  private static ColumnFamilyDescriptorBuilder family(String name) {
    return ColumnFamilyDescriptorBuilder.newBuilder(
        org.apache.hadoop.hbase.util.Bytes.toBytes(name));
  }

  @Test
  void theSameSettingsPassAndAKeyBoundToAColumnAlsoNeedsTheNewVersionBehavior() {
    TableDescriptor source = table("src", family("m").setMaxVersions(3), family("d"));
    TableDescriptor same = table("dst", family("m").setMaxVersions(3), family("d"));
    assertThat(TargetFamilies.alters(source, same, false)).isEmpty();
    assertThat(TargetFamilies.alters(source, same, true))
        .containsExactly(
            "alter 'dst', {NAME => 'd', NEW_VERSION_BEHAVIOR => 'true'}",
            "alter 'dst', {NAME => 'm', NEW_VERSION_BEHAVIOR => 'true'}");
    TableDescriptor nvb =
        table(
            "dst",
            family("m").setMaxVersions(3).setNewVersionBehavior(true),
            family("d").setNewVersionBehavior(true));
    assertThat(TargetFamilies.alters(source, nvb, true)).isEmpty();
  }

  @Test
  void eachSettingAReadDependsOnIsNamedWithTheSourcesValue() {
    TableDescriptor source =
        table(
            "src",
            family("m")
                .setMaxVersions(5)
                .setMinVersions(1)
                .setTimeToLive(86_400)
                .setKeepDeletedCells(KeepDeletedCells.TTL));
    TableDescriptor target = table("ns:dst", family("m"));
    assertThat(TargetFamilies.alters(source, target, false))
        .containsExactly(
            "alter 'ns:dst', {NAME => 'm', VERSIONS => 5, MIN_VERSIONS => 1, TTL => 86400,"
                + " KEEP_DELETED_CELLS => 'TTL'}");
    assertThatThrownBy(() -> TargetFamilies.require(source, target, BY_KEY))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageStartingWith("--target is 'ns:dst' but has family settings a migration from src")
        .hasMessageContaining("alter it first, alter 'ns:dst', {NAME => 'm', VERSIONS => 5")
        .hasMessageNotContaining("\n");
    TargetFamilies.require(source, source, BY_KEY);
    assertThatThrownBy(() -> TargetFamilies.require(source, source, BOUND))
        .hasMessageContaining("NEW_VERSION_BEHAVIOR => 'true'");
  }

  @Test
  void aCreatedTargetHasTheSourcesFamiliesAndTheNewVersionBehaviorWhereRowsCanMove() {
    TableDescriptor source = table("src", family("m").setMaxVersions(3), family("d"));
    assertThat(TargetFamilies.forNewTarget(source, BY_KEY)).isSameAs(source);
    TableDescriptor created = TargetFamilies.forNewTarget(source, BOUND);
    assertThat(created.getColumnFamilies())
        .allSatisfy(f -> assertThat(f.isNewVersionBehavior()).isTrue());
    assertThat(
            created
                .getColumnFamily(org.apache.hadoop.hbase.util.Bytes.toBytes("m"))
                .getMaxVersions())
        .isEqualTo(3);
    // What the check of an existing target asks for is exactly what a created one has.
    assertThat(TargetFamilies.alters(source, created, true)).isEmpty();
  }
}
