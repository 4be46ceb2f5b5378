package io.rekey.common;

/** How much a finding matters, from a note to something that will hurt. */
public enum Severity {
  INFO,
  WARN,
  ERROR
}
