#!/usr/bin/env bash
# Runs one hbase-rekey command as a Spark application:
#
#   jobs/hbase-rekey.sh [SPARK-SUBMIT OPTIONS] COMMAND [OPTIONS]
#
#   jobs/hbase-rekey.sh describe --table demo:messages
#   jobs/hbase-rekey.sh --master yarn --deploy-mode client --executor-memory 8g --num-executors 20 \
#     --conf spark.executor.cores=4 rekey --job-file conf/jobs/rekey-demo.properties
#
# Options before the command word go to spark-submit as they are (--master, --deploy-mode, --conf
# K=V, --driver-memory, --executor-memory, --num-executors, --principal/--keytab, --files, --queue,
# --name, ...); REKEY_SPARK_OPTS="..." holds more, placed first. Options after the command are the
# command's own (its --job-file names a job file). The launcher adds the JDK 17 flags and log settings to
# spark.driver/executor.defaultJavaOptions after any the user set, and ships the executors' log
# settings (conf/log4j2-executor.properties) with --files.
#
# With $SPARK_HOME set it uses $SPARK_HOME/bin/spark-submit (the master from the options or
# spark-defaults.conf); otherwise it runs Spark's SparkSubmit itself, master local[*] unless given.
# Without --zk or --hbase-conf, a running jobs/hbase-local.sh HBase is used.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
  sed -n '2,19s/^# \{0,1\}//p' "$0"
  echo
fi
rekey_run_job "$@"
