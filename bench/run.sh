#!/usr/bin/env bash
# Side-by-side SQS benchmarks: Hikyaku (durable and --storage memory), ElasticMQ 1.7.1 (in-memory
# and H2-persisted) and nginx (fixed 200 JSON: the ceiling of HTTP request handling), one server
# at a time on 127.0.0.1, the server order rotated every round. Every server is started and
# stopped here; every run is bounded in time. Results: bench/results/<date>-<scenario>.txt,
# then a table of medians and ratios. Installs nothing outside bench/work except via Maven.
# Server `nginx-paced` (not in the default list) is nginx again, sent to at the request rate the
# durable `hikyaku` reached in its last `send` of this run: nginx's CPU per request at equal load.
# Servers `hikyaku-sigv4` and `hikyaku-memory-sigv4` (not in the default list) are `hikyaku` and
# `hikyaku-memory` with --auth sigv4 (bench/auth/identities.yaml). The client signs every request
# (--sigv4) to every server but nginx, as SDKs do (BENCH_SIGN=verified: only to the *-sigv4 servers).
# Servers `hikyaku-nometrics` and `hikyaku-memory-nometrics` (not in the default list) are
# `hikyaku` and `hikyaku-memory` with --metrics off: beside them they show what metrics cost.
# Servers `hikyaku-sigv4-user` and `hikyaku-memory-sigv4-user` are the *-sigv4 servers with the client
# signing as the configured user `bench` (an identity policy to evaluate) instead of the account root.
# Servers `hikyaku-base-memory`, `hikyaku-base-memory-sigv4` and `hikyaku-base-memory-sigv4-user` are the
# memory servers of the build in BENCH_BASE_ROOT (before/after side by side, as `hikyaku-base`).
# BENCH_BASELINE names the server the summary's ratios are against (default elasticmq-memory).
#
# usage: bench/run.sh [--scenarios "send cycle ..."] [--servers "hikyaku ..."] [--rounds 3]
#                     [--duration 10] [--warmup 30] [--backlog-n 1000000] [--startup-n 1000000] [--waiters 10000]
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
WORK="$ROOT/bench/work"
JAR="$ROOT/bench/target/hikyaku-bench.jar"
EMQ_LIB="$WORK/elasticmq"

SCENARIOS="send send-single cycle cycle-at-rate fifo backlog longpoll startup idle"
SERVERS="hikyaku hikyaku-memory elasticmq-memory elasticmq-h2 nginx"
ROUNDS=3
DURATION=10
# In-process warm-up before each measured window: every run is a fresh client JVM, and on 2
# shared cores C2 keeps compiling for ~20 s of load (jstat -compiler) before client and server reach
# their steady state. Fresh durable server and client, cycle: 7.3k msgs/s at 151-167 us/msg after
# 10 s of warm-up, 17.0-20.4k at 51-67 us/msg after 30 s (session 6).
WARMUP=30
BACKLOG_N=1000000
STARTUP_N=1000000
WAITERS=10000
PORT=${BENCH_PORT:-19324}
while [ $# -gt 0 ]; do
  case "$1" in
    --scenarios) SCENARIOS="$2"; shift 2 ;;
    --servers) SERVERS="$2"; shift 2 ;;
    --rounds) ROUNDS="$2"; shift 2 ;;
    --duration) DURATION="$2"; shift 2 ;;
    --warmup) WARMUP="$2"; shift 2 ;;
    --backlog-n) BACKLOG_N="$2"; shift 2 ;;
    --startup-n) STARTUP_N="$2"; shift 2 ;;
    --waiters) WAITERS="$2"; shift 2 ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

mkdir -p "$WORK/logs" "$WORK/data"
LOG="$WORK/logs"
export BENCH_SERVER_LOG="$LOG/startup-idle.log"
ENDPOINT="http://127.0.0.1:$PORT"
SERVER_PID=""
WRAPPER_PID=""

log() { echo "[$(date -u +%H:%M:%S)] $*" >&2; }

# ---- prerequisites (Maven only) ----
if [ ! -f "$JAR" ]; then
  log "building the bench jar"
  mvn -B -q -pl bench -am package -DskipTests
fi
if ! ls "$EMQ_LIB"/elasticmq-server_2.13-1.7.1.jar >/dev/null 2>&1; then
  log "fetching ElasticMQ 1.7.1 jars into $EMQ_LIB"
  mvn -B -q -f bench/elasticmq/pom.xml dependency:copy-dependencies -DoutputDirectory="$EMQ_LIB"
fi
HAVE_HIKYAKU=0
SIGV4_ARGS="--auth sigv4 --config '$ROOT/bench/auth/identities.yaml'"
# The keys of bench/auth/identities.yaml, for the client's --sigv4 against the *-sigv4 servers.
BENCH_KEY_ID=AKIABENCHROOT0000001
BENCH_SECRET="bench/secret/0123456789abcdefghijklmnopqr"
BENCH_USER_KEY_ID=AKIABENCHUSER0000001
BENCH_USER_SECRET="bench/user/secret/0123456789abcdefghijkl"
if [ -x "$ROOT/hikyaku" ] && [ -f "$ROOT/server/target/hikyaku.jar" ]; then HAVE_HIKYAKU=1; fi

# ---- how each server starts (a command line; data dir per round, fresh) ----
server_cmd() { # name datadir
  local name="$1" data="$2"
  case "$name" in
    hikyaku) echo "exec '$ROOT/hikyaku' serve --port $PORT --data-dir '$data'" ;;
    # Not a target mode: the same on-disk store with the WAL synced every 10 ms instead of before each
    # acknowledgement. Run beside `hikyaku` it shows what the per-request fsync costs (not in SERVERS).
    # The durable server of another build (BENCH_BASE_ROOT: a source tree with server/target/hikyaku.jar
    # built, e.g. main's commit), for before/after figures side by side in one run (not in SERVERS).
    hikyaku-base) echo "exec '${BENCH_BASE_ROOT:?set BENCH_BASE_ROOT}/hikyaku' serve --port $PORT --data-dir '$data'" ;;
    hikyaku-batch) echo "exec '$ROOT/hikyaku' serve --port $PORT --data-dir '$data' --durability batch" ;;
    # Memory mode keeps every body on the heap (~0.7 KiB per 256 B message); a 40 s send run at
    # 50k msgs/s stores 2M before it drains, more than the launcher's default -Xmx1g. ElasticMQ
    # runs with the JVM's default heap, a quarter of RAM (6 GiB here).
    # *-nosse: the same server; the client creates its queues with SqsManagedSseEnabled=false (client_props), so
    # beside the plain name (SSE-SQS, the default) they show what encryption at rest costs.
    hikyaku-memory|hikyaku-memory-nosse) echo "JAVA_OPTS='-Xmx4g ${JAVA_OPTS:-}' exec '$ROOT/hikyaku' serve --port $PORT --storage memory" ;;
    # The same two with authentication on: every request SigV4-verified against bench/auth/identities.yaml
    # (the client signs with --sigv4). Beside `hikyaku` / `hikyaku-memory` they show what auth costs.
    hikyaku-sigv4|hikyaku-sigv4-user) echo "exec '$ROOT/hikyaku' serve --port $PORT --data-dir '$data' $SIGV4_ARGS" ;;
    hikyaku-memory-sigv4|hikyaku-memory-sigv4-user) echo "JAVA_OPTS='-Xmx4g ${JAVA_OPTS:-}' exec '$ROOT/hikyaku' serve --port $PORT --storage memory $SIGV4_ARGS" ;;
    # The memory servers of another build (BENCH_BASE_ROOT, as hikyaku-base), auth off and on, for before/after
    # figures of authentication's cost side by side in one run (not in SERVERS).
    hikyaku-base-memory|hikyaku-base-memory-nosse) echo "JAVA_OPTS='-Xmx4g ${JAVA_OPTS:-}' exec '${BENCH_BASE_ROOT:?set BENCH_BASE_ROOT}/hikyaku' serve --port $PORT --storage memory" ;;
    hikyaku-base-memory-sigv4|hikyaku-base-memory-sigv4-user) echo "JAVA_OPTS='-Xmx4g ${JAVA_OPTS:-}' exec '${BENCH_BASE_ROOT:?set BENCH_BASE_ROOT}/hikyaku' serve --port $PORT --storage memory $SIGV4_ARGS" ;;
    # The same two with metrics off: nothing recorded per request (docs/operations.md "Monitoring").
    hikyaku-nometrics) echo "exec '$ROOT/hikyaku' serve --port $PORT --data-dir '$data' --metrics off" ;;
    hikyaku-memory-nometrics) echo "JAVA_OPTS='-Xmx4g ${JAVA_OPTS:-}' exec '$ROOT/hikyaku' serve --port $PORT --storage memory --metrics off" ;;
    elasticmq-memory|elasticmq-h2)
      local conf=memory extra=""
      if [ "$name" = elasticmq-h2 ]; then
        conf=h2
        extra="-Dmessages-storage.uri=jdbc:h2:$data/elasticmq-h2 -Dqueues-storage.path=$data/queues.conf"
      fi
      # max-connections raised from pekko's 1024 so the 10k long-poll waiters can connect at all.
      echo "exec java -Dconfig.file='$ROOT/bench/elasticmq/$conf.conf'" \
        "-Dlogback.configurationFile='$ROOT/bench/elasticmq/logback.xml'" \
        "-Drest-sqs.bind-port=$PORT -Dnode-address.port=$PORT -Dpekko.http.server.max-connections=20000" \
        "$extra -cp '$EMQ_LIB/*' org.elasticmq.server.Main" ;;
    nginx|nginx-paced)
      mkdir -p "$WORK/nginx"
      sed -e "s#@PORT@#$PORT#g; s#@WORK@#$WORK/nginx#g" bench/nginx/nginx.conf.template > "$WORK/nginx/nginx.conf"
      echo "exec /usr/sbin/nginx -e '$WORK/nginx/error.log' -p '$WORK/nginx' -c '$WORK/nginx/nginx.conf'" ;;
    *) echo "unknown server $name" >&2; return 1 ;;
  esac
}

available() {
  case "$1" in
    hikyaku|hikyaku-memory|hikyaku-memory-nosse|hikyaku-batch|hikyaku-sigv4|hikyaku-memory-sigv4|hikyaku-sigv4-user|hikyaku-memory-sigv4-user|hikyaku-nometrics|hikyaku-memory-nometrics) [ "$HAVE_HIKYAKU" = 1 ] ;;
    nginx|nginx-paced) [ -x /usr/sbin/nginx ] ;;
    hikyaku-base|hikyaku-base-memory|hikyaku-base-memory-nosse|hikyaku-base-memory-sigv4|hikyaku-base-memory-sigv4-user) [ -n "${BENCH_BASE_ROOT:-}" ] && [ -f "$BENCH_BASE_ROOT/server/target/hikyaku.jar" ] ;;
    *) true ;;
  esac
}

is_nginx() { [ "$1" = nginx ] || [ "$1" = nginx-paced ]; }

# requests/s of the last durable `hikyaku` send of this run (empty if none yet), for nginx-paced.
hikyaku_send_rate() { # scenario
  cat bench/results/*-"$1".txt 2>/dev/null \
    | awk -v since="$STARTED" -v sc="scenario=$1" '$1 >= since && $2 == sc && $3 == "server=hikyaku"' \
    | tail -1 | grep -o 'requests_s=[0-9]*' | cut -d= -f2 || true
}

signed() { case "$1" in *-sigv4|*-sigv4-user) true ;; *) false ;; esac; }

# JVM properties of the client for a server: *-nosse queues are created with SSE off (docs/benchmarks.md).
client_props() { case "$1" in *-nosse) echo "-Dhikyaku.bench.queueAttributes=SqsManagedSseEnabled=false" ;; esac; }

# The client's signing flag and keys. The client signs every request to every SQS server, as real
# SDKs do, also when the server verifies nothing (auth none, ElasticMQ): the client shares the 2 cores
# with the server, so signing only for the *-sigv4 servers charged them the client's signing too
# (issue 35: ~1.4 us/msg of client CPU on cycle). nginx (a fixed answer, the HTTP ceiling) gets the
# unsigned request. BENCH_SIGN=verified signs only for the *-sigv4 servers (results before 2026-12-07 08:30).
client() { # server java-args...
  local server="$1"; shift
  if [[ "$server" == *-sigv4-user ]]; then
    AWS_ACCESS_KEY_ID="$BENCH_USER_KEY_ID" AWS_SECRET_ACCESS_KEY="$BENCH_USER_SECRET" AWS_REGION=us-east-1 "$@" --sigv4
  elif signed "$server" || { [ "${BENCH_SIGN:-all}" = all ] && ! is_nginx "$server"; }; then
    AWS_ACCESS_KEY_ID="$BENCH_KEY_ID" AWS_SECRET_ACCESS_KEY="$BENCH_SECRET" AWS_REGION=us-east-1 "$@" --sigv4
  else "$@"; fi
}

durable() { [ "$1" = hikyaku ] || [ "$1" = hikyaku-base ] || [ "$1" = hikyaku-sigv4 ] || [ "$1" = hikyaku-sigv4-user ] || [ "$1" = hikyaku-batch ] || [ "$1" = hikyaku-nometrics ] || [ "$1" = elasticmq-h2 ]; }

# The JVM (or nginx) itself, also when started through a wrapper script.
resolve_pid() {
  local pid="$1" comm
  for _ in $(seq 1 50); do
    comm="$(cat /proc/$pid/comm 2>/dev/null || true)"
    if [ "$comm" = java ] || [ "$comm" = nginx ]; then echo "$pid"; return; fi
    local child; child="$(pgrep -P "$pid" | head -1 || true)"
    if [ -n "$child" ]; then pid="$child"; else sleep 0.1; fi
  done
  echo "$1"
}

ready() { # server
  # With auth on, an unsigned call is refused: the health endpoint says the server is up.
  if signed "$1"; then curl -sf -o /dev/null "$ENDPOINT/health" 2>/dev/null; return; fi
  curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/x-amz-json-1.0' \
    -H 'X-Amz-Target: AmazonSQS.ListQueues' -d '{}' "$ENDPOINT/" 2>/dev/null | grep -q '^200$'
}

start_server() { # name datadir
  local cmd; cmd="$(server_cmd "$1" "$2")"
  bash -c "$cmd" >> "$LOG/$1.log" 2>&1 &
  WRAPPER_PID=$!
  for _ in $(seq 1 600); do
    if ready "$1"; then SERVER_PID="$(resolve_pid "$WRAPPER_PID")"; return 0; fi
    if ! kill -0 "$WRAPPER_PID" 2>/dev/null; then log "$1 exited during startup (see $LOG/$1.log)"; return 1; fi
    sleep 0.1
  done
  log "$1 not ready after 60 s"; stop_server; return 1
}

stop_server() {
  [ -n "$WRAPPER_PID" ] || return 0
  local pids="$WRAPPER_PID $SERVER_PID"
  kill $pids 2>/dev/null || true
  for _ in $(seq 1 150); do
    local alive=0
    for p in $pids; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  kill -9 $pids 2>/dev/null || true
  wait "$WRAPPER_PID" 2>/dev/null || true
  WRAPPER_PID=""; SERVER_PID=""
}
trap stop_server EXIT
# a stop signal ends the run (the EXIT trap then stops the server), not only the server of this round
trap 'exit 143' INT TERM

bench() { # server scenario extra-args...
  local server="$1" scenario="$2"; shift 2
  # shellcheck disable=SC2046
  client "$server" timeout 900 java $(client_props "$server") -jar "$JAR" run --endpoint "$ENDPOINT" --server "$server" --scenario "$scenario" \
    --duration "$DURATION" --warmup "$WARMUP" --results bench/results "$@" || log "run $scenario on $server failed"
}

# Scenarios that need the server running (started by this script). The light ones share one
# server start; backlog and longpoll each get a fresh server so memory figures are their own.
LIVE_GROUPS=("send send-single cycle cycle-at-rate fifo" "backlog" "longpoll")

run_live() { # server round datadir "scenarios"
  local server="$1" round="$2" data="$3" live=""
  for s in $4; do
    case " $SCENARIOS " in *" $s "*) ;; *) continue ;; esac
    if is_nginx "$server" && [ "$s" != send ] && [ "$s" != send-single ]; then continue; fi
    live="$live $s"
  done
  [ -n "$live" ] || return 0
  log "round $round: $server:$live"
  rm -rf "$data"; mkdir -p "$data"
  start_server "$server" "$data" || return 0
  # Unmeasured warm-up so both the client's and the server's JIT are past the cold start.
  if ! is_nginx "$server"; then
    # shellcheck disable=SC2046
    client "$server" java $(client_props "$server") -jar "$JAR" run --endpoint "$ENDPOINT" --server "$server" --scenario cycle --duration 3 --warmup 0 \
      --results "$WORK/warmup" > /dev/null 2>&1 || true
  fi
  for s in $live; do
    case "$s" in
      send|send-single)
        if [ "$server" = nginx ]; then bench "$server" "$s" --server-pid "$SERVER_PID" --ceiling
        elif [ "$server" = nginx-paced ]; then
          local rate; rate="$(hikyaku_send_rate "$s")"
          if [ -n "$rate" ]; then bench "$server" "$s" --server-pid "$SERVER_PID" --ceiling --send-rate "$rate"
          else log "nginx-paced: no hikyaku $s in this run yet, skipped"; fi
        else bench "$server" "$s" --server-pid "$SERVER_PID"; fi ;;
      backlog) bench "$server" backlog --server-pid "$SERVER_PID" --messages "$BACKLOG_N" --drain-timeout 600 ;;
      longpoll) bench "$server" longpoll --server-pid "$SERVER_PID" --waiters "$WAITERS" --rate 100 ;;
      *) bench "$server" "$s" --server-pid "$SERVER_PID" ;;
    esac
  done
  stop_server
}

run_round_on() { # server round
  local server="$1" round="$2" data="$WORK/data/$1-r$2"
  for group in "${LIVE_GROUPS[@]}"; do
    run_live "$server" "$round" "$data" "$group"
  done
  is_nginx "$server" && return 0
  if [[ " $SCENARIOS " == *" idle "* ]]; then
    rm -rf "$data"; mkdir -p "$data"
    bench "$server" idle --server-cmd "$(server_cmd "$server" "$data")" --settle 5
  fi
  if [[ " $SCENARIOS " == *" startup "* ]]; then
    rm -rf "$data"; mkdir -p "$data"
    bench "$server" startup --server-cmd "$(server_cmd "$server" "$data")"
    if durable "$server"; then
      log "round $round: $server: preloading $STARTUP_N messages for startup-with-data"
      if start_server "$server" "$data"; then
        bench "$server" preload --server-pid "$SERVER_PID" --messages "$STARTUP_N" --queue-name bench-stored \
          --drain-timeout 600
        stop_server
        bench "$server" startup --label startup-stored --queue-name bench-stored --messages "$STARTUP_N" \
          --drain-timeout 600 --server-cmd "$(server_cmd "$server" "$data")"
      fi
    fi
  fi
  rm -rf "$data"
}

STARTED="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
ACTIVE=""
for s in $SERVERS; do
  if available "$s"; then ACTIVE="$ACTIVE $s"; else log "skipping $s (not available)"; fi
done
read -r -a LIST <<< "$ACTIVE"
for round in $(seq 1 "$ROUNDS"); do
  n=${#LIST[@]}
  for i in $(seq 0 $((n - 1))); do
    # rotate the order each round so no server always runs first (or last) on a noisy machine
    run_round_on "${LIST[$(( (i + round - 1) % n ))]}" "$round"
  done
done

log "summary of runs since $STARTED (medians; ratios against ${BENCH_BASELINE:-elasticmq-memory})"
java -jar "$JAR" summarize --results bench/results --since "$STARTED" --baseline "${BENCH_BASELINE:-elasticmq-memory}" \
  | tee "$WORK/last-summary.md"
