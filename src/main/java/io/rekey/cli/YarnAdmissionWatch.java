package io.rekey.cli;

import io.rekey.common.RekeyException;
import io.rekey.spark.YarnAdmission;
import java.util.Map;
import java.util.Optional;

/**
 * The launcher's watch over a YARN cluster-mode submission ({@code jobs/lib/common.sh}), where
 * spark-submit's own client waits for the application and the driver is not yet running: {@code
 * YarnAdmissionWatch TAG TIMEOUT} follows the application tagged {@code TAG} until it runs or ends
 * ({@link YarnAdmission}), or until the launcher stops it when spark-submit returns, and prints why
 * it did not run, if it did not, as one line on standard output.
 */
public final class YarnAdmissionWatch {
  private YarnAdmissionWatch() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: YarnAdmissionWatch TAG TIMEOUT");
      System.exit(2);
    }
    Optional<String> reason;
    try {
      reason =
          new YarnAdmission(YarnAdmission.hadoopConf(Map.of()), args[0], args[1]).await(() -> true);
    } catch (RekeyException e) {
      reason = Optional.of(e.getMessage());
    }
    reason.ifPresent(System.out::println);
  }
}
