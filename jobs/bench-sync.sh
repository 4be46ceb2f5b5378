#!/usr/bin/env bash
# Live-migration benchmark: on a clone of one generated table (default 400,000 messages, about
# 2.06 million cells) on the local HBase, each round times in one JVM:
#   - a full rekey of the table (snapshot read, HFiles, bulk load; no verify)
#   - a rekey sync of about 1% new data written after it (new messages, whole-row deletes)
#   - after about 1% of the rows got a cell stamped a day ago (which no window sees): a verify and a
#     rekey repair of the same tables (no verify after it), and a repair of the equal tables after
# and prints JSON with the medians of the rounds after the first, the ratios sync / rekey and
# repair / verify, the rows the sync read, the rows the region servers looked at for its window,
# and the rows and cells each repair wrote.
#
#   jobs/bench-sync.sh            # BENCH_ROWS=400000 BENCH_ROUNDS=4 BENCH_SYNC_PERCENT=1
# Results: var/bench/sync-bench.json.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$REKEY_HOME"
rekey_bench_messages
rekey_bench_run ${BENCH_SYNC_PERCENT:+-Dbench.syncPercent="$BENCH_SYNC_PERCENT"} \
  io.rekey.bench.SyncBenchmark "$BENCH_TABLE" "$REKEY_VAR/bench/sync-bench.json"
