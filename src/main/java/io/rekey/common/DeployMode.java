package io.rekey.common;

import java.util.Properties;

/** Where this JVM runs as a Spark driver, as far as the tool must know. */
public final class DeployMode {
  private DeployMode() {}

  /**
   * Whether this JVM is a YARN cluster-mode driver, inside the ApplicationMaster's container on
   * some NodeManager (which sets Spark's properties as system properties before it calls {@code
   * main}): files named on spark-submit's host are not here unless shipped.
   */
  public static boolean yarnClusterDriver(Properties system) {
    return "yarn".equals(system.getProperty("spark.master"))
        && "cluster".equals(system.getProperty("spark.submit.deployMode"));
  }
}
