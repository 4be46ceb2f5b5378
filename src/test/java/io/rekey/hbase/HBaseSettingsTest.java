package io.rekey.hbase;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class HBaseSettingsTest {
  @Test
  void aKerberizedHBaseGivesSparksTokenProviderItsClientSettingsAndNothingElse() {
    HBaseSettings secure =
        new HBaseSettings(
            "zk1:2281",
            null,
            Map.of(
                "hbase.security.authentication", "kerberos",
                "hbase.regionserver.kerberos.principal", "hbase/_HOST@EXAMPLE.COM",
                "rekey.throttle.write-rate", "100"));
    assertThat(secure.sparkTokenSettings())
        .containsEntry("spark.hadoop.hbase.security.authentication", "kerberos")
        .containsEntry(
            "spark.hadoop.hbase.regionserver.kerberos.principal", "hbase/_HOST@EXAMPLE.COM")
        .containsEntry("spark.hadoop.hbase.zookeeper.quorum", "zk1:2281")
        .doesNotContainKey("spark.hadoop.rekey.throttle.write-rate")
        // HBase's defaults are Spark's too: only what differs is handed on.
        .doesNotContainKey("spark.hadoop.hbase.client.retries.number");
    assertThat(secure.sparkTokenSettings().keySet()).allMatch(k -> k.startsWith("spark.hadoop."));

    HBaseSettings plain = new HBaseSettings("zk1:2281", null);
    assertThat(plain.sparkTokenSettings()).isEmpty();
  }
}
