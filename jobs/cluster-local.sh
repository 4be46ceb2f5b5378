#!/usr/bin/env bash
# A pseudo-distributed cluster on this machine, each daemon in a JVM of its own, from the jars Maven
# resolved for the project (nothing else is downloaded): HDFS (NameNode + DataNode), ZooKeeper,
# HBase (master + region server, hbase.rootdir on that HDFS), YARN (ResourceManager + NodeManager,
# whose containers run Spark's ApplicationMaster and executors) and Spark standalone (Master +
# Worker, whose executors are child JVMs of the Worker). Jobs run on it through spark-submit as on a
# real cluster: executors fetch the application jar, read snapshots from HDFS, stage on HDFS.
#
#   jobs/cluster-local.sh start | stop | status  [--secure]
#   jobs/cluster-local.sh grant --secure USER RWXCA [@NAMESPACE | TABLE]
#   jobs/cluster-local.sh revoke --secure USER [@NAMESPACE | TABLE]
#   jobs/cluster-local.sh alter --secure TABLE KEY=VALUE
#   eval "$(jobs/cluster-local.sh kinit --secure alice|admin)"
#
# With --secure (given to every subcommand) it is a second cluster, in var/cluster-secure on ports
# from 21000: a Kerberos KDC (Hadoop's MiniKdc, realm EXAMPLE.COM, jobs/lib/LocalKdc.java) with
# keytabs for the daemons and for two users, alice (a job's user) and admin (HBase's superuser);
# HDFS with Kerberos, SASL data-transfer protection, HTTPS, permissions and ACLs on (hbase.rootdir
# owned by the HBase daemon's user, hbase, which others may only traverse); HBase with Kerberos,
# authorization, the AccessController and the SnapshotScannerHDFSAclController (a table's readers
# may read its snapshots where the table asks for it); YARN with Kerberos; no Spark standalone
# master (it has no Kerberos: jobs go through YARN). ZooKeeper stays unauthenticated. 'status --secure' prints
# the keytabs and how to use them; 'grant' and 'revoke' change HBase permissions as its superuser,
# with the arguments of the HBase shell's commands of those names, and 'alter' sets a table's
# attribute, as the shell's alter 'TABLE', METADATA => {KEY => VALUE} (jobs/lib/HBaseAsAdmin.java);
# 'kinit' writes a user's ticket cache from the keytab and prints the export of KRB5CCNAME that
# points Hadoop at it, as MIT's kinit would (jobs/lib/Kinit.java; no kinit need be installed).
#
# Then, e.g.:
#   jobs/hbase-rekey.sh --master spark://127.0.0.1:20008 audit --hbase-conf var/cluster/conf \
#     --table demo:messages
#   REKEY_CLUSTER=1 jobs/demo.sh      # the whole demo on it
#
# Settings (environment):
#   REKEY_CLUSTER_DIR         data, settings, logs and pids (default var/cluster)
#   REKEY_CLUSTER_PORT_BASE   first of 20 consecutive ports on 127.0.0.1 (default 20000): +0 HDFS
#                             NameNode RPC, +1 its web UI, +2..+4 DataNode data, web, IPC,
#                             +5 ZooKeeper, +6 HBase master, +7 region server, +8 Spark master,
#                             +9 its web UI, +10 Spark worker, +11 its web UI, +12 YARN
#                             ResourceManager RPC, +13 its scheduler, +14 its resource tracker,
#                             +15 its admin, +16 its web UI and REST API, +17 NodeManager RPC,
#                             +18 its localizer, +19 its web UI
#   REKEY_WORKER_CORES, REKEY_WORKER_MEMORY   what the Spark worker offers executors (2, 3g)
#   REKEY_NM_VCORES, REKEY_NM_MEMORY_MB       what the NodeManager offers containers (4, 6144):
#                             several small containers (an ApplicationMaster, executors of 1-2 GB)
#   REKEY_HBASE_HEAP          heap of the HBase master and of the region server (1g each)
#   REKEY_DAEMON_HEAP         heap of the NameNode, DataNode, ZooKeeper, Spark master and worker (512m)
#   REKEY_DAEMON_OPTS         more JVM options for every daemon (none; the tests give their
#                             short-lived clusters -XX:TieredStopAtLevel=1)
#
# It keeps its data across stop and start; delete REKEY_CLUSTER_DIR to start over. It is for trials
# and tests: one replica, no security.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

SECURE=0
[ "${2:-}" = --secure ] && SECURE=1
if (( SECURE )); then
  DIR="${REKEY_CLUSTER_DIR:-$REKEY_VAR/cluster-secure}"
  BASE="${REKEY_CLUSTER_PORT_BASE:-21000}"
else
  DIR="${REKEY_CLUSTER_DIR:-$REKEY_VAR/cluster}"
  BASE="${REKEY_CLUSTER_PORT_BASE:-20000}"
fi
CONF="$DIR/conf"
LOGS="$DIR/log"
RUN="$DIR/run"
HOST=127.0.0.1
NN_PORT=$BASE
ZK_PORT=$((BASE + 5))
SPARK_PORT=$((BASE + 8))
SPARK_HOME_DIR="$DIR/spark-home"
START_TIMEOUT="${REKEY_START_TIMEOUT:-180}"
DAEMON_HEAP="${REKEY_DAEMON_HEAP:-512m}"
HBASE_HEAP="${REKEY_HBASE_HEAP:-1g}"

# In start order; stopped in reverse.
DAEMONS=(namenode datanode zookeeper hmaster regionserver resourcemanager nodemanager spark-master spark-worker)
# The secure cluster: a KDC first (port BASE+20), keytabs, the realm, and how long tickets and
# delegation tokens live (short, so tests see them expire: REKEY_TOKEN_MINUTES).
REALM=EXAMPLE.COM
KDC_DIR="$DIR/kdc"
KT="$DIR/keytabs"
KDC_PORT=$((BASE + 20))
TOKEN_MINUTES="${REKEY_TOKEN_MINUTES:-60}"
if (( SECURE )); then
  # No Spark standalone: it has no Kerberos, so jobs on this cluster go through YARN.
  DAEMONS=(kdc namenode datanode zookeeper hmaster regionserver resourcemanager nodemanager)
fi
RM_PORT=$((BASE + 12))
RM_WEB_PORT=$((BASE + 16))

port_of() {
  case "$1" in
    namenode) echo "$NN_PORT" ;;
    datanode) echo $((BASE + 2)) ;;
    zookeeper) echo "$ZK_PORT" ;;
    hmaster) echo $((BASE + 6)) ;;
    regionserver) echo $((BASE + 7)) ;;
    resourcemanager) echo "$RM_PORT" ;;
    nodemanager) echo $((BASE + 17)) ;;
    spark-master) echo "$SPARK_PORT" ;;
    spark-worker) echo $((BASE + 10)) ;;
    kdc) echo "$KDC_PORT" ;;
  esac
}

port_taken() { (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }

pid_of() {
  local f="$RUN/$1.pid" pid
  [ -f "$f" ] || return 1
  pid=$(cat "$f")
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

property() { printf '  <property><name>%s</name><value>%s</value></property>\n' "$1" "$2"; }

write_config() {
  mkdir -p "$CONF" "$LOGS" "$RUN" "$DIR/hdfs" "$DIR/zookeeper" "$SPARK_HOME_DIR/jars" "$DIR/spark-work"
  {
    echo '<?xml version="1.0"?>'
    echo "<!-- Written by jobs/cluster-local.sh. -->"
    echo '<configuration>'
    property fs.defaultFS "hdfs://$HOST:$NN_PORT"
    property hadoop.tmp.dir "$DIR/hdfs/tmp"
    if (( SECURE )); then
      property hadoop.security.authentication kerberos
      property hadoop.security.authorization true
      property hadoop.rpc.protection authentication
    fi
    echo '</configuration>'
  } > "$CONF/core-site.xml"
  {
    echo '<?xml version="1.0"?>'
    echo "<!-- Written by jobs/cluster-local.sh. -->"
    echo '<configuration>'
    property dfs.replication 1
    property dfs.namenode.name.dir "file://$DIR/hdfs/name"
    property dfs.datanode.data.dir "file://$DIR/hdfs/data"
    property dfs.namenode.rpc-address "$HOST:$NN_PORT"
    property dfs.namenode.http-address "$HOST:$((BASE + 1))"
    property dfs.datanode.address "$HOST:$((BASE + 2))"
    property dfs.datanode.http.address "$HOST:$((BASE + 3))"
    property dfs.datanode.ipc.address "$HOST:$((BASE + 4))"
    property dfs.datanode.hostname "$HOST"
    property dfs.client.use.datanode.hostname true
    # One DataNode: leave safe mode as soon as it has reported.
    property dfs.namenode.safemode.extension 0
    property dfs.namenode.safemode.min.datanodes 1
    if (( SECURE )); then
      property dfs.block.access.token.enable true
      property dfs.namenode.kerberos.principal "hdfs/localhost@$REALM"
      property dfs.namenode.keytab.file "$KT/hdfs.keytab"
      property dfs.datanode.kerberos.principal "hdfs/localhost@$REALM"
      property dfs.datanode.keytab.file "$KT/hdfs.keytab"
      property dfs.web.authentication.kerberos.principal "HTTP/localhost@$REALM"
      property dfs.web.authentication.kerberos.keytab "$KT/hdfs.keytab"
      property dfs.namenode.kerberos.internal.spnego.principal "HTTP/localhost@$REALM"
      # A DataNode on ports anyone may open (no root, no jsvc) must protect its data transfer with
      # SASL, and then serve its web pages over HTTPS only.
      property dfs.data.transfer.protection authentication
      property dfs.http.policy HTTPS_ONLY
      property dfs.namenode.https-address "$HOST:$((BASE + 1))"
      property dfs.datanode.https.address "$HOST:$((BASE + 3))"
      property dfs.permissions.enabled true
      property dfs.namenode.acls.enabled true
      property dfs.namenode.delegation.token.max-lifetime $((TOKEN_MINUTES * 60000))
      property dfs.namenode.delegation.token.renew-interval $((TOKEN_MINUTES * 60000))
    fi
    echo '</configuration>'
  } > "$CONF/hdfs-site.xml"
  {
    echo '<?xml version="1.0"?>'
    echo "<!-- Written by jobs/cluster-local.sh: clients name this directory with the hbase-conf option. -->"
    echo '<configuration>'
    property hbase.cluster.distributed true
    property hbase.rootdir "hdfs://$HOST:$NN_PORT/hbase"
    property hbase.tmp.dir "$DIR/hbase-tmp"
    property hbase.zookeeper.quorum "$HOST"
    property hbase.zookeeper.property.clientPort "$ZK_PORT"
    property hbase.zookeeper.property.dataDir "$DIR/zookeeper"
    # ZooKeeper's admin server would take port 8080 on every address, which is often in use.
    property hbase.zookeeper.property.admin.enableServer false
    property hbase.master.hostname "$HOST"
    property hbase.regionserver.hostname "$HOST"
    property hbase.master.port $((BASE + 6))
    property hbase.regionserver.port $((BASE + 7))
    property hbase.master.info.port -1
    property hbase.regionserver.info.port -1
    # See jobs/hbase-local.sh: HBase 2.5's master lock can lose its wake-up after a snapshot.
    property hbase.master.procedure.local.master.locks.timeout.ms 60000
    if (( SECURE )); then
      property hbase.security.authentication kerberos
      property hbase.security.authorization true
      # HBase's own way for table readers to read snapshots: on a table whose attribute
      # hbase.acl.sync.to.hdfs.enable is true, it gives the users it grants READ an HDFS ACL on the
      # table's files and snapshots; a table without it keeps them from other users (the files
      # HBase writes have mode 750, hbase.data.umask; 077 would also mask the ACLs of new files).
      property hbase.coprocessor.master.classes \
        org.apache.hadoop.hbase.security.access.AccessController,org.apache.hadoop.hbase.security.access.SnapshotScannerHDFSAclController
      property hbase.acl.sync.to.hdfs.enable true
      property hbase.data.umask.enable true
      property hbase.data.umask 027
      property hbase.coprocessor.region.classes \
        org.apache.hadoop.hbase.security.token.TokenProvider,org.apache.hadoop.hbase.security.access.AccessController
      property hbase.coprocessor.regionserver.classes org.apache.hadoop.hbase.security.access.AccessController
      property hbase.master.kerberos.principal "hbase/localhost@$REALM"
      property hbase.master.keytab.file "$KT/hbase.keytab"
      property hbase.regionserver.kerberos.principal "hbase/localhost@$REALM"
      property hbase.regionserver.keytab.file "$KT/hbase.keytab"
      property hbase.superuser admin
      # hbase.rootdir is the HBase daemon's alone (HBase's default); jobs read snapshots through
      # HDFS ACLs or scan instead (deploy/README.md).
      property hbase.rootdir.perms 700
      property hbase.auth.token.max.lifetime $((TOKEN_MINUTES * 60000))
      property hbase.auth.key.update.interval $((TOKEN_MINUTES * 60000))
    fi
    echo '</configuration>'
  } > "$CONF/hbase-site.xml"
  mkdir -p "$DIR/yarn/local" "$DIR/yarn/logs"
  {
    echo '<?xml version="1.0"?>'
    echo "<!-- Written by jobs/cluster-local.sh: spark-submit finds the ResourceManager here (HADOOP_CONF_DIR). -->"
    echo '<configuration>'
    property yarn.resourcemanager.hostname "$HOST"
    property yarn.resourcemanager.address "$HOST:$RM_PORT"
    property yarn.resourcemanager.scheduler.address "$HOST:$((BASE + 13))"
    property yarn.resourcemanager.resource-tracker.address "$HOST:$((BASE + 14))"
    property yarn.resourcemanager.admin.address "$HOST:$((BASE + 15))"
    property yarn.resourcemanager.webapp.address "$HOST:$RM_WEB_PORT"
    property yarn.nodemanager.hostname "$HOST"
    property yarn.nodemanager.address "$HOST:$((BASE + 17))"
    property yarn.nodemanager.localizer.address "$HOST:$((BASE + 18))"
    property yarn.nodemanager.webapp.address "$HOST:$((BASE + 19))"
    property yarn.nodemanager.resource.memory-mb "${REKEY_NM_MEMORY_MB:-6144}"
    property yarn.nodemanager.resource.cpu-vcores "${REKEY_NM_VCORES:-4}"
    property yarn.scheduler.minimum-allocation-mb 256
    property yarn.scheduler.maximum-allocation-mb "${REKEY_NM_MEMORY_MB:-6144}"
    property yarn.scheduler.maximum-allocation-vcores "${REKEY_NM_VCORES:-4}"
    property yarn.nodemanager.local-dirs "$DIR/yarn/local"
    property yarn.nodemanager.log-dirs "$DIR/yarn/logs"
    # Containers keep their directories (launch script, localized files) a while after they end.
    property yarn.nodemanager.delete.debug-delay-sec 600
    # JVMs reserve far more virtual memory than they use; the heap limits are Spark's business.
    property yarn.nodemanager.vmem-check-enabled false
    property yarn.nodemanager.pmem-check-enabled false
    # A nearly full disk must not take the only NodeManager out of service.
    property yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage 99.5
    property yarn.nodemanager.env-whitelist "JAVA_HOME,HADOOP_CONF_DIR,PATH,LANG,TZ"
    if (( SECURE )); then
      property yarn.resourcemanager.principal "yarn/localhost@$REALM"
      property yarn.resourcemanager.keytab "$KT/yarn.keytab"
      property yarn.nodemanager.principal "yarn/localhost@$REALM"
      property yarn.nodemanager.keytab "$KT/yarn.keytab"
      property yarn.resourcemanager.delegation.token.max-lifetime $((TOKEN_MINUTES * 60000))
      property yarn.resourcemanager.delegation.token.renew-interval $((TOKEN_MINUTES * 60000))
    fi
    echo '</configuration>'
  } > "$CONF/yarn-site.xml"
  if (( SECURE )); then write_tls_config; fi
  {
    echo '<?xml version="1.0"?>'
    echo "<!-- Written by jobs/cluster-local.sh: the default queue, a queue too small for any container, and room for ApplicationMasters on one small node. -->"
    echo '<configuration>'
    property yarn.scheduler.capacity.root.queues default,tiny
    property yarn.scheduler.capacity.root.default.capacity 95
    property yarn.scheduler.capacity.root.default.maximum-capacity 100
    # 5% of the node is less than YARN's smallest container (1 GB): an application sent here stays
    # ACCEPTED, as on a cluster whose queue is full (spark.rekey.yarn.admissionTimeout, deploy/README.md).
    property yarn.scheduler.capacity.root.tiny.capacity 5
    property yarn.scheduler.capacity.root.tiny.maximum-capacity 5
    property yarn.scheduler.capacity.maximum-am-resource-percent 0.6
    echo '</configuration>'
  } > "$CONF/capacity-scheduler.xml"
  # A Spark installation as the Worker needs one to start executors: jars/ (Spark's runtime as a
  # distribution ships it, from the project's jobs/spark-runtime) and a RELEASE file. conf/ stays
  # empty, so executors log as spark-submit tells them, not as this directory would.
  local cp jar
  cp=$(rekey_spark_classpath)
  find "$SPARK_HOME_DIR/jars" -maxdepth 1 -type l -delete
  for jar in ${cp//:/ }; do ln -sf "$jar" "$SPARK_HOME_DIR/jars/"; done
  echo "Spark (jars resolved by Maven from jobs/spark-runtime/pom.xml; jobs/cluster-local.sh)" > "$SPARK_HOME_DIR/RELEASE"
  mkdir -p "$SPARK_HOME_DIR/conf"
}

# HTTPS for HDFS's web servers (required with SASL data-transfer protection): one self-signed key
# for 127.0.0.1, made once with the JDK's keytool, and the truststore clients use.
write_tls_config() {
  local pass=rekey-local
  if [ ! -f "$CONF/keystore.jks" ]; then
    keytool -genkeypair -alias local -keyalg RSA -keysize 2048 -validity 3650 -dname "CN=$HOST" \
      -ext "SAN=IP:$HOST" -keystore "$CONF/keystore.jks" -storepass "$pass" -keypass "$pass" >/dev/null 2>&1
    keytool -exportcert -alias local -keystore "$CONF/keystore.jks" -storepass "$pass" \
      -file "$CONF/local.crt" >/dev/null 2>&1
    keytool -importcert -noprompt -alias local -file "$CONF/local.crt" \
      -keystore "$CONF/truststore.jks" -storepass "$pass" >/dev/null 2>&1
  fi
  {
    echo '<?xml version="1.0"?>'
    echo '<configuration>'
    property ssl.server.keystore.location "$CONF/keystore.jks"
    property ssl.server.keystore.password "$pass"
    property ssl.server.keystore.keypassword "$pass"
    property ssl.server.truststore.location "$CONF/truststore.jks"
    property ssl.server.truststore.password "$pass"
    echo '</configuration>'
  } > "$CONF/ssl-server.xml"
  {
    echo '<?xml version="1.0"?>'
    echo '<configuration>'
    property ssl.client.truststore.location "$CONF/truststore.jks"
    property ssl.client.truststore.password "$pass"
    echo '</configuration>'
  } > "$CONF/ssl-client.xml"
}

# A service's principals under both names of this host. The settings name the localhost one
# outright instead of _HOST: Hadoop puts in _HOST the name it resolves 127.0.0.1 to (localhost) in
# some places and the address as configured in others, and a NameNode then refuses its DataNode.
both() { echo "$1/$HOST,$1/localhost"; }

# The KDC, and the keytabs of the daemons (HTTP is HDFS's web servers') and of the two users.
start_kdc() {
  mkdir -p "$KDC_DIR" "$KT"
  local cp
  cp="$(rekey_resolved_classpath cluster-runtime)"
  nohup java -Xmx256m $REKEY_HELPER_JVM -cp "$cp" "$REKEY_HOME/jobs/lib/LocalKdc.java" "$KDC_DIR" "$KDC_PORT" \
    $((TOKEN_MINUTES * 60)) $((TOKEN_MINUTES * 60 * 4)) \
    "$KT/hdfs.keytab=$(both hdfs),$(both HTTP)" "$KT/hbase.keytab=$(both hbase)" "$KT/yarn.keytab=$(both yarn)" \
    "$KT/alice.keytab=alice" "$KT/admin.keytab=admin" >>"$LOGS/kdc.log" 2>&1 </dev/null &
  echo $! > "$RUN/kdc.pid"
  await kdc "KDC serving" grep -q "KDC of realm" "$LOGS/kdc.log"
}

# as_principal PRINCIPAL KEYTAB MAIN ARGS... [--then ARGS...]...: a Hadoop program as a principal
# of the secure cluster; a Tool (FsShell) runs once per --then group, all in one JVM.
as_principal() {
  local principal="$1" keytab="$2"
  shift 2
  java -Xmx256m $REKEY_HELPER_JVM $(rekey_jvm_flags) $(secure_flags) \
    -Dlog4j2.configurationFile="file:$REKEY_HOME/conf/log4j2-daemons.properties" \
    -cp "$(hadoop_cp)" "$REKEY_HOME/jobs/lib/AsPrincipal.java" "$principal" "$keytab" "$@" >>"$LOGS/setup.log" 2>&1
}

# (An empty mapred-site.xml: FsShell reads its settings loudly, and MapReduce's jars on the
# daemons' classpath name that file among the defaults.)
# What the secure HDFS needs before HBase starts, made by its superuser (hdfs): hbase.rootdir owned
# by hbase and readable by no one else, the users' home directories, a shared /tmp.
secure_hdfs_layout() {
  local hdfs=("hdfs/localhost@$REALM" "$KT/hdfs.keytab" org.apache.hadoop.fs.FsShell)
  [ -f "$CONF/mapred-site.xml" ] || printf '<?xml version="1.0"?>\n<configuration/>\n' > "$CONF/mapred-site.xml"
  as_principal "${hdfs[@]}" -mkdir -p /hbase /user/alice /user/admin /tmp \
    --then -chown hbase /hbase --then -chmod 700 /hbase \
    --then -chown alice /user/alice --then -chown admin /user/admin --then -chmod 1777 /tmp \
    || rekey_die "cannot lay out the secure HDFS; see $LOGS/setup.log"
}

# JVM settings every process of the secure cluster needs: where the KDC is.
secure_flags() { (( SECURE )) && echo "-Djava.security.krb5.conf=$KDC_DIR/krb5.conf"; return 0; }

# launch NAME HEAP CLASSPATH MAIN ARGS...
launch() {
  local name="$1" heap="$2" cp="$3" main="$4" layout=""
  shift 4
  case "$name" in hmaster | regionserver) layout="$REKEY_HBASE_JVM" ;; esac
  # shellcheck disable=SC2046
  SPARK_HOME="$SPARK_HOME_DIR" SPARK_SCALA_VERSION="$(rekey_cell_version scala.binary.version)" SPARK_LOCAL_IP="$HOST" \
    nohup java -Xmx"$heap" $layout $(rekey_jvm_flags) $(rekey_daemon_opts) $(secure_flags) \
    -Dlog4j2.configurationFile="file:$REKEY_HOME/conf/log4j2-daemons.properties" -Dhbase.log.dir="$LOGS" \
    -cp "$cp" "$main" "$@" >>"$LOGS/$name.log" 2>&1 </dev/null &
  echo $! > "$RUN/$name.pid"
}

# await NAME WHAT COMMAND...: retries COMMAND until it succeeds, the daemon dies or time runs out.
await() {
  local name="$1" what="$2" started=$SECONDS
  shift 2
  until "$@" >/dev/null 2>&1; do
    if ! pid_of "$name" >/dev/null; then
      rekey_say "$name exited during start-up; the last lines of $LOGS/$name.log:"
      tail -n 20 "$LOGS/$name.log" >&2
      exit 1
    fi
    (( SECONDS - started > START_TIMEOUT )) && rekey_die "$name: $what not within $START_TIMEOUT s; see $LOGS/$name.log"
    sleep 1
  done
}

# The daemons' classpath: HDFS and HBase as their installations carry them (jobs/cluster-runtime).
hadoop_cp() { echo "$CONF:$(rekey_resolved_classpath cluster-runtime)"; }

# HBase's: the same, and the rekey stream's endpoint jar, which the master loads when a stream's
# peer is added and every region server runs (an operator puts it in each server's lib/).
hbase_cp() { echo "$(hadoop_cp):${REKEY_JAR%.jar}-stream-endpoint.jar"; }

dfs_ready() {
  # A client of the secure HDFS would need a Kerberos login; the NameNode's log says as much.
  if (( SECURE )); then grep -q "Safe mode is OFF" "$LOGS/namenode.log"; return; fi
  java -Xmx256m $REKEY_HELPER_JVM $(rekey_jvm_flags) -Dlog4j2.configurationFile="file:$REKEY_HOME/conf/log4j2-daemons.properties" \
    -cp "$(hadoop_cp)" org.apache.hadoop.hdfs.tools.DFSAdmin -safemode get 2>/dev/null | grep -q "Safe mode is OFF"
}

worker_registered() { grep -q "Successfully registered with master" "$LOGS/spark-worker.log"; }

nodemanager_registered() { grep -q "Registered with ResourceManager" "$LOGS/nodemanager.log"; }

# Where the JDK is, for the NodeManager's containers ({{JAVA_HOME}}/bin/java).
java_home() { dirname "$(dirname "$(readlink -f "$(command -v java)")")"; }

hbase_probe() {
  local as=()
  (( SECURE )) && as=(--hbase-set "hbase.client.keytab.file=$KT/admin.keytab" \
    --hbase-set "hbase.client.keytab.principal=admin@$REALM")
  java $REKEY_HELPER_JVM $(rekey_jvm_flags) $(secure_flags) -Dlog4j2.configurationFile="file:$REKEY_HOME/conf/log4j2.properties" \
    -cp "$(cat "$REKEY_TARGET/runtime-classpath.txt"):$REKEY_TARGET/classes" "$REKEY_MAIN" status --hbase-conf "$CONF" "${as[@]}" "$@"
}

start() {
  if pid_of namenode >/dev/null; then
    echo "the local cluster is already running; nothing to do"
    status
    return 0
  fi
  local d p
  for d in "${DAEMONS[@]}"; do
    p=$(port_of "$d")
    port_taken "$p" && rekey_die "port $p on $HOST (for the $d) is already taken by another program; stop it or choose other ports: REKEY_CLUSTER_PORT_BASE=21000 $0 start"
  done
  rekey_require_java17
  rekey_ensure_jar
  write_config
  local started=$SECONDS cp spark_cp
  cp=$(hadoop_cp)
  spark_cp="$(rekey_spark_classpath)"
  echo "starting the local cluster in $DIR (logs in $LOGS)..."
  if (( SECURE )); then
    # Readiness is read from the logs here (no client can ask before it logs in): start them anew.
    for f in "$LOGS"/*.log; do [ -f "$f" ] && mv "$f" "$f.previous"; done
    start_kdc
    echo "  KDC up (realm $REALM, 127.0.0.1:$KDC_PORT) after $((SECONDS - started)) s"
  fi
  if [ ! -d "$DIR/hdfs/name/current" ]; then
    java -Xmx"$DAEMON_HEAP" $REKEY_HELPER_JVM $(rekey_jvm_flags) $(secure_flags) -Dlog4j2.configurationFile="file:$REKEY_HOME/conf/log4j2-daemons.properties" \
      -cp "$cp" org.apache.hadoop.hdfs.server.namenode.NameNode -format -nonInteractive >>"$LOGS/namenode.log" 2>&1 \
      || rekey_die "formatting HDFS failed; see $LOGS/namenode.log"
  fi
  launch namenode "$DAEMON_HEAP" "$cp" org.apache.hadoop.hdfs.server.namenode.NameNode
  launch datanode "$DAEMON_HEAP" "$cp" org.apache.hadoop.hdfs.server.datanode.DataNode
  await namenode "HDFS out of safe mode" dfs_ready
  echo "  HDFS up (hdfs://$HOST:$NN_PORT) after $((SECONDS - started)) s"
  if (( SECURE )); then secure_hdfs_layout; fi
  launch zookeeper "$DAEMON_HEAP" "$cp" org.apache.hadoop.hbase.zookeeper.HQuorumPeer
  await zookeeper "port $ZK_PORT open" port_taken "$ZK_PORT"
  launch hmaster "$HBASE_HEAP" "$(hbase_cp)" org.apache.hadoop.hbase.master.HMaster start
  launch regionserver "$HBASE_HEAP" "$(hbase_cp)" org.apache.hadoop.hbase.regionserver.HRegionServer start
  await hmaster "HBase serving" hbase_probe --wait 5
  echo "  HBase up after $((SECONDS - started)) s"
  launch resourcemanager "$DAEMON_HEAP" "$cp" org.apache.hadoop.yarn.server.resourcemanager.ResourceManager
  await resourcemanager "port $RM_PORT open" port_taken "$RM_PORT"
  JAVA_HOME="$(java_home)" HADOOP_CONF_DIR="$CONF" \
    launch nodemanager "$DAEMON_HEAP" "$cp" org.apache.hadoop.yarn.server.nodemanager.NodeManager
  await nodemanager "registered with the ResourceManager" nodemanager_registered
  echo "  YARN up after $((SECONDS - started)) s"
  if (( SECURE )); then
    echo "the local cluster is up after $((SECONDS - started)) s"
    status
    return
  fi
  launch spark-master "$DAEMON_HEAP" "$spark_cp" org.apache.spark.deploy.master.Master \
    --host "$HOST" --port "$SPARK_PORT" --webui-port $((BASE + 9))
  await spark-master "port $SPARK_PORT open" port_taken "$SPARK_PORT"
  launch spark-worker "$DAEMON_HEAP" "$spark_cp" org.apache.spark.deploy.worker.Worker \
    "spark://$HOST:$SPARK_PORT" --host "$HOST" --port $((BASE + 10)) --webui-port $((BASE + 11)) \
    --cores "${REKEY_WORKER_CORES:-2}" --memory "${REKEY_WORKER_MEMORY:-3g}" --work-dir "$DIR/spark-work"
  await spark-worker "registered with the Spark master" worker_registered
  echo "the local cluster is up after $((SECONDS - started)) s"
  status
}

# stop_together DAEMON...: signals each running one (the HBase daemons excepted: they are already
# shutting down), waits up to 60 s for all of them to exit, then kills what remains.
stop_together() {
  local d pid waited=0 pids=()
  for d in "$@"; do
    pid=$(pid_of "$d") || { rm -f "$RUN/$d.pid"; continue; }
    pids+=("$d:$pid")
    # A Worker's executors are its children; none may outlive it.
    [ "$d" = spark-worker ] && pkill -TERM -P "$pid" 2>/dev/null || true
    # The NodeManager's containers run under their own launch scripts: stop them with it.
    [ "$d" = nodemanager ] && pkill -TERM -f "$DIR/yarn/local" 2>/dev/null || true
    [ "$d" = regionserver ] || [ "$d" = hmaster ] || kill "$pid" 2>/dev/null || true
  done
  for d in "${pids[@]}"; do
    pid=${d#*:}
    while kill -0 "$pid" 2>/dev/null && (( waited < 300 )); do sleep 0.2; waited=$((waited + 1)); done
    if kill -0 "$pid" 2>/dev/null; then kill "$pid" 2>/dev/null || true; sleep 5; kill -9 "$pid" 2>/dev/null || true; fi
    rm -f "$RUN/${d%%:*}.pid"
    echo "  stopped the ${d%%:*}"
  done
}

stop() {
  local pid login=()
  if pid=$(pid_of hmaster); then
    # A clean shutdown flushes the region server's memstores to HFiles on HDFS. On the secure
    # cluster the request must log in: without it the master refuses it, and each HBase daemon
    # would then be waited for and killed.
    (( SECURE )) && login=(-D "hbase.client.keytab.file=$KT/hbase.keytab" -D "hbase.client.keytab.principal=hbase/localhost@$REALM")
    java -Xmx256m $REKEY_HELPER_JVM $(rekey_jvm_flags) $(secure_flags) -Dlog4j2.configurationFile="file:$REKEY_HOME/conf/log4j2-daemons.properties" \
      -cp "$(hadoop_cp)" org.apache.hadoop.hbase.master.HMaster "${login[@]}" stop --shutDownCluster >>"$LOGS/hmaster.log" 2>&1 || true
  fi
  # HBase goes down (on its own, after the request above) before what it stands on; within each
  # group the daemons stop together.
  stop_together spark-worker spark-master nodemanager resourcemanager regionserver hmaster
  stop_together zookeeper datanode namenode kdc
  echo "the local cluster is stopped (data kept in $DIR)"
}

status() {
  local d pid p any=0
  for d in "${DAEMONS[@]}"; do
    p=$(port_of "$d")
    if pid=$(pid_of "$d"); then
      any=1
      printf '  %-13s pid %-8s %s:%s\n' "$d" "$pid" "$HOST" "$p"
    else
      printf '  %-13s not running\n' "$d"
    fi
  done
  local flag=""
  (( SECURE )) && flag=" --secure"
  (( any )) || { echo "the local cluster is not running (start it with $0 start$flag)"; return 3; }
  if (( SECURE )); then secure_status; fi
  local standalone="  Spark master  spark://$HOST:$SPARK_PORT  (web http://$HOST:$((BASE + 9)); executor logs under $DIR/spark-work)
  a job         jobs/hbase-rekey.sh --master spark://$HOST:$SPARK_PORT COMMAND --hbase-conf $CONF ..."
  (( SECURE )) && standalone="  (no Spark standalone master here: it has no Kerberos; jobs go through YARN)"
  cat <<TXT
Use it:
  HDFS          hdfs://$HOST:$NN_PORT  (web http://$HOST:$((BASE + 1)))
  HBase         --hbase-conf $CONF   (ZooKeeper $HOST:$ZK_PORT, hbase.rootdir hdfs://$HOST:$NN_PORT/hbase)
  YARN          ResourceManager $HOST:$RM_PORT  (web and REST http://$HOST:$RM_WEB_PORT; container logs under $DIR/yarn/logs)
$standalone
  on YARN       HADOOP_CONF_DIR=$CONF jobs/hbase-rekey.sh --master yarn --deploy-mode client|cluster \
                  --conf 'spark.yarn.jars=local:$SPARK_HOME_DIR/jars/*' COMMAND --hbase-conf $CONF ...
                (local: the containers run on this host and find Spark's jars there; a real
                cluster keeps them on HDFS: see deploy/README.md)
TXT
}

secure_status() {
  cat <<TXT
Kerberos (realm $REALM, KDC 127.0.0.1:$KDC_PORT; tickets and delegation tokens live $TOKEN_MINUTES min):
  krb5.conf     $KDC_DIR/krb5.conf   (JVMs: -Djava.security.krb5.conf=$KDC_DIR/krb5.conf;
                a ticket cache: eval "\$($0 kinit --secure alice)", or where MIT's kinit is installed:
                KRB5_CONFIG=$KDC_DIR/krb5.conf kinit -kt $KT/alice.keytab alice)
  keytabs       $KT/alice.keytab  alice@$REALM   (a job's user: spark-submit --principal alice@$REALM --keytab ...)
                $KT/admin.keytab  admin@$REALM   (HBase superuser: grants)
                $KT/hdfs.keytab, hbase.keytab, yarn.keytab   (the daemons)
  HBase client  --hbase-set hbase.client.keytab.file=$KT/alice.keytab --hbase-set hbase.client.keytab.principal=alice@$REALM
TXT
}

# grant|revoke|alter ARGS...: the HBase shell's grant, revoke and alter, as the secure cluster's superuser.
acl() {
  (( SECURE )) || rekey_die "$1 needs --secure: the cluster without it has no HBase authorization"
  [ -f "$KT/admin.keytab" ] || rekey_die "no secure cluster in $DIR; start it first: $0 start --secure"
  java -Xmx256m $REKEY_HELPER_JVM $(rekey_jvm_flags) $(secure_flags) -Drekey.daemon.level=warn \
    -Dlog4j2.configurationFile="file:$REKEY_HOME/conf/log4j2-daemons.properties" \
    -cp "$(hadoop_cp)" "$REKEY_HOME/jobs/lib/HBaseAsAdmin.java" "admin@$REALM" "$KT/admin.keytab" "$@"
}

# kinit USER: USER's ticket cache, from the keytab; prints the line that makes it the one jobs use.
ticket_cache() {
  (( SECURE )) || rekey_die "kinit needs --secure: the cluster without it has no Kerberos"
  local user="${1:-}"
  [ -n "$user" ] && [ -f "$KT/$user.keytab" ] \
    || rekey_die "kinit: no keytab for user '$user' in $KT; the users are alice and admin (start the cluster first: $0 start --secure)"
  java -Xmx128m $REKEY_HELPER_JVM -cp "$(rekey_resolved_classpath cluster-runtime)" "$REKEY_HOME/jobs/lib/Kinit.java" \
    "$KDC_DIR" "$user@$REALM" "$KT/$user.keytab" "$KDC_DIR/$user.ccache" >&2 || exit 1
  echo "export KRB5CCNAME=$KDC_DIR/$user.ccache"
}

case "${1:-}" in
  grant | revoke | alter) acl "$1" "${@:3}" ;;
  kinit) ticket_cache "${@:3}" ;;
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status [--secure], or grant|revoke|alter|kinit --secure ...   (settings: see the top of this script)" >&2; exit 2 ;;
esac
