package io.rekey.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rekey.index.entries.IndexKey;
import io.rekey.keys.ColumnValues;
import io.rekey.keys.FieldValue;
import io.rekey.keys.KeyRange;
import io.rekey.keys.KeyReject;
import io.rekey.keys.LayoutException;
import io.rekey.keys.RejectReason;
import io.rekey.keys.ScanPlanner;
import io.rekey.options.InvalidOptionException;
import io.rekey.options.OptionValues;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Index keys and definitions, without a cluster. */
class IndexKeyTest {
  static final long T = 1_767_225_600_000L;

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static IndexKey defaultKey() {
    return IndexKey.parse("key", IndexKey.DEFAULT_LAYOUT, 1024);
  }

  @Test
  void theDefaultKeyIsValueThenReversedTimeThenSourceKeyAndReadsBack() throws Exception {
    IndexKey key = defaultKey();
    byte[] k = key.entryKey(b("row\u0000with\u0000zeros"), ColumnValues.NONE, b("alice"), T);
    IndexKey.Entry e = key.decode(k);
    assertThat(new String(e.value(), StandardCharsets.UTF_8)).isEqualTo("alice");
    assertThat(e.ts()).isEqualTo(T);
    assertThat(e.sourceKey()).isEqualTo(b("row\u0000with\u0000zeros"));
    // 'alice' escaped and terminated, then 8 bytes of Long.MAX_VALUE - ts, then the row.
    assertThat(Bytes.toStringBinary(k)).startsWith("alice\\x00\\x01\\x7F\\xFF\\xFEd");
  }

  @Test
  void aValuesEntriesSortNewestFirstAndItsScanNeverReachesALongerValue() throws Exception {
    IndexKey key = defaultKey();
    byte[] older = key.entryKey(b("r1"), ColumnValues.NONE, b("user1"), T);
    byte[] newer = key.entryKey(b("r2"), ColumnValues.NONE, b("user1"), T + 1);
    byte[] longer = key.entryKey(b("r3"), ColumnValues.NONE, b("user10"), T + 2);
    assertThat(Bytes.compareTo(newer, older)).isNegative();
    List<KeyRange> ranges =
        ScanPlanner.plan(key.layout(), Map.of(IndexKey.VALUE, FieldValue.of("user1")), Map.of());
    assertThat(ranges).hasSize(1);
    assertThat(ranges.get(0).contains(older)).isTrue();
    assertThat(ranges.get(0).contains(newer)).isTrue();
    assertThat(ranges.get(0).contains(longer)).isFalse();
  }

  @Test
  void aSaltOverTheSourceKeyFansALookupOutOverEveryBucket() throws Exception {
    IndexKey key = IndexKey.parse("key", "salt(8) + value + reverse_ts(ts) + key", 1024);
    List<KeyRange> ranges =
        ScanPlanner.plan(key.layout(), Map.of(IndexKey.VALUE, FieldValue.of("alice")), Map.of());
    assertThat(ranges).hasSize(8);
    byte[] k = key.entryKey(b("m1"), ColumnValues.NONE, b("alice"), T);
    assertThat(ranges.stream().filter(r -> r.contains(k))).hasSize(1);
    IndexKey bySalt = IndexKey.parse("key", "salt(8, value) + value + reverse_ts(ts) + key", 1024);
    assertThat(
            ScanPlanner.plan(
                bySalt.layout(), Map.of(IndexKey.VALUE, FieldValue.of("alice")), Map.of()))
        .hasSize(1);
  }

  @Test
  void anIndexKeyMayUseFieldsOfTheSourceKey() throws Exception {
    IndexKey key =
        IndexKey.parse(
            "text: sent:long + '_' + user + '_' + msgid",
            "value + user + reverse_ts(sent) + key",
            1024);
    byte[] k = key.entryKey(b(T + "_bob_m7"), ColumnValues.NONE, b("inbox"), 5);
    assertThat(key.decode(k).sourceKey()).isEqualTo(b(T + "_bob_m7"));
    assertThatThrownBy(() -> key.entryKey(b("not-a-key"), ColumnValues.NONE, b("inbox"), 5))
        .isInstanceOf(KeyReject.class)
        .extracting(e -> ((KeyReject) e).reason())
        .isNotNull();
  }

  @Test
  void tooLongKeysAreRejectedWithTheReason() {
    IndexKey key = IndexKey.parse("key", IndexKey.DEFAULT_LAYOUT, 64);
    assertThatThrownBy(() -> key.entryKey(b("r"), ColumnValues.NONE, b("x".repeat(100)), T))
        .isInstanceOfSatisfying(
            KeyReject.class,
            r -> {
              assertThat(r.reason()).isEqualTo(RejectReason.KEY_TOO_LONG);
              assertThat(r.detail()).contains("the value is 100").contains("limit of 64");
            });
  }

  @Test
  void layoutsThatCannotServeAsAnIndexAreRefusedWithTheFix() {
    assertThatThrownBy(() -> IndexKey.parse("key", "value + reverse_ts(ts)", 1024))
        .isInstanceOf(LayoutException.class)
        .hasMessageContaining("must end with the whole source key 'key'");
    assertThatThrownBy(() -> IndexKey.parse("key", "reverse_ts(ts) + key", 1024))
        .hasMessageContaining("must hold the indexed value as 'value'");
    assertThatThrownBy(
            () -> IndexKey.parse("text: ts:long + '_' + u", IndexKey.DEFAULT_LAYOUT, 1024))
        .hasMessageContaining("the field 'ts' is the index's own")
        .hasMessageContaining("give the source field another name");
    assertThatThrownBy(() -> IndexKey.parse("key", "value + reverse_ts(when) + key", 1024))
        .hasMessageStartingWith("index key:");
  }

  static OptionValues values(String... kv) {
    OptionValues v = OptionValues.empty();
    for (int i = 0; i < kv.length; i += 2) {
      v = v.with(kv[i], kv[i + 1]);
    }
    return v;
  }

  static IndexDefinition definition(String... kv) {
    return IndexDefinition.from(values(kv).validate(IndexDefinition.declaredWithFile()));
  }

  @Test
  void aDefinitionNeedsExactlyOneValueAndNamesTheOptionWhenWrong() {
    assertThatThrownBy(() -> definition("source", "ns:t", "index-table", "ns:i"))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageContaining("give --column FAMILY:QUALIFIER");
    assertThatThrownBy(
            () ->
                definition(
                    "source", "ns:t", "index-table", "ns:i", "column", "m:s", "field", "user"))
        .hasMessageContaining("--column and --field are both given");
    assertThatThrownBy(() -> definition("source", "ns:t", "index-table", "ns:i", "field", "user"))
        .hasMessageContaining("--field is 'user' but is not a field of --source-key 'key'");
    assertThatThrownBy(() -> definition("source", "ns:t", "index-table", "ns:t", "column", "m:s"))
        .hasMessageContaining("--index-table is 'ns:t' but is the source table");
    assertThatThrownBy(
            () ->
                definition(
                    "source", "ns:t", "index-table", "ns:i", "column", "m:s", "covered", "subject"))
        .hasMessageContaining("--covered is 'subject' but must be FAMILY:QUALIFIER");
    IndexDefinition d =
        definition(
            "source",
            "ns:t",
            "index-table",
            "ns:i",
            "column",
            "m:sender",
            "covered",
            "m:a",
            "covered",
            "m:b");
    assertThat(d.covered()).extracting(Object::toString).containsExactly("m:a", "m:b");
    assertThat(d.valueName()).isEqualTo("m:sender");
    assertThat(d.safetyLagMillis()).isEqualTo(60_000);
  }

  @Test
  void theDefinitionFileFillsInWhatTheCommandLineDoesNotSay(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("idx.properties");
    Files.writeString(
        file,
        "source = ns:t\ncolumn = m:sender\ncovered = m:a ; m:b\nindex-table = ns:i\nsafety-lag = 50\n");
    OptionValues given = values("def", file.toString(), "safety-lag", "70");
    IndexDefinition d =
        IndexDefinition.from(
            IndexDefinition.withDefinitionFile(given).validate(IndexDefinition.declaredWithFile()));
    assertThat(d.source().getNameAsString()).isEqualTo("ns:t");
    assertThat(d.covered()).hasSize(2);
    assertThat(d.safetyLagMillis()).isEqualTo(70_000);
    Files.writeString(file, "source = ns:t\nsauce = 1\n");
    assertThatThrownBy(() -> IndexDefinition.withDefinitionFile(given))
        .hasMessageContaining("unknown key 'sauce'");
  }

  /** A definition with this safety lag, and more options. */
  private static IndexDefinition withLag(String lag, String... more) {
    List<String> kv =
        new java.util.ArrayList<>(
            List.of("source", "ns:t", "index-table", "ns:i", "column", "m:s", "safety-lag", lag));
    kv.addAll(List.of(more));
    return definition(kv.toArray(String[]::new));
  }

  @Test
  void aSafetyLagUnderTheClockSkewHBaseAllowsNeedsTheOptIn() {
    assertThatThrownBy(() -> withLag("0"))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessageContaining("--safety-lag is '0' but is under 30 s")
        .hasMessageContaining("hbase.master.maxclockskew")
        .hasMessageContaining("--allow-short-lag");
    assertThatThrownBy(() -> withLag("29")).hasMessageContaining("is under 30 s");
    assertThat(withLag("30").safetyLagMillis()).isEqualTo(30_000);
    assertThat(withLag("0", "allow-short-lag", "true").safetyLagMillis()).isZero();
  }

  @Test
  void anUpdateMayNotEndLaterThanNowMinusTheSafetyLag() {
    long now = 1_767_225_600_000L;
    IndexRunOptions.checkUntil("x", now - 60_000, 60_000, now);
    assertThatThrownBy(
            () -> IndexRunOptions.checkUntil("2026-01-01T00:00:30Z", now - 30_000, 60_000, now))
        .isInstanceOf(InvalidOptionException.class)
        .hasMessage(
            "--until is '2026-01-01T00:00:30Z' but is later than now minus the safety lag"
                + " (2025-12-31T23:59:00Z = 1767225540000): cells stamped before it may still be"
                + " written, and the watermark would pass them. Give a time at or before that, or"
                + " leave --until out");
    // Through the options: a time in the future.
    assertThatThrownBy(
            () ->
                IndexRunOptions.forUpdate(
                    values(
                            "source",
                            "ns:t",
                            "index-table",
                            "ns:i",
                            "column",
                            "m:s",
                            "until",
                            Long.toString(System.currentTimeMillis() + 3_600_000))
                        .validate(IndexRunOptions.declaredForUpdate())))
        .hasMessageContaining("is later than now minus the safety lag");
  }
}
