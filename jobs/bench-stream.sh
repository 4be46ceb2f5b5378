#!/usr/bin/env bash
# Stream benchmark: on a clone of one generated table (default 400,000 messages, about 2.06 million
# cells) on the local HBase, whose region server runs the stream's endpoint, each round in one JVM:
#   - starts a stream as 'stream start' does (a disabled peer, the copy, the peer enabled) and
#     records a verify of the copy
#   - runs a write load for BENCH_LOAD_SECONDS (default 30) at BENCH_LOAD_RATE cells/s (default
#     20000; 0: as fast as one client writes) while a probe measures the lag end to end (a cell
#     written to the source, read from the target under its new key)
#   - stops the writers and times 'stream switch' (writers stopped -> "switch"), then on the same
#     tables an incremental sync and 'sync --final --repair' (timed), the timestamp path's switch
# and prints JSON with the medians of the rounds after the first and the pause ratio.
#
#   jobs/bench-stream.sh          # BENCH_ROWS=400000 BENCH_ROUNDS=4 BENCH_LOAD_SECONDS=30
# Results: var/bench/stream-bench.json (stream-bench-N.json for BENCH_ROWS=N, the scale curve's
# larger tables: 2000000 for 10.3 million cells, 4000000 for 20.6 million).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$REKEY_HOME"
rekey_bench_messages
out="$REKEY_VAR/bench/stream-bench.json"
[ "${BENCH_ROWS:-400000}" = 400000 ] || out="$REKEY_VAR/bench/stream-bench-$BENCH_ROWS.json"
rekey_bench_run ${BENCH_LOAD_SECONDS:+-Dbench.loadSeconds="$BENCH_LOAD_SECONDS"} \
  ${BENCH_LOAD_RATE:+-Dbench.loadCellsPerSecond="$BENCH_LOAD_RATE"} \
  io.rekey.bench.StreamBenchmark "$BENCH_TABLE" "$out"
