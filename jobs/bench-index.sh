#!/usr/bin/env bash
# Index benchmark: on one generated table (default 2,000,000 messages, about 10.3 million cells:
# bench:messages_2000000) on the local HBase, times in one run and one JVM:
#   - hbase-rekey's index build (snapshot read, HFiles, bulk load) of m:sender -> message
#   - a Put-based builder making the same entries (Spark foreachPartition + BufferedMutator) into
#     a table with the same regions
#   - after 1% new messages, an incremental index update, against the full build
# and prints JSON with cells/s, the ratios, peak heap per method and the process's peak RSS.
#
# Why 2,000,000 messages and not the other benches' 400,000: a build has about 0.8 s of costs that
# do not grow with the table (the snapshot, planning and creating the index table, the Spark job's
# start, the bulk load). On 2 cores they are a third of a 2-million-cell build and hide what the
# build costs per cell; BENCH_ROWS=400000 runs it on bench:messages (src/site/markdown/benchmarks.md).
#
#   jobs/bench-index.sh                    # BENCH_ROWS=2000000 BENCH_MASTER=local[2] BENCH_ROUNDS=2
# Results: var/bench/index-bench.json. The source table bench:messages_N (bench:messages for
# BENCH_ROWS=400000) is kept between runs.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$REKEY_HOME"
export BENCH_ROWS="${BENCH_ROWS:-2000000}"
rekey_bench_messages
rekey_bench_run io.rekey.bench.IndexBenchmark "$BENCH_TABLE" "$REKEY_VAR/bench/index-bench.json"
