package io.rekey.hbase;

import io.rekey.common.RekeyException;
import io.rekey.options.InvalidOptionException;
import io.rekey.options.SharedOptions;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;

/**
 * What a job's decisions read of HBase, and nothing more: tables' descriptors, namespaces, region
 * boundaries and a few rows. The seam between deciding and doing: a planner given a view is a pure
 * call, so the real one ({@link TableAdmin}, over a connection) runs the jobs and an in-memory one
 * runs the planners' unit tests with no cluster.
 */
public interface ClusterView {
  /** The table's descriptor, or empty when the cluster has no such table. */
  Optional<TableDescriptor> findTable(TableName table);

  /** Whether the table exists. */
  default boolean exists(TableName table) {
    return findTable(table).isPresent();
  }

  /** Whether the namespace exists. */
  boolean namespaceExists(String namespace);

  /** The start keys of the table's regions, in key order; the first is empty. */
  List<byte[]> regionStartKeys(TableName table);

  /** The table's first {@code limit} rows, in key order, every column. */
  List<Result> firstRows(TableName table, int limit);

  /**
   * About {@code n} rows of the table chosen at random, read by {@code scan} (its columns and
   * filter); all of them when the table has no more than {@code n}.
   */
  List<Result> sampleRows(TableName table, Scan scan, int n);

  /** The table's descriptor; a missing table is a {@link RekeyException} naming {@code role}. */
  default TableDescriptor descriptor(TableName table, String role) {
    return findTable(table)
        .orElseThrow(
            () ->
                new RekeyException(
                    "the "
                        + role
                        + " table "
                        + table.getNameAsString()
                        + " does not exist on this cluster"));
  }

  /**
   * Refuses a table to be created in a namespace that does not exist, unless the user asked for the
   * namespace to be created: a typo must not make a new namespace.
   *
   * @param option the option that names the table, for the message
   */
  default void requireNamespace(TableName table, String option, boolean create) {
    String ns = table.getNamespaceAsString();
    if (!create && !namespaceExists(ns)) {
      throw InvalidOptionException.of(
          option,
          table.getNameAsString(),
          "is in namespace '"
              + ns
              + "', which does not exist; check the name, create it ('create_namespace \""
              + ns
              + "\"' in the HBase shell) or pass --"
              + SharedOptions.CREATE_NAMESPACE.name());
    }
  }
}
