#!/usr/bin/env bash
# Rekey benchmark: on one generated table (default 400,000 messages, about 2.06 million cells) on
# the local HBase, times in one run and one JVM:
#   - hbase-rekey's rekey (snapshot read, HFiles, bulk load; verify off so all three do the same)
#   - a Put-based copy with the same key mapping (Spark foreachPartition + BufferedMutator)
#   - hbase-spark 1.0.1's bulkLoad with the same mapping (it loses cell timestamps)
#   - the read floor (the same snapshot read, counting) and the copy floor (the same read written
#     to HFiles in read order and bulk-loaded into a table of the source's layout: what any copy
#     through HBase's files pays)
# and prints JSON with cells/s, the ratios, peak heap per method and the process's peak RSS.
#
#   jobs/bench-rekey.sh                    # BENCH_ROWS=400000 BENCH_MASTER=local[2] BENCH_ROUNDS=2
# Results: var/bench/rekey-bench.json. The source table bench:messages (bench:messages_N for
# BENCH_ROWS=N) is kept between runs.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$REKEY_HOME"
rekey_bench_messages
rekey_bench_run io.rekey.bench.RekeyBenchmark "$BENCH_TABLE" "$REKEY_VAR/bench/rekey-bench.json"
