#!/usr/bin/env bash
# Stream throughput benchmark: the rekey stream against HBase's own replication of the same table
# to a same-key table, both shipping to a second local HBase that this script starts (and stops
# again) beside the first, each round draining a backlog of BENCH_BACKLOG messages (default 50,000,
# about 257,000 cells) written while its peer was disabled.
#
#   jobs/bench-stream-throughput.sh      # BENCH_ROUNDS=4 BENCH_BACKLOG=50000
#   BENCH_BOUND_KEY=1 jobs/bench-stream-throughput.sh   # the new key bound to m:sender (a key map)
# Results: var/bench/stream-throughput-bench.json (stream-throughput-bound-bench.json).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$REKEY_HOME"
rekey_bench_prepare
peer_var="$REKEY_VAR/peer-hbase"
peer_env=(REKEY_VAR="$peer_var" REKEY_ZK_PORT="${BENCH_PEER_ZK_PORT:-2182}" REKEY_MASTER_PORT=16100
  REKEY_RS_PORT=16120 REKEY_HBASE_HEAP=1g REKEY_NO_BUILD=1)
env "${peer_env[@]}" "$REKEY_HOME/jobs/hbase-local.sh" start >&2
trap 'env "${peer_env[@]}" "$REKEY_HOME/jobs/hbase-local.sh" stop >&2' EXIT
out="$REKEY_VAR/bench/stream-throughput-bench.json"
[ -z "${BENCH_BOUND_KEY:-}" ] || out="$REKEY_VAR/bench/stream-throughput-bound-bench.json"
rekey_bench_run -Dbench.peerZk="127.0.0.1:${BENCH_PEER_ZK_PORT:-2182}" \
  ${BENCH_BACKLOG:+-Dbench.backlogMessages="$BENCH_BACKLOG"} \
  ${BENCH_BOUND_KEY:+-Dbench.boundKey=true} \
  io.rekey.bench.StreamThroughputBenchmark "$out"
