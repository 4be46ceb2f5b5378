package io.rekey.describe;

import io.rekey.common.Finding;
import io.rekey.common.JsonResult;
import io.rekey.schema.TableDescription;
import java.util.List;

/**
 * What {@code describe} found: the table as HBase reports it and the design checks that fired.
 *
 * @param table families and regions
 * @param findings most severe first
 */
public record DescribeResult(TableDescription table, List<Finding> findings) implements JsonResult {
  public DescribeResult {
    findings = List.copyOf(findings);
  }
}
