#!/usr/bin/env bash
# Rekey benchmark: on one generated table (default 400,000 messages, about 2.06 million cells) on
# the local HBase, times in one run and one JVM:
#   - hbase-rekey's rekey (snapshot read, HFiles, bulk load; verify off so all three do the same)
#   - a Put-based copy with the same key mapping (Spark foreachPartition + BufferedMutator)
#   - hbase-spark 1.0.1's bulkLoad with the same mapping (it loses cell timestamps)
# and prints JSON with cells/s, the ratios, peak heap per method and the process's peak RSS.
#
#   jobs/bench-rekey.sh                    # BENCH_ROWS=400000 BENCH_MASTER=local[2]
# Results: var/bench/rekey-bench.json. The source table bench:messages is kept between runs.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$REKEY_HOME"
ROWS="${BENCH_ROWS:-400000}"
rekey_require_java17
rekey_ensure_jar
(mvn -B -q -DskipTests test-compile && mvn -B -q dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile=target/test-classpath.txt) >&2 || rekey_die "cannot build the benchmark classes"
jobs/hbase-local.sh start
jobs/hbase-rekey.sh generate --table bench:messages --rows "$ROWS" --seed 7 --if-nonempty skip
export SPARK_LOCAL_IP="${SPARK_LOCAL_IP:-127.0.0.1}"
export HBASE_CONF_DIR="${HBASE_CONF_DIR:-$REKEY_VAR/conf}"
mkdir -p "$REKEY_VAR/bench"
# shellcheck disable=SC2046
java -Xmx"${BENCH_HEAP:-6g}" $(rekey_jvm_flags) \
  -Dlog4j2.configurationFile="file:$REKEY_HOME/conf/log4j2.properties" \
  -Dspark.master="${BENCH_MASTER:-local[2]}" -Dspark.ui.enabled=false -Dspark.driver.host=127.0.0.1 \
  -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" \
  io.rekey.bench.RekeyBenchmark bench:messages "$REKEY_VAR/bench/rekey-bench.json"
