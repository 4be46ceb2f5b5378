package io.rekey.hbase;

import static org.assertj.core.api.Assertions.assertThat;

import io.rekey.common.RekeyException;
import java.io.IOException;
import java.net.ConnectException;
import org.apache.hadoop.hbase.client.RetriesExhaustedException;
import org.apache.spark.SparkException;
import org.junit.jupiter.api.Test;

/** Which failures read as an outage ("rerun") rather than as a bug. */
class OutageTest {
  @Test
  void connectionFailuresAnywhereInTheCausesAreOutages() {
    assertThat(
            Outage.cause(
                new RekeyException(
                    "cannot read x",
                    new RetriesExhaustedException(
                        "Failed after attempts=11", new IOException("Connection refused")))))
        .hasValueSatisfying(s -> assertThat(s).startsWith("RetriesExhaustedException: Failed"));
    assertThat(Outage.cause(new IllegalStateException("wrapped", new ConnectException("refused"))))
        .hasValue("ConnectException: refused");
  }

  @Test
  void aTaskFailureReachesTheDriverAsTextAndIsReadToo() {
    SparkException task =
        new SparkException(
            "Job aborted due to stage failure: Task 3 in stage 2.0 failed 4 times, most recent"
                + " failure: java.net.ConnectException: Connection refused\n\tat ...");
    assertThat(Outage.cause(task)).isPresent();
  }

  @Test
  void otherFailuresAreNot() {
    assertThat(Outage.cause(new IllegalStateException("a bug"))).isEmpty();
    assertThat(Outage.cause(new SparkException("Task failed: java.lang.NullPointerException")))
        .isEmpty();
  }
}
