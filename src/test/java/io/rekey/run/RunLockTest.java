package io.rekey.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** Which lock holders are provably dead: only processes of this host that no longer run. */
class RunLockTest {
  @Test
  void onlyAGoneProcessOfThisHostIsDead() throws Exception {
    String host = RunLock.hostName();
    String name = InetAddress.getLocalHost().getHostName();
    long me = ProcessHandle.current().pid();
    assertThat(RunLock.deadHere("rekey a -> b by pid " + me + " on " + host + " since x"))
        .isFalse();
    // Past any pid Linux hands out (pid_max is at most 2^22).
    assertThat(RunLock.deadHere("rekey a -> b by pid 99999999 on " + host + " since x")).isTrue();
    assertThat(
            RunLock.deadHere(
                "index build by pid 99999999 on " + host + ", Spark application local-1 since x"))
        .isTrue();
    assertThat(RunLock.deadHere("rekey a -> b by pid 99999999 on another-host since x")).isFalse();
    assertThat(RunLock.deadHere("written by something else")).isFalse();
    // Another machine or container with the same host name: its pids are not ours to judge.
    assertThat(host).startsWith(name + "@");
    assertThat(RunLock.deadHere("rekey a -> b by pid 99999999 on " + name + "@0000:1 since x"))
        .isFalse();
  }
}
