package io.rekey.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CallQueueTooBigException;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.NotServingRegionException;
import org.apache.hadoop.hbase.RegionTooBusyException;
import org.apache.hadoop.hbase.quotas.RpcThrottlingException;
import org.junit.jupiter.api.Test;

class PacedMutatorTest {
  @Test
  void busyAnswersAreTheServersSheddingLoadWhereverTheyAreInTheCauseChain() throws Exception {
    assertThat(PacedMutator.isBusy(new RegionTooBusyException("over memstore limit"))).isTrue();
    assertThat(PacedMutator.isBusy(new CallQueueTooBigException())).isTrue();
    assertThat(
            PacedMutator.isBusy(
                new RpcThrottlingException(
                    RpcThrottlingException.Type.NumRequestsExceeded, 1000, "quota")))
        .isTrue();
    assertThat(PacedMutator.isBusy(new IOException("wrapped", new CallQueueTooBigException())))
        .isTrue();
    assertThat(PacedMutator.isBusy(new NotServingRegionException("moved"))).isFalse();
    assertThat(PacedMutator.isBusy(new DoNotRetryIOException("no such family"))).isFalse();
  }

  @Test
  void theWritersConnectWithFewClientRetriesSoTheyHearBusyAnswers() {
    Configuration conf = new Configuration(false);
    conf.setInt("hbase.client.retries.number", 35);
    assertThat(PacedMutator.writerConf(conf).getInt("hbase.client.retries.number", 0))
        .isEqualTo(PacedMutator.CLIENT_RETRIES);
    assertThat(conf.getInt("hbase.client.retries.number", 0)).isEqualTo(35);
  }
}
