#!/usr/bin/env bash
# Every benchmark in one run, one JSON and one self-contained HTML page with charts, on the local
# HBase (or the cluster HBASE_CONF_DIR names), on a quiet host:
#   1. rekey against an equal Put copy, equal hbase-spark and the read floor   (2M cells)
#   2. index build against an equal Put builder and the read floor, then an update  (2M cells)
#   3. audit against the read floor and CellCounter                            (2M cells)
#   then where each of the three spends its executor time (Java Flight Recorder samples by step)
#   4. the scale curve: rekey, index build, Put builder, audit and floor at 2M, 10M and 20M cells
#   5. wide and big: one row of 1,000,000 qualifiers and 20 MB cells, rekeyed, audited and indexed
#      in a JVM with spark-submit's default driver memory (1g)
# The tables are generated once (seed 7) and kept: the first run spends about 10 minutes on them.
# Then checks that the page renders in headless chromium (jobs/check-report.sh).
#
#   jobs/bench-all.sh              # BENCH_ROUNDS (default: 5 for 1-2, 9 for 3, 3 for the curve)
#   BENCH_SIZES="400000 2000000" jobs/bench-all.sh     # messages per scale-curve table (5.15 cells each)
# Results: var/bench/{rekey,index,audit,profile,scale,wide}-bench.json, var/bench/bench-all.{json,html,png}.
# Takes about 25 minutes here (2 cores) once the tables exist.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$REKEY_HOME"
rekey_bench_prepare
out="$REKEY_VAR/bench"
sizes=(${BENCH_SIZES:-400000 2000000 4000000})
tables=()
for rows in "${sizes[@]}"; do
  table=bench:messages_$rows
  [ "$rows" = 400000 ] && table=bench:messages
  jobs/hbase-rekey.sh generate --table "$table" --rows "$rows" --seed 7 --if-nonempty skip >&2
  tables+=("$table")
done
small="${tables[0]}"
big="${tables[${#tables[@]}-1]}"
started=$(date +%s)
step() { echo "bench-all: $1 ($(( $(date +%s) - started )) s in)" >&2; }
step "rekey against its peers on $small"
rekey_bench_run io.rekey.bench.RekeyBenchmark "$small" "$out/rekey-bench.json" >/dev/null
step "index build against its peer on $small"
rekey_bench_run io.rekey.bench.IndexBenchmark "$small" "$out/index-bench.json" >/dev/null
step "audit against the floor on $small"
BENCH_ROUNDS="${BENCH_ROUNDS:-9}" rekey_bench_run io.rekey.bench.AuditBenchmark "$small" "$big" "$out/audit-bench.json" >/dev/null
step "profiles of rekey, index build and audit on $small"
BENCH_ROUNDS=3 rekey_bench_run io.rekey.bench.ProfileBenchmark "$small" "$out/profile-bench.json" >/dev/null
step "the scale curve on ${tables[*]}"
BENCH_ROUNDS="${BENCH_ROUNDS:-3}" rekey_bench_run io.rekey.bench.ScaleBenchmark "$out/scale-bench.json" "${tables[@]}" >/dev/null
step "wide and big at the default driver memory"
BENCH_HEAP="${BENCH_WIDE_HEAP:-1g}" BENCH_ROUNDS=1 rekey_bench_run io.rekey.bench.WideBenchmark "$out/wide-bench.json" >/dev/null
step "one report"
rekey_bench_run io.rekey.bench.BenchReport "$out"
jobs/check-report.sh "$out/bench-all.html"
step "done"
