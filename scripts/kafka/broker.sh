#!/usr/bin/env bash
# Run a local single-node Apache Kafka 3.9 broker (KRaft, combined broker+controller)
# without Docker. Jars come from Maven Central via ./pom.xml and are cached outside the repo.
#
# Usage: scripts/kafka/broker.sh <command> [args]
#   start              fetch jars if needed, format storage if needed, start, wait until the
#                      broker answers metadata; prints "KAFKA_BROKERS=127.0.0.1:<port>" on stdout
#   stop               SIGTERM, wait up to KAFKA_STOP_TIMEOUT s, then SIGKILL
#   restart            stop + start (data kept)
#   status             exit 0 (and print KAFKA_BROKERS=...) if the broker answers, else exit 1
#   reset              stop and delete the data dir
#   fetch              only download the jars into the cache (e.g. to warm a CI cache)
#   logs [N]           print the last N (default 100) lines of the broker log
#   classpath          print the Java classpath of the cached jars
#   run-class CLASS .. run a Kafka CLI class with the cached jars, e.g.
#                      run-class org.apache.kafka.tools.TopicCommand --bootstrap-server 127.0.0.1:9092 --list
#
# Human-readable progress goes to stderr; stdout only carries the KAFKA_BROKERS line
# (or the output of logs/classpath/run-class). See README.md for the environment variables.
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
POM="$SCRIPT_DIR/pom.xml"

KAFKA_HOST=127.0.0.1
KAFKA_PORT=${KAFKA_PORT:-9092}
KAFKA_CONTROLLER_PORT=${KAFKA_CONTROLLER_PORT:-9093}
KAFKA_NODE_ID=${KAFKA_NODE_ID:-1}
CACHE_DIR=${KAFKA_CACHE_DIR:-${HOME:-/tmp}/.cache/booking-kafka/3.9}
DATA_DIR=${KAFKA_DATA_DIR:-/tmp/booking-kafka-data}
START_TIMEOUT=${KAFKA_START_TIMEOUT:-90}
STOP_TIMEOUT=${KAFKA_STOP_TIMEOUT:-20}
FETCH_TIMEOUT=${KAFKA_FETCH_TIMEOUT:-900}
HEAP_OPTS=${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m}
MVN=${KAFKA_MVN:-mvn}
read -r -a MVN_EXTRA_ARGS <<<"${KAFKA_MVN_ARGS:-}"
if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then JAVA="$JAVA_HOME/bin/java"; else JAVA=java; fi

# Strip trailing slashes so path comparisons / safety checks behave.
while [[ "$DATA_DIR" == */ && "$DATA_DIR" != / ]]; do DATA_DIR=${DATA_DIR%/}; done
while [[ "$CACHE_DIR" == */ && "$CACHE_DIR" != / ]]; do CACHE_DIR=${CACHE_DIR%/}; done

JARS_DIR="$CACHE_DIR/jars"
STAMP_FILE="$CACHE_DIR/jars.stamp"
CACHE_CONF_DIR="$CACHE_DIR/conf"
TOOLS_LOG4J="$CACHE_CONF_DIR/tools-log4j.properties"
PROBE_CONF="$CACHE_CONF_DIR/probe-admin.properties"
LOCK_FILE="$CACHE_DIR/locks/broker-$KAFKA_PORT.lock"

CONF_DIR="$DATA_DIR/config"
SERVER_PROPS="$CONF_DIR/server.properties"
BROKER_LOG4J="$CONF_DIR/log4j.properties"
KRAFT_LOG_DIR="$DATA_DIR/kraft-logs"
PID_FILE="$DATA_DIR/broker.pid"
PORT_FILE="$DATA_DIR/broker.port"
BROKER_LOG="$DATA_DIR/broker.log"
MARKER_FILE="$DATA_DIR/.booking-kafka-data"

BOOTSTRAP="$KAFKA_HOST:$KAFKA_PORT"

log() { printf 'kafka: %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# ---------------------------------------------------------------------------- helpers

validate_env() {
  local v
  for v in KAFKA_PORT KAFKA_CONTROLLER_PORT KAFKA_NODE_ID START_TIMEOUT STOP_TIMEOUT FETCH_TIMEOUT; do
    [[ "${!v}" =~ ^[0-9]+$ ]] || die "$v must be a number (got '${!v}')"
  done
  [[ "$KAFKA_PORT" != "$KAFKA_CONTROLLER_PORT" ]] || die "KAFKA_PORT and KAFKA_CONTROLLER_PORT must differ"
  [[ -n "$DATA_DIR" && "$DATA_DIR" == /* ]] || die "KAFKA_DATA_DIR must be an absolute path (got '$DATA_DIR')"
  [[ -n "$CACHE_DIR" && "$CACHE_DIR" == /* ]] || die "KAFKA_CACHE_DIR must be an absolute path (got '$CACHE_DIR')"
}

# with_timeout SECONDS CMD...: run CMD, kill it if it runs longer (uses coreutils timeout if present).
with_timeout() {
  local secs=$1
  shift
  if command -v timeout >/dev/null 2>&1; then
    timeout -k 5 "$secs" "$@"
  else
    "$@" &
    local pid=$! rc=0 watcher
    (
      trap 'kill "$s" 2>/dev/null; exit 0' TERM
      sleep "$secs" & s=$!
      wait "$s"
      kill -TERM "$pid" 2>/dev/null
      sleep 5 & s=$!
      wait "$s"
      kill -KILL "$pid" 2>/dev/null
    ) >/dev/null 2>&1 &
    watcher=$!
    wait "$pid" || rc=$?
    kill "$watcher" 2>/dev/null || true
    wait "$watcher" 2>/dev/null || true
    return "$rc"
  fi
}

port_open() { # port_open PORT -> 0 if something accepts TCP connections on $KAFKA_HOST:PORT
  # shellcheck disable=SC2016 # expanded by the inner bash
  with_timeout 3 bash -c 'exec 3<>"/dev/tcp/$1/$2"' _ "$KAFKA_HOST" "$1" >/dev/null 2>&1
}

file_hash() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum >/dev/null 2>&1; then shasum -a 256 "$1" | cut -d' ' -f1
  else cksum "$1" | cut -d' ' -f1-2 | tr ' ' '-'
  fi
}

# Take an exclusive lock (per broker port) so concurrent start/stop calls do not race.
acquire_lock() {
  mkdir -p "$(dirname "$LOCK_FILE")"
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$LOCK_FILE"
    flock -w "$1" 9 || die "could not get lock $LOCK_FILE within $1 s (another broker.sh still running?)"
  fi
}

check_java() {
  command -v "$JAVA" >/dev/null 2>&1 || die "java not found (need Java 11+; set JAVA_HOME)"
  local ver major
  ver=$("$JAVA" -version 2>&1 | awk -F'"' '/version/ {print $2; exit}')
  major=${ver%%.*}
  [[ "$major" == 1 ]] && major=$(cut -d. -f2 <<<"$ver")
  if [[ "$major" =~ ^[0-9]+$ ]] && (( major < 11 )); then die "Java $ver is too old; Kafka 3.9 needs Java 11+ (17 recommended)"; fi
}

jars_cached() {
  [[ -f "$STAMP_FILE" && "$(cat "$STAMP_FILE")" == "$(file_hash "$POM")" ]] &&
    compgen -G "$JARS_DIR/kafka_2.13-*.jar" >/dev/null
}

ensure_jars() {
  if ! jars_cached; then
    # Separate lock (fd 8) for the shared jar cache: brokers on different ports share it.
    mkdir -p "$CACHE_DIR/locks"
    if command -v flock >/dev/null 2>&1; then
      exec 8>"$CACHE_DIR/locks/fetch.lock"
      flock -w "$FETCH_TIMEOUT" 8 || die "could not get the jar-cache lock within ${FETCH_TIMEOUT}s"
    fi
  fi
  if ! jars_cached; then
    command -v "$MVN" >/dev/null 2>&1 || die "'$MVN' not found; Maven is needed once to download the Kafka jars"
    mkdir -p "$CACHE_DIR"
    local tmp="$CACHE_DIR/jars.tmp.$$" fetch_log="$CACHE_DIR/fetch.log" t0=$SECONDS
    rm -rf "$tmp"
    mkdir -p "$tmp"
    log "fetching Kafka jars with Maven into $JARS_DIR (one-time, timeout ${FETCH_TIMEOUT}s) ..."
    if ! with_timeout "$FETCH_TIMEOUT" "$MVN" -B -q -Dstyle.color=never -f "$POM" \
      ${MVN_EXTRA_ARGS[@]+"${MVN_EXTRA_ARGS[@]}"} \
      dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$tmp" \
      </dev/null >"$fetch_log" 2>&1; then
      tail -n 30 "$fetch_log" >&2 || true
      rm -rf "$tmp"
      die "Maven could not fetch the Kafka jars (full log: $fetch_log)"
    fi
    compgen -G "$tmp/kafka_2.13-*.jar" >/dev/null || { rm -rf "$tmp"; die "Maven finished but kafka_2.13 jar is missing (see $fetch_log)"; }
    rm -rf "$JARS_DIR"
    mv "$tmp" "$JARS_DIR"
    file_hash "$POM" >"$STAMP_FILE"
    log "fetched $(find "$JARS_DIR" -name '*.jar' | wc -l | tr -d ' ') jars ($(du -sh "$JARS_DIR" | cut -f1)) in $((SECONDS - t0)) s"
  fi
  exec 8>&- # release the jar-cache lock (no-op if never taken)
  ensure_tool_conf
}

write_atomic() { # write_atomic FILE  (content from stdin)
  local tmp="$1.tmp.$$"
  cat >"$tmp"
  mv -f "$tmp" "$1"
}

ensure_tool_conf() {
  mkdir -p "$CACHE_CONF_DIR"
  [[ -f "$TOOLS_LOG4J" ]] || write_atomic "$TOOLS_LOG4J" <<'EOF'
log4j.rootLogger=WARN, stderr
log4j.appender.stderr=org.apache.log4j.ConsoleAppender
log4j.appender.stderr.layout=org.apache.log4j.PatternLayout
log4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.appender.stderr.Target=System.err
EOF
  # Short client timeouts so a probe against a dead/half-started broker fails fast.
  [[ -f "$PROBE_CONF" ]] || write_atomic "$PROBE_CONF" <<'EOF'
request.timeout.ms=5000
default.api.timeout.ms=10000
socket.connection.setup.timeout.ms=2000
socket.connection.setup.timeout.max.ms=5000
EOF
}

# Command prefix for short-lived CLI tools (small heap, fast JIT start).
tool_java() {
  TOOL_CMD=("$JAVA" -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true
    "-Dlog4j.configuration=file:$TOOLS_LOG4J" -cp "$JARS_DIR/*")
}

# 0 if the broker answers a metadata request (list topics) on $BOOTSTRAP.
probe() {
  local secs=${1:-30}
  ((secs < 5)) && secs=5
  port_open "$KAFKA_PORT" || return 1
  jars_cached || return 1
  ensure_tool_conf
  tool_java
  with_timeout "$secs" "${TOOL_CMD[@]}" org.apache.kafka.tools.TopicCommand \
    --bootstrap-server "$BOOTSTRAP" --command-config "$PROBE_CONF" --list </dev/null >/dev/null 2>&1
}

is_alive() { # alive and not a zombie
  kill -0 "$1" 2>/dev/null || return 1
  local st
  st=$(ps -o stat= -p "$1" 2>/dev/null || true)
  [[ -n "$st" && "$st" != Z* ]]
}

# Prints the pid of the broker started from this data dir, or returns 1.
our_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid args
  pid=$(tr -dc '0-9' <"$PID_FILE")
  [[ -n "$pid" ]] || return 1
  is_alive "$pid" || return 1
  args=$(ps -o args= -p "$pid" 2>/dev/null || true)
  [[ "$args" == *kafka.Kafka* && "$args" == *"$SERVER_PROPS"* ]] || return 1
  echo "$pid"
}

print_brokers() { echo "KAFKA_BROKERS=$BOOTSTRAP"; }

show_log_tail() {
  if [[ -s "$BROKER_LOG" ]]; then
    log "last 30 lines of $BROKER_LOG:"
    tail -n 30 "$BROKER_LOG" >&2 || true
  else
    log "(broker log $BROKER_LOG is empty or missing)"
  fi
}

# Refuse to touch a directory that we did not create (protects against KAFKA_DATA_DIR=~ etc).
check_data_dir_is_ours() {
  [[ "$DATA_DIR" != / && "$DATA_DIR" != "${HOME:-}" ]] || die "refusing to use KAFKA_DATA_DIR=$DATA_DIR"
  if [[ -d "$DATA_DIR" && ! -f "$MARKER_FILE" ]] && [[ -n "$(ls -A "$DATA_DIR" 2>/dev/null)" ]]; then
    die "$DATA_DIR exists, is not empty and was not created by broker.sh (no $(basename "$MARKER_FILE")); pick another KAFKA_DATA_DIR"
  fi
}

gen_cluster_id() { # same shape as `kafka-storage random-uuid`: 16 random bytes, base64url, no padding
  local id
  while :; do
    id=$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')
    # Kafka never hands out ids starting with '-' (they look like CLI flags).
    [[ ${#id} -eq 22 && "$id" != -* ]] && { echo "$id"; return 0; }
  done
}

write_broker_config() {
  mkdir -p "$CONF_DIR" "$KRAFT_LOG_DIR"
  write_atomic "$SERVER_PROPS" <<EOF
# Generated by scripts/kafka/broker.sh - rewritten on every start, do not edit.
process.roles=broker,controller
node.id=$KAFKA_NODE_ID
controller.quorum.voters=$KAFKA_NODE_ID@$KAFKA_HOST:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://$KAFKA_HOST:$KAFKA_PORT,CONTROLLER://$KAFKA_HOST:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$KAFKA_HOST:$KAFKA_PORT
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$KRAFT_LOG_DIR
num.partitions=3
auto.create.topics.enable=true
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
min.insync.replicas=1
default.replication.factor=1
group.initial.rebalance.delay.ms=0
num.network.threads=3
num.io.threads=8
log.retention.hours=168
log.segment.bytes=1073741824
log.retention.check.interval.ms=300000
EOF
  write_atomic "$BROKER_LOG4J" <<'EOF'
# Everything goes to stdout, which broker.sh redirects to <data dir>/broker.log.
log4j.rootLogger=INFO, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka=INFO
log4j.logger.org.apache.kafka=INFO
log4j.logger.kafka.request.logger=WARN
log4j.logger.kafka.network.RequestChannel$=WARN
log4j.logger.kafka.log.LogCleaner=INFO
log4j.logger.state.change.logger=INFO
log4j.logger.kafka.authorizer.logger=INFO
log4j.logger.org.apache.zookeeper=WARN
EOF
}

format_storage_if_needed() {
  [[ -f "$KRAFT_LOG_DIR/meta.properties" ]] && return 0
  local cid
  cid=$(gen_cluster_id)
  log "formatting storage in $KRAFT_LOG_DIR (cluster id $cid)"
  tool_java
  if ! with_timeout 60 "${TOOL_CMD[@]}" kafka.tools.StorageTool format -t "$cid" -c "$SERVER_PROPS" \
    </dev/null >"$DATA_DIR/format.log" 2>&1; then
    cat "$DATA_DIR/format.log" >&2 || true
    die "kafka-storage format failed"
  fi
}

launch_broker() {
  [[ -f "$BROKER_LOG" ]] && mv -f "$BROKER_LOG" "$BROKER_LOG.1"
  rm -f "$PID_FILE"
  local detach=()
  command -v setsid >/dev/null 2>&1 && detach=(setsid)
  # The inner bash writes its own pid and then execs java, so the pid file is the JVM's pid
  # even if setsid had to fork. fds 8/9 (our locks) are closed so the broker does not hold it.
  # shellcheck disable=SC2086,SC2016 # HEAP_OPTS is word-split on purpose; $$/$1 are for the inner bash
  nohup ${detach[@]+"${detach[@]}"} bash -c 'echo $$ >"$1"; shift; exec "$@"' _ "$PID_FILE" \
    "$JAVA" $HEAP_OPTS -server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 \
    -XX:+ExplicitGCInvokesConcurrent -Djava.awt.headless=true \
    "-Dlog4j.configuration=file:$BROKER_LOG4J" "-Dkafka.logs.dir=$DATA_DIR" \
    -cp "$JARS_DIR/*" kafka.Kafka "$SERVER_PROPS" \
    </dev/null >>"$BROKER_LOG" 2>&1 8>&- 9>&- &
  for _ in $(seq 1 50); do
    [[ -s "$PID_FILE" ]] && break
    sleep 0.1
  done
  [[ -s "$PID_FILE" ]] || die "broker process did not start (no pid file)"
  echo "$KAFKA_PORT" >"$PORT_FILE"
}

# wait_ready PID: wait until the broker answers, the process dies, or START_TIMEOUT passes.
wait_ready() {
  local pid=$1 deadline=$((SECONDS + START_TIMEOUT)) left
  while ((SECONDS < deadline)); do
    is_alive "$pid" || { log "broker process $pid exited during startup"; return 1; }
    if port_open "$KAFKA_PORT"; then
      left=$((deadline - SECONDS))
      probe "$((left < 30 ? left : 30))" && return 0
    fi
    sleep 0.5
  done
  log "broker did not answer on $BOOTSTRAP within ${START_TIMEOUT}s"
  return 1
}

stop_pid() { # stop_pid PID
  local pid=$1 deadline
  log "stopping broker (pid $pid) ..."
  kill -TERM "$pid" 2>/dev/null || true
  deadline=$((SECONDS + STOP_TIMEOUT))
  while is_alive "$pid" && ((SECONDS < deadline)); do sleep 0.25; done
  if is_alive "$pid"; then
    log "broker did not exit within ${STOP_TIMEOUT}s, sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    deadline=$((SECONDS + 10))
    while is_alive "$pid" && ((SECONDS < deadline)); do sleep 0.25; done
    is_alive "$pid" && die "could not kill broker pid $pid"
  fi
  wait "$pid" 2>/dev/null || true # reap if it happens to be our child
  # The JVM can look dead (zombie leader) a moment before its sockets are closed.
  deadline=$((SECONDS + 10))
  while (port_open "$KAFKA_PORT" || port_open "$KAFKA_CONTROLLER_PORT") && ((SECONDS < deadline)); do sleep 0.2; done
  log "stopped"
}

# ---------------------------------------------------------------------------- commands

do_start() {
  local pid running_port
  if pid=$(our_pid); then
    running_port=$(cat "$PORT_FILE" 2>/dev/null || echo "$KAFKA_PORT")
    [[ "$running_port" == "$KAFKA_PORT" ]] ||
      die "broker from $DATA_DIR already runs on port $running_port (pid $pid); stop it first or use another KAFKA_DATA_DIR"
    if probe; then
      log "already running (pid $pid)"
      print_brokers
      return 0
    fi
    log "broker pid $pid is running but not answering yet; waiting up to ${START_TIMEOUT}s"
    wait_ready "$pid" || { show_log_tail; exit 1; }
    print_brokers
    return 0
  fi
  rm -f "$PID_FILE"

  if port_open "$KAFKA_PORT"; then
    if probe; then
      log "WARNING: a Kafka broker not started from $DATA_DIR already answers on $BOOTSTRAP; using it"
      print_brokers
      return 0
    fi
    die "port $KAFKA_PORT is in use by something that does not answer as a Kafka broker"
  fi
  port_open "$KAFKA_CONTROLLER_PORT" && die "controller port $KAFKA_CONTROLLER_PORT is already in use (set KAFKA_CONTROLLER_PORT)"

  check_data_dir_is_ours
  mkdir -p "$DATA_DIR"
  touch "$MARKER_FILE"
  write_broker_config
  format_storage_if_needed

  local t0=$SECONDS
  launch_broker
  pid=$(tr -dc '0-9' <"$PID_FILE")
  log "started broker pid $pid (data: $DATA_DIR, log: $BROKER_LOG); waiting for it to answer ..."
  if ! wait_ready "$pid"; then
    show_log_tail
    is_alive "$pid" && stop_pid "$pid"
    rm -f "$PID_FILE"
    exit 1
  fi
  log "ready after $((SECONDS - t0)) s"
  print_brokers
}

do_stop() {
  local pid
  if pid=$(our_pid); then
    stop_pid "$pid"
  else
    log "not running (data dir $DATA_DIR)"
  fi
  rm -f "$PID_FILE" "$PORT_FILE"
}

cmd_start() {
  validate_env
  check_java
  acquire_lock $((FETCH_TIMEOUT + START_TIMEOUT + 60))
  ensure_jars
  do_start
}

cmd_stop() {
  validate_env
  acquire_lock $((START_TIMEOUT + STOP_TIMEOUT + 60))
  do_stop
}

cmd_restart() {
  validate_env
  check_java
  acquire_lock $((FETCH_TIMEOUT + START_TIMEOUT + STOP_TIMEOUT + 60))
  ensure_jars
  do_stop
  do_start
}

cmd_status() {
  validate_env
  local pid=""
  pid=$(our_pid) || pid=""
  if probe 20; then
    if [[ -n "$pid" ]]; then log "running (pid $pid, data $DATA_DIR)"; else log "a broker answers on $BOOTSTRAP but was not started from $DATA_DIR"; fi
    print_brokers
    return 0
  fi
  if [[ -n "$pid" ]]; then log "process $pid is running but the broker does not answer on $BOOTSTRAP"; else log "not running"; fi
  return 1
}

cmd_reset() {
  validate_env
  acquire_lock $((START_TIMEOUT + STOP_TIMEOUT + 60))
  do_stop
  if [[ -d "$DATA_DIR" ]]; then
    check_data_dir_is_ours
    rm -rf "$DATA_DIR"
    log "deleted $DATA_DIR"
  fi
}

cmd_fetch() {
  validate_env
  check_java
  ensure_jars
  log "jars cached in $JARS_DIR"
}

cmd_logs() {
  local n=${1:-100}
  [[ -f "$BROKER_LOG" ]] || die "no broker log at $BROKER_LOG"
  tail -n "$n" "$BROKER_LOG"
}

cmd_classpath() {
  validate_env
  jars_cached || ensure_jars >&2
  echo "$JARS_DIR/*"
}

cmd_run_class() {
  [[ $# -ge 1 ]] || die "usage: broker.sh run-class <main class> [args...]"
  validate_env
  check_java
  jars_cached || ensure_jars
  ensure_tool_conf
  tool_java
  exec "${TOOL_CMD[@]}" "$@"
}

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//' >&2
}

main() {
  local cmd=${1:-}
  [[ $# -gt 0 ]] && shift
  case "$cmd" in
    start) cmd_start ;;
    stop) cmd_stop ;;
    restart) cmd_restart ;;
    status) cmd_status ;;
    reset) cmd_reset ;;
    fetch) cmd_fetch ;;
    logs) cmd_logs "$@" ;;
    classpath) cmd_classpath ;;
    run-class) cmd_run_class "$@" ;;
    -h | --help | help) usage ;;
    *) usage; exit 2 ;;
  esac
}

main "$@"
