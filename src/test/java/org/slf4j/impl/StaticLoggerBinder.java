package org.slf4j.impl;

import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * hbase-spark 1.0.1 (the benchmark's peer tool only) was built against slf4j 1.7 and calls this
 * class, which slf4j 2 no longer has; without it its first task fails with NoClassDefFoundError. It
 * only asks for the factory and its class name. Test classpath only: the product never loads
 * hbase-spark.
 */
public final class StaticLoggerBinder {
  private static final StaticLoggerBinder SINGLETON = new StaticLoggerBinder();

  public static StaticLoggerBinder getSingleton() {
    return SINGLETON;
  }

  public ILoggerFactory getLoggerFactory() {
    return LoggerFactory.getILoggerFactory();
  }

  public String getLoggerFactoryClassStr() {
    return LoggerFactory.getILoggerFactory().getClass().getName();
  }
}
