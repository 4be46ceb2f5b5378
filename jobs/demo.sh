#!/usr/bin/env bash
# The hbase-rekey demo, from nothing: build the jar if needed, start a real local HBase, fill a
# messages table whose row key starts with the time (the classic hotspot), describe and audit it,
# re-key it into a salted layout that spreads writes evenly and keeps a sender's messages newest
# first within each bucket, verify
# the copy, and describe and audit the new table; then keep writing and deleting messages and let
# 'rekey sync' carry those changes over, as a live migration does; and migrate once more with a
# stream from HBase's write-ahead log, ending with 'stream switch'.
#
#   jobs/demo.sh                 # 50,000 messages (about 250,000 cells)
#   DEMO_ROWS=400000 jobs/demo.sh
#   REKEY_CLUSTER=1 jobs/demo.sh # the same on the pseudo-distributed cluster of jobs/cluster-local.sh:
#                                # HDFS, HBase master and region server, Spark standalone master and
#                                # worker in JVMs of their own; jobs go through spark-submit
#                                # --master spark://..., staging on HDFS
#
# Safe to run again: the local HBase and the table are reused. Stop HBase with
# 'jobs/hbase-local.sh stop'; delete var/ to start from scratch.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
cd "$REKEY_HOME"
ROWS="${DEMO_ROWS:-50000}"
started=$SECONDS

step() { printf '\n==> %s\n' "$*"; }

rekey_require_java17
rekey_ensure_jar
if [ -n "${REKEY_CLUSTER:-}" ]; then
  step "1/13 build (skipped when the jar is up to date) and start the local cluster (HDFS, HBase, Spark)"
  jobs/cluster-local.sh start
  export HBASE_CONF_DIR="${REKEY_CLUSTER_DIR:-$REKEY_VAR/cluster}/conf"
  export REKEY_SPARK_OPTS="--master spark://127.0.0.1:$(( ${REKEY_CLUSTER_PORT_BASE:-20000} + 8 )) ${REKEY_SPARK_OPTS:-}"
  # The driver binds where the Worker on 127.0.0.1 reaches it.
  export SPARK_LOCAL_IP="${SPARK_LOCAL_IP:-127.0.0.1}"
  where="a pseudo-distributed cluster runs on this machine (jobs/cluster-local.sh status): HDFS, HBase
    master and region server, Spark standalone master and worker; every job went through
    spark-submit --master spark://..., its tasks in the worker's executors, staging on HDFS"
  stop_with="jobs/cluster-local.sh stop"
else
  step "1/13 build (skipped when the jar is up to date) and start the local HBase"
  jobs/hbase-local.sh start
  where="a standalone HBase runs on this machine (ZooKeeper 127.0.0.1:${REKEY_ZK_PORT:-2181}, data in var/hbase)"
  stop_with="jobs/hbase-local.sh stop"
fi

step "2/13 generate demo:messages: $ROWS messages keyed <epoch-millis>_<sender>_<message-id>"
jobs/hbase-rekey.sh generate --job-file conf/jobs/generate-demo.properties --rows "$ROWS" \
  --if-nonempty skip --json var/demo/generate.json

step "3/13 describe demo:messages: one region, no compression, and every new write lands at the end"
jobs/hbase-rekey.sh describe --job-file conf/jobs/describe-demo.properties --json var/demo/describe.json

step "4/13 audit demo:messages: the monotonic key and the hot last key range, and what-if layouts"
jobs/hbase-rekey.sh audit --job-file conf/jobs/audit-demo.properties --json var/demo/audit.json

step "5/13 rekey demo:messages -> demo:messages_salted: salt(16) + sender + reverse_ts(ts) + msgid"
jobs/hbase-rekey.sh rekey --job-file conf/jobs/rekey-demo.properties --json var/demo/rekey.json

step "6/13 describe demo:messages_salted: 16 regions, each holding its share"
jobs/hbase-rekey.sh describe --table demo:messages_salted --json var/demo/describe-rekeyed.json

step "7/13 audit demo:messages_salted: new writes spread over the 16 regions"
jobs/hbase-rekey.sh audit --table demo:messages_salted --out var/audit/demo_messages_salted \
  --json var/demo/audit-rekeyed.json
# The reports are checked in a real headless browser when one is installed (apt-get install chromium).
step "8/13 index build: demo:messages_salted by sender -> demo:messages_by_sender (HFiles + bulk load)"
jobs/hbase-rekey.sh index build --def conf/indexes/demo-messages-by-sender.properties \
  --json var/demo/index-build.json

step "9/13 index lookup: the busiest sender's newest messages; the count must match a filter scan"
jobs/hbase-rekey.sh index lookup --def conf/indexes/demo-messages-by-sender.properties \
  --value user00000 --limit 3 --check-source --json var/demo/index-lookup.json

step "10/13 live migration: 300 new messages and 30 deletes after the copy; rekey sync carries them over"
jobs/hbase-rekey.sh generate --job-file conf/jobs/generate-demo.properties --rows 300 --seed 7 \
  --start-time now --interval-millis 1 --multi-version-percent 0 --delete-rows 30 --if-nonempty append \
  --json var/demo/generate-more.json
sleep 7  # the sync stops the demo's safety lag (5 s) before now; let the new messages pass it
jobs/hbase-rekey.sh rekey sync --job-file conf/jobs/rekey-demo.properties --json var/demo/sync.json

step "11/13 verify demo:messages -> demo:messages_salted again: MATCH, the new writes and deletes included"
jobs/hbase-rekey.sh verify --job-file conf/jobs/verify-demo.properties --json var/demo/verify.json

step "12/13 the switch: 20 messages backfilled with 2-hour-old timestamps (no sync window sees them); writers stop; rekey sync --final --repair"
jobs/hbase-rekey.sh generate --job-file conf/jobs/generate-demo.properties --rows 20 --seed 8 \
  --start-time "$(date -u -d '-2 hours' +%Y-%m-%dT%H:%M:%SZ)" --interval-millis 1 \
  --multi-version-percent 0 --if-nonempty append --json var/demo/generate-backfill.json
sleep 6  # the writers "stop" now; the final window ends the safety lag (5 s) before now
jobs/hbase-rekey.sh rekey sync --final --repair --job-file conf/jobs/rekey-demo.properties \
  --json var/demo/sync-final.json

step "13/13 streaming migration: stream start copies demo:messages into demo:messages_streamed while writers keep writing (new and 2-day-old timestamps, deletes); they stop; stream switch proves the stream drained; turned around, a rollback is one more switch"
for leftover in demo:messages_streamed demo:messages; do  # streams an interrupted run left
  jobs/hbase-rekey.sh stream stop --target "$leftover" >/dev/null 2>&1 || true
done
(
  for batch in "11 now" "12 $(date -u -d '-2 days' +%Y-%m-%dT%H:%M:%SZ)" "13 now"; do
    set -- $batch
    jobs/hbase-rekey.sh generate --job-file conf/jobs/generate-demo.properties --rows 200 --seed "$1" \
      --start-time "$2" --interval-millis 1 --multi-version-percent 0 --delete-rows 10 \
      --if-nonempty append --json "var/demo/generate-during-copy-$1.json"
  done
) > var/demo/writers-during-copy.log 2>&1 &
writers=$!
jobs/hbase-rekey.sh stream start --job-file conf/jobs/rekey-demo.properties \
  --target demo:messages_streamed --json var/demo/stream-start.json
wait "$writers" || { cat var/demo/writers-during-copy.log; exit 1; }
sleep 3  # the writers stopped; the stream ships within seconds
jobs/hbase-rekey.sh verify --job-file conf/jobs/verify-demo.properties --target demo:messages_streamed \
  --live-scan --json var/demo/verify-streamed.json
jobs/hbase-rekey.sh stream switch --target demo:messages_streamed --json var/demo/stream-switch.json
# Turned around before the writers resume on the new table: its edits go back into the old one.
jobs/hbase-rekey.sh stream stop --target demo:messages_streamed --reverse \
  --json var/demo/stream-reverse.json
jobs/hbase-rekey.sh stream switch --target demo:messages --json var/demo/stream-rollback.json
jobs/hbase-rekey.sh stream stop --target demo:messages

for report in var/audit/demo_messages/audit.html var/audit/demo_messages_salted/audit.html; do
  rc=0; jobs/check-report.sh "$report" || rc=$?
  if [ "$rc" = 3 ]; then echo "(browser check of $report skipped: no chromium)"; elif [ "$rc" != 0 ]; then exit "$rc"; fi
done

cat <<TXT

Demo done in $(( SECONDS - started )) s. What happened:
  - $where
  - demo:messages holds messages whose row key starts with the time, so every write goes to the
    last region: 'describe' above flags the single region and the missing compression
  - rekey copied every cell, version and timestamp into demo:messages_salted through HFiles
    and a bulk load, pre-split into 16 salt buckets, and verify proved the copy cell for cell
  - audit found the time-first key (keys follow time, the newest writes all in the last key
    range) before the rekey, and an even spread after it; open the reports in a browser:
      var/audit/demo_messages/audit.html
      var/audit/demo_messages_salted/audit.html
  - index build wrote a sender -> message index (sender + reversed time + message key, with
    the subject and recipient copied in) through HFiles; lookup read the busiest sender's
    newest messages from it and counted as many as a filter scan of the whole table finds
  - then 300 messages were written and 30 deleted in demo:messages, as on a live table;
    'rekey sync' copied the writes and the delete markers since the copy (the watermark that
    rekey recorded) through the key mapping, and verify proved the two tables equal again
  - 20 messages were then backfilled with their own 2-hour-old timestamps, which no time window
    sees; 'rekey sync --final --repair' checked that nothing was written after the stop, copied
    the last window, compared the tables (DIFFERENT: the backfill), repaired exactly those rows,
    compared again (MATCH) and only then said the readers and writers can be switched
  - 'stream start' added a replication peer (disabled), copied demo:messages into
    demo:messages_streamed from a snapshot taken after it, and enabled the peer: the writes made
    during the copy, 2-day-old timestamps included, came from HBase's write-ahead log through the
    key mapping; once the writers stopped, 'stream switch' wrote a fence into the region server's
    WAL, waited for the stream to acknowledge it and said switch in seconds, without comparing
    the tables again; 'stream stop --reverse' then turned the stream around (the new table's
    edits carried back into the old one through the mapping run backwards), so the rollback's
    'stream switch --target demo:messages' was one more switch of seconds
  - JSON results: var/demo/generate.json, describe.json, audit.json, rekey.json,
    describe-rekeyed.json, audit-rekeyed.json, index-build.json, index-lookup.json,
    generate-more.json, sync.json, verify.json, generate-backfill.json, sync-final.json,
    stream-start.json, verify-streamed.json, stream-switch.json, stream-reverse.json,
    stream-rollback.json
Next: jobs/hbase-rekey.sh --help lists the commands; $stop_with stops it.
TXT
