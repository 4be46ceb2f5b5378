# Shared by the scripts in jobs/: where things are, building what is missing, running a job.
# Source it; it defines functions and REKEY_* variables and changes nothing else.

REKEY_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
REKEY_VAR="${REKEY_VAR:-$REKEY_HOME/var}"
# The support-matrix cell (README "Support matrix"): the default one builds in target/ with no
# profile; another is the Maven profile of its name and builds in target/CELL.
REKEY_DEFAULT_CELL=spark3.5_2.12-hbase2.5
REKEY_CELL="${REKEY_CELL:-$REKEY_DEFAULT_CELL}"
if [ "$REKEY_CELL" = "$REKEY_DEFAULT_CELL" ]; then
  REKEY_TARGET="$REKEY_HOME/target"; REKEY_MVN_CELL=()
elif grep -q "<id>$REKEY_CELL</id>" "$REKEY_HOME/pom.xml" && [ "${REKEY_CELL#spark}" != "$REKEY_CELL" ]; then
  REKEY_TARGET="$REKEY_HOME/target/$REKEY_CELL"; REKEY_MVN_CELL=(-P"$REKEY_CELL")
else
  printf 'error: REKEY_CELL=%s is not a cell of the support matrix; use %s (the default) or one of: %s\n' \
    "$REKEY_CELL" "$REKEY_DEFAULT_CELL" "$(sed -n 's|.*<id>\(spark[^<]*\)</id>.*|\1|p' "$REKEY_HOME/pom.xml" | tr '\n' ' ')" >&2
  exit 2
fi
REKEY_JAR="$REKEY_TARGET/hbase-rekey-0.1.0-SNAPSHOT-$REKEY_CELL.jar"
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
     && [ -f "$REKEY_TARGET/cell.properties" ] \
     && [ -z "$(find "$REKEY_HOME/src/main" "$REKEY_HOME/pom.xml" -newer "$REKEY_JAR" -print -quit 2>/dev/null)" ]; then
    return 0
  fi
  if [ -n "${REKEY_NO_BUILD:-}" ]; then
    [ -f "$REKEY_JAR" ] || rekey_die "$REKEY_JAR is missing and REKEY_NO_BUILD is set; run 'mvn -B package -DskipTests'"
    return 0
  fi
  command -v mvn >/dev/null 2>&1 || rekey_die "mvn is not on the PATH; install Maven 3.8+ to build hbase-rekey"
  rekey_say "building hbase-rekey (mvn package, tests skipped; the first build downloads ~0.7 GB of dependencies)..."
  (cd "$REKEY_HOME" && mvn -B -q -DskipTests "${REKEY_MVN_CELL[@]}" package) >&2 \
    || rekey_die "the build failed; run 'mvn -B package -DskipTests ${REKEY_MVN_CELL[*]}' in $REKEY_HOME to see why"
}

# rekey_resolved_classpath NAME: the classpath of jobs/NAME/pom.xml at the cell's versions (the
# build's cell.properties), resolved by Maven once and kept in the cell's target directory until
# the pom or the cell changes.
rekey_resolved_classpath() {
  local out="$REKEY_TARGET/$1-classpath.txt" pom="$REKEY_HOME/jobs/$1/pom.xml"
  local cell="$REKEY_TARGET/cell.properties"
  [ -f "$cell" ] || rekey_ensure_jar
  if [ ! -s "$out" ] || [ "$pom" -nt "$out" ] || [ "$cell" -nt "$out" ]; then
    local versions=()
    mapfile -t versions < <(sed -n 's/^\([a-z0-9.]*\)=\(.*\)$/-D\1=\2/p' "$cell")
    (cd "$REKEY_HOME/jobs/$1" && mvn -B -q -Dstyle.color=never dependency:build-classpath "${versions[@]}" -Dmdep.outputFile="$out") >&2 \
      || rekey_die "cannot resolve the classpath of jobs/$1/pom.xml"
    # The plugin leaves an unchanged file as it was: mark it fresh, or every run resolves again.
    touch "$out"
  fi
  cat "$out"
}

# rekey_cell_version NAME: a version of the cell's build (target/.../cell.properties), e.g.
# scala.binary.version.
rekey_cell_version() {
  [ -f "$REKEY_TARGET/cell.properties" ] || rekey_ensure_jar
  sed -n "s/^$1=//p" "$REKEY_TARGET/cell.properties"
}

# Spark's own runtime classpath (Spark SQL + Hadoop client, nothing of ours), for running
# SparkSubmit when there is no Spark installation.
rekey_spark_classpath() { rekey_resolved_classpath spark-runtime; }

rekey_jvm_flags() { cat "$REKEY_TARGET/jvm-flags.txt"; }

# The JVM settings of the scripts' own helpers (readiness probes, admin requests, the KDC, the YARN
# admission watch): each lives seconds and does little, so C2's compiling and G1's threads would
# cost more CPU than they save.
REKEY_HELPER_JVM="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"

# The heap layout of HBase's own JVMs (the local HBase; the pseudo-cluster's master and region
# server). A memstore stores cells in 2 MB chunks (MSLAB). On a heap of a few GB, G1 picks 1 MB
# regions, so each chunk is a humongous object over three regions: the memstore HBase counts at 40%
# of the heap filled 60%, and with the block cache's 40% a heavy write load ran the heap out (an
# unpaced stream bench, 311 chunks in 933 MB beside 786 MB of cached blocks). In 8 MB regions a
# chunk is an ordinary object (HBASE-27805 describes the same waste at 4 MB).
REKEY_HBASE_JVM="-XX:G1HeapRegionSize=8m"

# Extra JVM options for the daemons jobs/cluster-local.sh and jobs/hbase-local.sh start
# ($REKEY_DAEMON_OPTS; the tests give C1 alone to their short-lived clusters).
rekey_daemon_opts() { printf '%s' "${REKEY_DAEMON_OPTS:-}"; }

# When no cluster is named, use the local HBase's settings if jobs/hbase-local.sh wrote them.
rekey_default_hbase_conf() {
  if [ -z "${HBASE_CONF_DIR:-}" ] && [ -f "$REKEY_VAR/conf/hbase-site.xml" ]; then
    export HBASE_CONF_DIR="$REKEY_VAR/conf"
  fi
}

# Splits a command line into spark-submit's options (everything before the command word, after
# those in $REKEY_SPARK_OPTS) and the command with its own options: REKEY_SPARK_ARGS and
# REKEY_COMMAND_ARGS.
rekey_split_args() {
  REKEY_SPARK_ARGS=()
  if [ -n "${REKEY_SPARK_OPTS:-}" ]; then
    # shellcheck disable=SC2206
    REKEY_SPARK_ARGS=(${REKEY_SPARK_OPTS})
  fi
  [ -n "${REKEY_MASTER:-}" ] && REKEY_SPARK_ARGS=(--master "$REKEY_MASTER" "${REKEY_SPARK_ARGS[@]}")
  while (($#)); do
    case "$1" in
      --help | -h | help | --version | version) break ;;
      --verbose | -v | --supervise) REKEY_SPARK_ARGS+=("$1"); shift ;;
      --*=*) REKEY_SPARK_ARGS+=("${1%%=*}" "${1#*=}"); shift ;;
      -*)
        [ $# -ge 2 ] || rekey_die "the spark-submit option $1 needs a value (options before the command go to spark-submit; see jobs/hbase-rekey.sh --help)"
        REKEY_SPARK_ARGS+=("$1" "$2"); shift 2 ;;
      *) break ;;
    esac
  done
  REKEY_COMMAND_ARGS=("$@")
}

# rekey_spark_setting KEY [FLAG]: what the user set for a Spark property: the last --conf KEY=V
# (or FLAG V) among REKEY_SPARK_ARGS, else the properties file spark-submit reads.
rekey_spark_setting() {
  local key="$1" flag="${2:-}" value="" found="" i props="" args=("${REKEY_SPARK_ARGS[@]}")
  for ((i = 0; i + 1 < ${#args[@]}; i++)); do
    if [[ "${args[i]}" == --conf || "${args[i]}" == -c ]] && [[ "${args[i+1]}" == "$key="* ]]; then
      value="${args[i+1]#"$key="}"; found=1
    elif [ -n "$flag" ] && [ "${args[i]}" = "$flag" ]; then
      value="${args[i+1]}"; found=1
    elif [ "${args[i]}" = --properties-file ]; then
      props="${args[i+1]}"
    fi
  done
  if [ -z "$found" ]; then
    [ -z "$props" ] && [ -n "${SPARK_HOME:-}" ] && props="${SPARK_CONF_DIR:-$SPARK_HOME/conf}/spark-defaults.conf"
    if [ -n "$props" ] && [ -f "$props" ]; then
      value=$(sed -n "s/^[[:space:]]*${key//./\\.}[[:space:]=][[:space:]]*//p" "$props" | tail -n 1)
    fi
  fi
  printf '%s' "$value"
}

# "A B": the two joined by SEP, either of them possibly empty.
rekey_join() { local sep="$1" a="$2" b="$3"; printf '%s' "${a}${a:+${b:+$sep}}${b}"; }

# rekey_run_job [SPARK-SUBMIT OPTIONS] COMMAND [OPTIONS]: runs io.rekey.cli.Main with
# $SPARK_HOME/bin/spark-submit when there is one, otherwise Spark's SparkSubmit on the project's
# Spark runtime (master local[*] unless given). Options before the command word, and those in
# $REKEY_SPARK_OPTS, go to spark-submit as they are. Added to them, never replacing the user's:
# the JDK 17 flags and log settings in the driver's and executors' default Java options, and the
# executors' log settings in --files.
rekey_run_job() {
  rekey_ensure_jar
  rekey_default_hbase_conf
  rekey_split_args "$@"
  set -- "${REKEY_COMMAND_ARGS[@]}"
  local flags log4j logfile progress=false
  flags=$(rekey_jvm_flags)
  log4j="-Dlog4j2.configurationFile=file:$REKEY_HOME/conf/log4j2.properties"
  # The whole log, stack traces included, goes to this file; the console gets one line per error.
  logfile="-Drekey.log.file=${REKEY_LOG_FILE:-$REKEY_HOME/var/log/hbase-rekey.log}"
  [ -t 2 ] && progress=true
  # Spark puts spark.*.defaultJavaOptions before spark.*.extraJavaOptions (and
  # --driver-java-options): ours go there, after whatever the user or spark-defaults.conf put
  # there, so the user's own options stay and win where they differ.
  local driver_opts executor_opts files
  driver_opts=$(rekey_join ' ' "$(rekey_spark_setting spark.driver.defaultJavaOptions)" "$flags $log4j $logfile")
  executor_opts=$(rekey_join ' ' "$(rekey_spark_setting spark.executor.defaultJavaOptions)" "$flags")
  files=$(rekey_join ',' "$(rekey_spark_setting spark.files --files)" "$REKEY_HOME/conf/log4j2-executor.properties")
  local added=(
    --conf "spark.driver.defaultJavaOptions=$driver_opts"
    --conf "spark.executor.defaultJavaOptions=$executor_opts"
    --files "$files"
  )
  # A user's progress setting wins.
  [ -z "$(rekey_spark_setting spark.ui.showConsoleProgress)" ] && added+=(--conf "spark.ui.showConsoleProgress=$progress")
  rekey_yarn_settings "$@"
  if [ -n "${SPARK_HOME:-}" ] && [ -x "$SPARK_HOME/bin/spark-submit" ]; then
    rekey_say "running with $SPARK_HOME/bin/spark-submit"
    rekey_submit "$SPARK_HOME/bin/spark-submit" "${REKEY_SPARK_ARGS[@]}" "${added[@]}" \
      --class "$REKEY_MAIN" "$REKEY_JAR" "$@"
  fi
  rekey_require_java17
  local cp master
  cp=$(rekey_spark_classpath)
  # As spark-submit's launcher does: the Hadoop and YARN settings on the classpath (where the
  # ResourceManager and HDFS are).
  [ -n "${YARN_CONF_DIR:-}" ] && cp="$YARN_CONF_DIR:$cp"
  [ -n "${HADOOP_CONF_DIR:-}" ] && cp="$HADOOP_CONF_DIR:$cp"
  master=$(rekey_spark_setting spark.master --master)
  [ -z "$master" ] && added+=(--master "local[*]")
  # Local mode talks to this machine only; this also silences Spark's hostname warning.
  [[ "${master:-local}" == local* ]] && export SPARK_LOCAL_IP="${SPARK_LOCAL_IP:-127.0.0.1}"
  # Here this JVM is the driver (client mode): give it what spark-submit's launcher would.
  local memory
  memory=$(rekey_spark_setting spark.driver.memory --driver-memory)
  rekey_say "running with SparkSubmit on the project's Spark runtime (no \$SPARK_HOME), master ${master:-local[*]}"
  # shellcheck disable=SC2046
  rekey_submit java -Xmx"${memory:-2g}" $(rekey_spark_setting spark.driver.defaultJavaOptions) $flags "$log4j" "$logfile" \
    $(rekey_spark_setting spark.driver.extraJavaOptions --driver-java-options) -cp "$cp" \
    org.apache.spark.deploy.SparkSubmit "${REKEY_SPARK_ARGS[@]}" "${added[@]}" \
    --class "$REKEY_MAIN" "$REKEY_JAR" "$@"
}

# rekey_yarn_settings COMMAND...: on YARN, what the launcher adds to REKEY_SPARK_ARGS' "added"
# array (the caller's): never what the user set.
# - Cluster mode: the driver runs in the ApplicationMaster's container, so its log settings are
#   shipped (--files) and its log file goes to the container's log directory (conf/log4j2.properties
#   falls back to spark.yarn.app.container.log.dir); one attempt (a
#   finished command that failed must not run again: the tool decides what a rerun does); the
#   application named by the command, as spark-submit names it before the tool reads its options.
# - Without $SPARK_HOME, spark.yarn.jars and spark.yarn.archive, Spark's jars are uploaded with
#   each submission (said once; jobs/cluster-local.sh keeps them on HDFS).
rekey_yarn_settings() {
  [ "$(rekey_spark_setting spark.master --master)" = yarn ] || return 0
  local wait_bound
  wait_bound=$(rekey_spark_setting spark.rekey.yarn.admissionTimeout)
  [[ -z "$wait_bound" || "$wait_bound" =~ ^[0-9]+(us|ms|s|m|min|h|d)?$ ]] \
    || rekey_die "--conf spark.rekey.yarn.admissionTimeout is '$wait_bound', which is not a time; give one like 90s or 15min (0 waits forever)"
  if [ -z "${SPARK_HOME:-}" ] && [ "$(rekey_cell_version spark.yarn.served)" = false ]; then
    rekey_die "--master yarn: cell $REKEY_CELL runs Spark $(rekey_cell_version spark.version), whose spark-yarn module Maven does not serve, so the launcher has no YARN client for it; set SPARK_HOME to a Spark $(rekey_cell_version spark.version) distribution built with YARN, or use the default cell ($REKEY_DEFAULT_CELL)"
  fi
  if [ "$(rekey_spark_setting spark.submit.deployMode --deploy-mode)" = cluster ]; then
    local files words=()
    files=$(rekey_spark_setting spark.files --files)
    files=$(rekey_join ',' "$files" "$REKEY_HOME/conf/log4j2-executor.properties,$REKEY_HOME/conf/log4j2.properties")
    # The last --files wins: replace the launcher's own.
    added+=(--files "$files")
    driver_opts=$(rekey_join ' ' "$(rekey_spark_setting spark.driver.defaultJavaOptions)" \
      "$flags -Dlog4j2.configurationFile=log4j2.properties")
    added+=(--conf "spark.driver.defaultJavaOptions=$driver_opts")
    [ -z "$(rekey_spark_setting spark.yarn.maxAppAttempts)" ] && added+=(--conf spark.yarn.maxAppAttempts=1)
    REKEY_YARN_TAG="hbase-rekey-$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"
    added+=(--conf "spark.yarn.tags=$(rekey_join ',' "$(rekey_spark_setting spark.yarn.tags)" "$REKEY_YARN_TAG")")
    if [ -z "$(rekey_spark_setting spark.app.name --name)" ]; then
      for w in "$@"; do [[ "$w" == -* ]] && break; words+=("$w"); done
      added+=(--name "hbase-rekey ${words[*]}")
    fi
  fi
  if [ -z "${SPARK_HOME:-}" ] && [ -z "$(rekey_spark_setting spark.yarn.jars)" ] \
    && [ -z "$(rekey_spark_setting spark.yarn.archive)" ]; then
    local cp
    cp=$(rekey_spark_classpath)
    rekey_say "spark.yarn.jars is not set: Spark's jars (about 220 MB) are uploaded with this submission; put them on HDFS once and set it (see deploy/README.md)"
    added+=(--conf "spark.yarn.jars=${cp//:/,}")
  fi
}

# rekey_submit SPARK-SUBMIT...: runs spark-submit in place of this shell. In YARN cluster mode
# (REKEY_YARN_TAG set) it runs beside a watch that bounds the wait for YARN to start the
# application (spark.rekey.yarn.admissionTimeout, io.rekey.cli.YarnAdmissionWatch), keeps
# spark-submit's stack traces in the log file, and on failure ends with one line: why YARN did not
# run the application, else the tool's own line from the application's diagnostics (and its exit
# code, 2 to 4, as in client mode), else spark-submit's exception.
rekey_submit() {
  [ -n "${REKEY_YARN_TAG:-}" ] || exec "$@"
  local cp reason summary watch rc=0 i line log="${REKEY_LOG_FILE:-$REKEY_HOME/var/log/hbase-rekey.log}"
  cp="$REKEY_JAR:$(rekey_spark_classpath)"
  [ -n "${SPARK_HOME:-}" ] && cp="$REKEY_JAR:$SPARK_HOME/jars/*"
  [ -n "${YARN_CONF_DIR:-}" ] && cp="$YARN_CONF_DIR:$cp"
  [ -n "${HADOOP_CONF_DIR:-}" ] && cp="$HADOOP_CONF_DIR:$cp"
  reason=$(mktemp) summary=$(mktemp)
  mkdir -p "$(dirname "$log")"
  java -Xmx256m $REKEY_HELPER_JVM -Dlog4j2.configurationFile="file:$REKEY_HOME/conf/log4j2.properties" \
    -Drekey.log.file="$log" -cp "$cp" \
    io.rekey.cli.YarnAdmissionWatch "$REKEY_YARN_TAG" "$(rekey_spark_setting spark.rekey.yarn.admissionTimeout)" \
    > "$reason" 2>/dev/null &
  watch=$!
  "$@" 2>&1 1>&3 3>&- | awk -v logfile="$log" -v summary="$summary" '
    /^\t(at |\.\.\. [0-9]+ more)|^Caused by: / { print >> logfile; traced = 1; next }
    /CommandFailed: error: / && tool == "" { tool = substr($0, index($0, "CommandFailed: error: ") + 22) }
    /^Exception in thread / { print >> logfile; failure = $0; sub(/^Exception in thread "[^"]*" [^ :]*: /, "", failure); next }
    { print; fflush() }
    END {
      if (traced) printf "(the stack trace is in %s)\n", logfile
      if (tool != "") print tool > summary; else if (failure != "") print "spark-submit: " failure > summary
    }' >&2 3>&- \
    || rc=${PIPESTATUS[0]}
  # The watch sees how the application ended within a poll or two; it stops by itself once the
  # application runs.
  for i in 1 2 3 4 5; do kill -0 "$watch" 2>/dev/null || break; sleep 1; done
  kill "$watch" 2>/dev/null || true
  wait "$watch" 2>/dev/null || true
  if [ "$rc" -ne 0 ]; then
    line=$(head -n 1 "$reason")
    [ -z "$line" ] && line=$(head -n 1 "$summary")
    if [[ "$line" =~ ^(.*)\ \(hbase-rekey\ exit\ code\ ([0-9]+)\)$ ]]; then
      line="${BASH_REMATCH[1]}" rc="${BASH_REMATCH[2]}"
    fi
    [ -n "$line" ] && printf 'error: %s\n' "$line" >&2
  fi
  rm -f "$reason" "$summary"
  exit "$rc"
} 3>&1

# Builds the jar, the benchmark classes (src/bench, compiled with the tests) and their classpath.
rekey_bench_build() {
  rekey_require_java17
  rekey_ensure_jar
  (cd "$REKEY_HOME" && mvn -B -q -DskipTests "${REKEY_MVN_CELL[@]}" test-compile \
    && mvn -B -q "${REKEY_MVN_CELL[@]}" dependency:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile="$REKEY_TARGET/test-classpath.txt") >&2 \
    || rekey_die "cannot build the benchmark classes"
}

# For the benchmarks: builds the benchmark classes (src/bench, compiled with the tests), starts
# the local HBase, and runs a benchmark main class on the test classpath with the given arguments.
rekey_bench_prepare() {
  rekey_bench_build
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
