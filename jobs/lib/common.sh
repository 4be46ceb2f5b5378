# Shared by the scripts in jobs/: where things are, building what is missing, running a job.
# Source it; it defines functions and REKEY_* variables and changes nothing else.

REKEY_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
REKEY_VAR="${REKEY_VAR:-$REKEY_HOME/var}"
REKEY_TARGET="$REKEY_HOME/target"
REKEY_JAR="$REKEY_TARGET/hbase-rekey-0.1.0-SNAPSHOT.jar"
REKEY_MAIN=io.rekey.cli.Main

rekey_say() { printf '%s\n' "$*" >&2; }
rekey_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

rekey_require_java17() {
  command -v java >/dev/null 2>&1 || rekey_die "java is not on the PATH; install JDK 17 (e.g. apt-get install openjdk-17-jdk-headless)"
  local v
  v=$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1)
  [ "$v" = "17" ] || rekey_die "java on the PATH is version ${v:-unknown}; hbase-rekey needs JDK 17 (Hadoop fails on newer ones). Set JAVA_HOME/PATH to a JDK 17"
}

# Builds the application jar when it is missing or older than the sources or the pom.
rekey_ensure_jar() {
  if [ -f "$REKEY_JAR" ] && [ -f "$REKEY_TARGET/runtime-classpath.txt" ] && [ -f "$REKEY_TARGET/jvm-flags.txt" ] \
     && [ -z "$(find "$REKEY_HOME/src/main" "$REKEY_HOME/pom.xml" -newer "$REKEY_JAR" -print -quit 2>/dev/null)" ]; then
    return 0
  fi
  if [ -n "${REKEY_NO_BUILD:-}" ]; then
    [ -f "$REKEY_JAR" ] || rekey_die "$REKEY_JAR is missing and REKEY_NO_BUILD is set; run 'mvn -B package -DskipTests'"
    return 0
  fi
  command -v mvn >/dev/null 2>&1 || rekey_die "mvn is not on the PATH; install Maven 3.8+ to build hbase-rekey"
  rekey_say "building hbase-rekey (mvn package, tests skipped; the first build downloads ~0.7 GB of dependencies)..."
  (cd "$REKEY_HOME" && mvn -B -q -DskipTests package) >&2 || rekey_die "the build failed; run 'mvn -B package -DskipTests' in $REKEY_HOME to see why"
}

# Spark's own runtime classpath (Spark SQL + Hadoop client, nothing of ours), for running
# SparkSubmit when there is no Spark installation.
rekey_spark_classpath() {
  local out="$REKEY_TARGET/spark-runtime-classpath.txt" pom="$REKEY_HOME/jobs/spark-runtime/pom.xml"
  if [ ! -s "$out" ] || [ "$pom" -nt "$out" ]; then
    mkdir -p "$REKEY_TARGET"
    (cd "$REKEY_HOME/jobs/spark-runtime" && mvn -B -q dependency:build-classpath -Dmdep.outputFile="$out") >&2 \
      || rekey_die "cannot resolve Spark's runtime classpath from jobs/spark-runtime/pom.xml"
  fi
  cat "$out"
}

rekey_jvm_flags() { cat "$REKEY_TARGET/jvm-flags.txt"; }

# When no cluster is named, use the local HBase's settings if jobs/hbase-local.sh wrote them.
rekey_default_hbase_conf() {
  if [ -z "${HBASE_CONF_DIR:-}" ] && [ -f "$REKEY_VAR/conf/hbase-site.xml" ]; then
    export HBASE_CONF_DIR="$REKEY_VAR/conf"
  fi
}

# rekey_run_job ARGS...: runs io.rekey.cli.Main with spark-submit when $SPARK_HOME has one,
# otherwise SparkSubmit on Spark's runtime classpath with --master local[*]. Same arguments either way.
rekey_run_job() {
  rekey_ensure_jar
  rekey_default_hbase_conf
  local log4j="-Dlog4j2.configurationFile=file:$REKEY_HOME/conf/log4j2.properties"
  # The whole log, stack traces included, goes to this file; the console gets one line per error.
  local logfile="-Drekey.log.file=${REKEY_LOG_FILE:-$REKEY_HOME/var/log/hbase-rekey.log}"
  local progress=false
  [ -t 2 ] && progress=true
  if [ -n "${SPARK_HOME:-}" ] && [ -x "$SPARK_HOME/bin/spark-submit" ]; then
    rekey_say "running with $SPARK_HOME/bin/spark-submit (master: ${REKEY_MASTER:-as spark-defaults.conf says})"
    local master_args=()
    [ -n "${REKEY_MASTER:-}" ] && master_args=(--master "$REKEY_MASTER")
    exec "$SPARK_HOME/bin/spark-submit" "${master_args[@]}" \
      --class "$REKEY_MAIN" \
      --driver-java-options "$log4j $logfile" \
      --conf spark.ui.showConsoleProgress=$progress \
      "$REKEY_JAR" "$@"
  fi
  rekey_require_java17
  local cp
  cp=$(rekey_spark_classpath)
  # Local mode talks to this machine only; this also silences Spark's hostname warning.
  export SPARK_LOCAL_IP="${SPARK_LOCAL_IP:-127.0.0.1}"
  rekey_say "running with SparkSubmit on the project's Spark runtime (no \$SPARK_HOME), master ${REKEY_MASTER:-local[*]}"
  # shellcheck disable=SC2046
  exec java ${REKEY_DRIVER_OPTS:--Xmx2g} $(rekey_jvm_flags) "$log4j" "$logfile" -cp "$cp" \
    org.apache.spark.deploy.SparkSubmit \
    --master "${REKEY_MASTER:-local[*]}" \
    --class "$REKEY_MAIN" \
    --conf spark.ui.showConsoleProgress=$progress \
    "$REKEY_JAR" "$@"
}

# For the benchmarks: builds the test classes (the benchmarks and their peers live there), starts
# the local HBase, and runs a benchmark main class on the test classpath with the given arguments.
rekey_bench_prepare() {
  rekey_require_java17
  rekey_ensure_jar
  (cd "$REKEY_HOME" && mvn -B -q -DskipTests test-compile && mvn -B -q dependency:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile=target/test-classpath.txt) >&2 \
    || rekey_die "cannot build the benchmark classes"
  "$REKEY_HOME/jobs/hbase-local.sh" start
  mkdir -p "$REKEY_VAR/bench"
}

# For the benchmarks: rekey_bench_prepare, then the generated table bench:messages of
# ${BENCH_ROWS:-400000} messages (kept between runs; generated only when missing or empty).
# Generates the benches' source table unless it is there, and names it in BENCH_TABLE:
# bench:messages for the default 400,000 messages, bench:messages_N for BENCH_ROWS=N (so another
# size gets a table of its own instead of silently reusing one of a different size).
rekey_bench_messages() {
  rekey_bench_prepare
  local rows="${BENCH_ROWS:-400000}"
  BENCH_TABLE=bench:messages
  if [ "$rows" != 400000 ]; then
    BENCH_TABLE="bench:messages_$rows"
  fi
  export BENCH_TABLE
  "$REKEY_HOME/jobs/hbase-rekey.sh" generate --table "$BENCH_TABLE" --rows "$rows" \
    --seed 7 --if-nonempty skip
}

# Runs a benchmark class. BENCH_ROUNDS overrides the class's number of rounds (more rounds give a
# steadier median on a machine that is busy with other work).
rekey_bench_run() {
  export SPARK_LOCAL_IP="${SPARK_LOCAL_IP:-127.0.0.1}"
  export HBASE_CONF_DIR="${HBASE_CONF_DIR:-$REKEY_VAR/conf}"
  # shellcheck disable=SC2046
  # Each measured method starts after a full collection (RekeyBenchmark.measure), after which G1
  # gives most of the heap back to the OS: every method then faulted fresh pages in again (the
  # audit 120,000-140,000 minor faults and 0.35 s of kernel time, against about 1,200 without the
  # forced collection). A long-running Spark JVM keeps its heap: so does the bench's.
  java -Xmx"${BENCH_HEAP:-6g}" -XX:MaxHeapFreeRatio=100 $(rekey_jvm_flags) \
    -Dlog4j2.configurationFile="file:$REKEY_HOME/conf/log4j2.properties" \
    -Dspark.master="${BENCH_MASTER:-local[2]}" -Dspark.ui.enabled=false -Dspark.driver.host=127.0.0.1 \
    ${BENCH_ROUNDS:+-Dbench.rounds="$BENCH_ROUNDS"} \
    -cp "$REKEY_TARGET/test-classes:$REKEY_TARGET/classes:$(cat "$REKEY_TARGET/test-classpath.txt")" "$@"
}
