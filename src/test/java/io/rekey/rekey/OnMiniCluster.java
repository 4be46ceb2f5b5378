package io.rekey.rekey;

import io.rekey.hbase.HBaseConnections;
import io.rekey.testing.InJvmFaults;
import io.rekey.testing.MiniHBase;
import io.rekey.testing.RefuseBulkLoads;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What every rekey IT shares: the mini cluster, one connection to it and the settings a job uses
 * ({@link RekeyIT#connection}, {@link RekeyIT#conf}), and no injected fault outliving its test.
 */
@ExtendWith(MiniHBase.class)
abstract class OnMiniCluster {
  @BeforeAll
  static void connect() {
    RekeyIT.connection = HBaseConnections.open(MiniHBase.settings());
    RekeyIT.conf = MiniHBase.settings().toConfiguration();
  }

  @AfterAll
  static void close() throws Exception {
    RekeyIT.connection.close();
  }

  @AfterEach
  void clearFaults() {
    InJvmFaults.clear();
    RefuseBulkLoads.refusals.set(0);
  }
}
