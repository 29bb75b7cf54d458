#!/usr/bin/env bash
# Engine shards: does a second engine shard let two accounts' queues run in parallel on this machine?
# One server per run (memory or durable storage), driven by the `cycle` scenario:
#   one-queue    : one client (8 producers, 8 consumers), account 000000000000, --engine-shards 1
#   two-shards1  : two clients at once (4+4 each), accounts 000000000000 and 333333333333 (which fall on
#                  different shards of two), --engine-shards 1: both accounts share one engine thread
#   two-shards2  : the same two clients, --engine-shards 2: each account on its own engine thread
# Rounds alternate the three. Each client signs with SigV4 (auth none on the server: the access key
# id picks the account). Prints per-run combined msgs/s and server CPU per message; raw result lines
# go to bench/results/$(date)-engine-shards-raw.txt.
#
# usage: bench/shards/run.sh [ROUNDS=3] [STORAGE=memory|durable] [DURATION=20]
set -euo pipefail
ROUNDS="${1:-3}"; STORAGE="${2:-memory}"; DURATION="${3:-20}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
JAR="$ROOT/bench/target/hikyaku-bench.jar"
PORT="${PORT:-19391}"
RAW="$ROOT/bench/results/$(date -u +%Y-%m-%d)-engine-shards-raw.txt"
[ -f "$JAR" ] || (cd "$ROOT" && mvn -B -q -o -pl bench -am package -DskipTests)
[ -f "$ROOT/server/target/hikyaku.jar" ] || (cd "$ROOT" && mvn -B -q -o -pl server -am package -DskipTests)
WORK="$(mktemp -d /tmp/engine-shards.XXXXXX)"
SERVER_PID=""
cleanup() { [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

start_server() { # $1 = shards
  local store_args="--storage memory"
  if [ "$STORAGE" = durable ]; then rm -rf "$WORK/data"; store_args="--data-dir $WORK/data"; fi
  JAVA_OPTS="-Xmx2g" "$ROOT/hikyaku" serve --port "$PORT" $store_args --engine-shards "$1" > "$WORK/server.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 200); do
    curl -sf "http://127.0.0.1:$PORT/health/ready" >/dev/null 2>&1 && break
    sleep 0.1
  done
  # the launcher execs java: its pid is the server's
}

stop_server() { kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""; }

client() { # $1 = account, $2 = producers/consumers, $3 = label
  AWS_ACCESS_KEY_ID="$1" AWS_SECRET_ACCESS_KEY=unused timeout 300 java -jar "$JAR" run --endpoint "http://127.0.0.1:$PORT" \
    --scenario cycle --label "$3" --server "hikyaku-$STORAGE" --server-pid "$SERVER_PID" --duration "$DURATION" \
    --warmup 5 --producers "$2" --consumers "$2" --sigv4 --results "$WORK/results" 2>>"$WORK/client.err"
}

field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<<"$2"; }

run() { # $1 = mode
  local mode="$1" lines a b ra rb
  mkdir -p "$WORK/results"
  case "$mode" in
    one-queue) start_server 1; client 000000000000 8 "$mode" >/dev/null ;;
    two-shards1|two-shards2)
      start_server "${mode#two-shards}"
      client 000000000000 4 "$mode-a" >/dev/null & a=$!
      client 333333333333 4 "$mode-b" >/dev/null & b=$!
      wait "$a" "$b" ;;
  esac
  stop_server
  lines="$(cat "$WORK"/results/*.txt 2>/dev/null || true)"
  rm -rf "$WORK/results"
  printf '%s\n' "$lines" >> "$RAW"
  # combined: total msgs/s, and server CPU per message over both clients' messages
  python3 - "$mode" <<PY
import re, sys
mode = sys.argv[1]
rates, cpus = [], []
for line in """$lines""".splitlines():
    m = re.search(r" msgs_s=([0-9.]+).* server_cpu_us_msg=([0-9.]+)", line)
    if m:
        rates.append(float(m.group(1))); cpus.append(float(m.group(2)))
if not rates:
    print(f"mode={mode} no result"); sys.exit()
total = sum(rates)
# each client divides the same server CPU by its own messages: cpu = c_i * n_i for every i
cpu_per_msg = (cpus[0] * rates[0]) / total if len(rates) > 1 else cpus[0]
print(f"mode={mode} storage=$STORAGE msgs_s={total:.1f} server_cpu_us_msg={cpu_per_msg:.2f} clients={len(rates)}")
PY
}

echo "# engine shards, $STORAGE storage, $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$ROUNDS"); do
  for mode in one-queue two-shards1 two-shards2; do
    echo "round=$r $(run "$mode")"
  done
done
