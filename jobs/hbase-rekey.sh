#!/usr/bin/env bash
# Runs one hbase-rekey command as a Spark application:
#   jobs/hbase-rekey.sh describe --table demo:messages
#   jobs/hbase-rekey.sh generate --conf conf/jobs/generate-demo.properties
# With $SPARK_HOME set it uses $SPARK_HOME/bin/spark-submit (REKEY_MASTER picks the master);
# otherwise it runs Spark's SparkSubmit itself with --master local[*]. Without --zk or
# --hbase-conf, a running jobs/hbase-local.sh HBase is used.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
rekey_run_job "$@"
