#!/usr/bin/env bash
# A real HBase on this machine for trials and the demo: master, region server and ZooKeeper in one
# JVM (HBase's own standalone mode), data on the local filesystem.
#
#   jobs/hbase-local.sh start | stop | status | restart
#
# Settings (environment):
#   REKEY_ZK_PORT   ZooKeeper client port on 127.0.0.1 (default 2181)
#   REKEY_MASTER_PORT, REKEY_RS_PORT  RPC ports of the master and region server (16000, 16020)
#   REKEY_VAR       where data, settings, logs and the pid live (default ./var):
#                   var/hbase (data, kept across restarts), var/conf/hbase-site.xml (what jobs and
#                   other clients use), var/log/hbase.log, var/run/hbase.pid
#   REKEY_HBASE_HEAP  heap of the HBase JVM (default 2g)
#   REKEY_DAEMON_OPTS more JVM options for it (none)
#
# Local HBase has no hsync on the local filesystem: a crash can lose the last writes. Use it for
# trials and demos, never for data you cannot regenerate.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

ZK_PORT="${REKEY_ZK_PORT:-2181}"
MASTER_PORT="${REKEY_MASTER_PORT:-16000}"
RS_PORT="${REKEY_RS_PORT:-16020}"
DATA="$REKEY_VAR/hbase"
CONF="$REKEY_VAR/conf"
LOGS="$REKEY_VAR/log"
PIDFILE="$REKEY_VAR/run/hbase.pid"
LOG="$LOGS/hbase.log"
START_TIMEOUT="${REKEY_START_TIMEOUT:-180}"

running_pid() {
  [ -f "$PIDFILE" ] || return 1
  local pid
  pid=$(cat "$PIDFILE")
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    echo "$pid"
    return 0
  fi
  return 1
}

port_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

write_config() {
  mkdir -p "$DATA" "$CONF" "$LOGS" "$(dirname "$PIDFILE")"
  cat > "$CONF/hbase-site.xml" <<XML
<?xml version="1.0"?>
<!-- Written by jobs/hbase-local.sh: the local standalone HBase. Clients (the jobs, the HBase
     shell, any HBase client) find it through HBASE_CONF_DIR=$CONF or the jobs option hbase-conf. -->
<configuration>
  <property><name>hbase.cluster.distributed</name><value>false</value></property>
  <property><name>hbase.rootdir</name><value>file://$DATA/root</value></property>
  <property><name>hbase.tmp.dir</name><value>$DATA/tmp</value></property>
  <property><name>hbase.zookeeper.quorum</name><value>127.0.0.1</value></property>
  <property><name>hbase.zookeeper.property.clientPort</name><value>$ZK_PORT</value></property>
  <property><name>hbase.zookeeper.property.dataDir</name><value>$DATA/zookeeper</value></property>
  <!-- The local filesystem has no hflush/hsync; HBase refuses to write WALs on it without this. -->
  <property><name>hbase.unsafe.stream.capability.enforce</name><value>false</value></property>
  <property><name>hbase.master.port</name><value>$MASTER_PORT</value></property>
  <property><name>hbase.regionserver.port</name><value>$RS_PORT</value></property>
  <property><name>hbase.master.info.port</name><value>-1</value></property>
  <property><name>hbase.regionserver.info.port</name><value>-1</value></property>
  <!-- HBase 2.5's master lock can lose its wake-up when a snapshot trades its exclusive table lock
       for a shared one (LockProcedure.unlock racing execute); the stale lock then blocks every
       snapshot of the table until it times out, 10 minutes by default. One minute is still far
       longer than a snapshot of anything this local HBase holds. -->
  <property><name>hbase.master.procedure.local.master.locks.timeout.ms</name><value>60000</value></property>
</configuration>
XML
}

client_settings() {
  echo "  hbase.zookeeper.quorum = 127.0.0.1"
  echo "  hbase.zookeeper.property.clientPort = $ZK_PORT"
  echo "  jobs: --zk 127.0.0.1:$ZK_PORT, or --hbase-conf $CONF (jobs/*.sh use it by default)"
}

probe() {
  # Our own status command: master up, a live region server, meta readable.
  java $REKEY_HELPER_JVM $(rekey_jvm_flags) -Dlog4j2.configurationFile="file:$REKEY_HOME/conf/log4j2.properties" \
    -cp "$(cat "$REKEY_TARGET/runtime-classpath.txt"):$REKEY_TARGET/classes" \
    "$REKEY_MAIN" status --hbase-conf "$CONF" "$@"
}

start() {
  local pid
  if pid=$(running_pid); then
    echo "local HBase is already running (pid $pid); nothing to do"
    client_settings
    return 0
  fi
  if port_taken "$ZK_PORT"; then
    rekey_die "port $ZK_PORT on 127.0.0.1 is already taken by another program, so ZooKeeper cannot start there. Stop that program or pick another port: REKEY_ZK_PORT=2182 $0 start"
  fi
  local p
  for p in "$MASTER_PORT:REKEY_MASTER_PORT:the master" "$RS_PORT:REKEY_RS_PORT:the region server"; do
    if port_taken "${p%%:*}"; then
      local rest="${p#*:}"
      rekey_die "port ${p%%:*} on 127.0.0.1 is already taken by another program, so ${rest#*:} cannot start there. Stop that program or pick another port with ${rest%%:*}"
    fi
  done
  rekey_require_java17
  rekey_ensure_jar
  write_config
  echo "starting local HBase (data in $DATA, log in $LOG)..."
  # fs.file.impl: a local filesystem with a name, so that bulk loads rename files as on HDFS
  # instead of copying them twice, and that sets permissions without starting a chmod process
  # per file (see io.rekey.local.RenamingLocalFileSystem).
  # shellcheck disable=SC2046
  nohup java -Xmx${REKEY_HBASE_HEAP:-2g} $REKEY_HBASE_JVM $(rekey_jvm_flags) $(rekey_daemon_opts) \
    -Dhbase.log.dir="$LOGS" -Dlog4j2.configurationFile="file:$REKEY_HOME/conf/log4j2-daemons.properties" \
    -cp "$CONF:$(cat "$REKEY_TARGET/runtime-classpath.txt"):$REKEY_TARGET/classes" \
    org.apache.hadoop.hbase.master.HMaster -D fs.file.impl=io.rekey.local.RenamingLocalFileSystem \
    start >>"$LOG" 2>&1 < /dev/null &
  echo $! > "$PIDFILE"
  local started=$SECONDS
  # Wait for ZooKeeper first, watching that the JVM did not die on the way.
  until port_taken "$ZK_PORT"; do
    if ! running_pid >/dev/null; then
      rekey_say "local HBase exited during start-up; the last lines of $LOG:"
      tail -n 20 "$LOG" >&2
      rm -f "$PIDFILE"
      exit 1
    fi
    if (( SECONDS - started > START_TIMEOUT )); then
      rekey_die "ZooKeeper did not open port $ZK_PORT within $START_TIMEOUT s; see $LOG"
    fi
    sleep 1
  done
  local left=$(( START_TIMEOUT - (SECONDS - started) ))
  (( left < 10 )) && left=10
  if ! probe --wait "$left"; then
    running_pid >/dev/null || rm -f "$PIDFILE"
    rekey_die "local HBase did not start serving within $START_TIMEOUT s; see $LOG"
  fi
  echo "local HBase is up after $(( SECONDS - started )) s (pid $(cat "$PIDFILE")). Client settings:"
  client_settings
}

stop() {
  local pid
  if ! pid=$(running_pid); then
    rm -f "$PIDFILE"
    echo "local HBase is not running; nothing to do"
    return 0
  fi
  echo "stopping local HBase (pid $pid)..."
  # A clean cluster shutdown closes regions, which flushes what is in memory to HFiles.
  java $REKEY_HELPER_JVM $(rekey_jvm_flags) -Dlog4j2.configurationFile="file:$REKEY_HOME/conf/log4j2-daemons.properties" \
    -cp "$CONF:$(cat "$REKEY_TARGET/runtime-classpath.txt")" \
    org.apache.hadoop.hbase.master.HMaster stop --shutDownCluster >>"$LOG" 2>&1 || true
  local waited=0
  while kill -0 "$pid" 2>/dev/null && (( waited < 60 )); do sleep 1; waited=$((waited + 1)); done
  if kill -0 "$pid" 2>/dev/null; then
    rekey_say "HBase did not stop within 60 s; sending SIGTERM"
    kill "$pid" 2>/dev/null || true
    waited=0
    while kill -0 "$pid" 2>/dev/null && (( waited < 30 )); do sleep 1; waited=$((waited + 1)); done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$PIDFILE"
  echo "local HBase stopped (data kept in $DATA)"
}

status() {
  local pid
  if ! pid=$(running_pid); then
    echo "local HBase is not running (start it with $0 start)"
    return 3
  fi
  echo "local HBase process is running (pid $pid)"
  rekey_ensure_jar
  probe
  client_settings
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  restart) stop; start ;;
  *) echo "usage: $0 start|stop|status|restart   (REKEY_ZK_PORT, REKEY_VAR: see the top of this script)" >&2; exit 2 ;;
esac
