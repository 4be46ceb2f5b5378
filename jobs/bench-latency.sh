#!/usr/bin/env bash
# Foreground-latency benchmark: what the tool's jobs do to the cluster's own users. A client serves
# a steady mix of Gets and Puts (default 200 operations/s, 20% Puts) on a table of its own on the
# local HBase throughout, and its latencies are labelled with what the tool was doing: idle, a rekey
# (its Spark stages, and the driver's snapshot, commit and bulk load), a rekey sync with Puts, an
# index update with Puts, an audit by live scan, each job with its defaults and with --gentle, and
# the rekey stream draining a backlog of BENCH_STREAM_BACKLOG messages (default 100,000), at full
# speed and with its peer's bandwidth at BENCH_STREAM_BANDWIDTH bytes/s (default 4 MB, like
# 'stream start --bandwidth'). Prints
# JSON: each label's p50/p99/max and p99 over idle p99, each job's seconds and busy cores, medians
# over the rounds after the first, and the per-second timeline; and a page (latency-bench.html).
#
#   jobs/bench-latency.sh     # BENCH_ROWS=200000 BENCH_ROUNDS=3 BENCH_FOREGROUND_RATE=200 BENCH_IDLE_SECONDS=60
# Results: var/bench/latency-bench.json.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$REKEY_HOME"
BENCH_ROWS="${BENCH_ROWS:-200000}"
rekey_bench_messages
rekey_bench_run ${BENCH_FOREGROUND_RATE:+-Dbench.foregroundRate="$BENCH_FOREGROUND_RATE"} \
  ${BENCH_IDLE_SECONDS:+-Dbench.idleSeconds="$BENCH_IDLE_SECONDS"} \
  ${BENCH_STREAM_BACKLOG:+-Dbench.streamBacklog="$BENCH_STREAM_BACKLOG"} \
  ${BENCH_STREAM_BANDWIDTH:+-Dbench.streamBandwidth="$BENCH_STREAM_BANDWIDTH"} \
  io.rekey.bench.LatencyBenchmark "$BENCH_TABLE" "$REKEY_VAR/bench/latency-bench.json"
