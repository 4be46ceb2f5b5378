#!/usr/bin/env bash
# Audit benchmark: on one generated table (default 400,000 messages, about 2.06 million cells) on
# the local HBase, times in one run and one JVM:
#   - hbase-rekey's audit (snapshot read, sketches, what-if layouts, findings)
#   - the floor: the same snapshot read that only counts cells
#   - HBase's CellCounter (MapReduce, local job runner, 2 map slots), in rounds after the others
#     (-Dbench.cellCounterRounds, default 2)
# then audits a table twice as big to show the audit's memory stays flat. Prints JSON.
#
#   jobs/bench-audit.sh                    # BENCH_ROWS=400000 BENCH_MASTER=local[2] BENCH_ROUNDS=7
# Results: var/bench/audit-bench.json. The tables bench:messages and bench:messages_2x are kept
# (bench:messages_N and bench:messages_N_2x for BENCH_ROWS=N).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$REKEY_HOME"
ROWS="${BENCH_ROWS:-400000}"
rekey_bench_messages
jobs/hbase-rekey.sh generate --table "${BENCH_TABLE}_2x" --rows $(( ROWS * 2 )) --seed 7 --if-nonempty skip
rekey_bench_run io.rekey.bench.AuditBenchmark "$BENCH_TABLE" "${BENCH_TABLE}_2x" "$REKEY_VAR/bench/audit-bench.json"
