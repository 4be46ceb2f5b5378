#!/usr/bin/env bash
# Index benchmark: on one generated table (default 400,000 messages, about 2.06 million cells) on
# the local HBase, times in one run and one JVM:
#   - hbase-rekey's index build (snapshot read, HFiles, bulk load) of m:sender -> message
#   - a Put-based builder making the same entries (Spark foreachPartition + BufferedMutator) into
#     a table with the same regions
#   - after 1% new messages, an incremental index update, against the full build
# and prints JSON with cells/s, the ratios, peak heap per method and the process's peak RSS.
#
#   jobs/bench-index.sh                    # BENCH_ROWS=400000 BENCH_MASTER=local[2] BENCH_ROUNDS=2
# Results: var/bench/index-bench.json. The source table bench:messages is kept between runs.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$REKEY_HOME"
rekey_bench_messages
rekey_bench_run io.rekey.bench.IndexBenchmark bench:messages "$REKEY_VAR/bench/index-bench.json"
