package io.rekey.audit;

/** Audit results with a known shape, for report tests outside this package. */
public final class AuditResultsForTests {
  private AuditResultsForTests() {}

  /** 20,000 time-first rows in one region, analyzed with their source key. */
  public static AuditResult timeFirst() {
    String source = "text: ts:long + '_' + user";
    return AuditAnalysisTest.analyze(Synthetic.timeFirst(20_000, source), source, 1);
  }
}
