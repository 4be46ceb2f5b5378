#!/usr/bin/env bash
# Micro-benchmarks (JMH) of the hand-written classes the project keeps against the well-kept
# library that could replace them; no HBase needed. Arguments go to JMH: a pattern picks the
# benchmarks, e.g.
#   jobs/bench-micro.sh ByteStreams        # sketch.UnsyncedBytes vs commons-io vs the JDK
# Results: var/bench/micro-bench.json (JMH's JSON) and JMH's table on stdout.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$REKEY_HOME"
rekey_bench_build
mkdir -p "$REKEY_VAR/bench"
# shellcheck disable=SC2046
java -Xmx1g $(rekey_jvm_flags) \
  -cp "$REKEY_TARGET/test-classes:$REKEY_TARGET/classes:$(cat "$REKEY_TARGET/test-classpath.txt")" \
  org.openjdk.jmh.Main -rf json -rff "$REKEY_VAR/bench/micro-bench.json" "${@:-ByteStreams}"
