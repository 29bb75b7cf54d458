#!/usr/bin/env bash
# Draining a stored backlog vs an empty-queue cycle, alternating pairs: each pair starts a server on a fresh copy
# of DATA_DIR (a queue QUEUE holding the backlog, e.g. from bench/bigfill/BigFill.java) and runs `drain-stored`,
# then a server on an empty directory and runs `cycle`, with the same flags. Prints both result lines per pair
# and the ratio of msgs/s and of server CPU per message (drain / cycle).
#
# usage: bench/drain/run.sh DATA_DIR QUEUE [PAIRS=3] [WARMUP=20] [DURATION=30]
set -euo pipefail
DATA="$1"; QUEUE="$2"; PAIRS="${3:-3}"; WARMUP="${4:-20}"; DURATION="${5:-30}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
JAR="$ROOT/bench/target/hikyaku-bench.jar"
PORT="${PORT:-19392}"
WORK="$(mktemp -d /tmp/drain-ab.XXXXXX)"
PID=""
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
serve() { # $1 = data dir
  "$ROOT/hikyaku" serve --port "$PORT" --data-dir "$1" > "$WORK/server.log" 2>&1 &
  PID=$!
  until curl -sf "http://127.0.0.1:$PORT/health/ready" >/dev/null 2>&1; do sleep 0.05; done
}
stop() { kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; PID=""; }
bench() { # $1 = scenario, rest = args
  local s="$1"; shift
  java -jar "$JAR" run --endpoint "http://127.0.0.1:$PORT" --scenario "$s" --server hikyaku --server-pid "$PID" \
    --warmup "$WARMUP" --duration "$DURATION" --results "$WORK/results" "$@" 2>/dev/null | tail -1
}
echo "# drain vs cycle, $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg), data $DATA ($(du -sh "$DATA" | cut -f1))"
for p in $(seq 1 "$PAIRS"); do
  rm -rf "$WORK/copy" "$WORK/empty"; cp -r "$DATA" "$WORK/copy"
  serve "$WORK/copy"; d="$(bench drain-stored --queue-name "$QUEUE")"; stop
  serve "$WORK/empty"; c="$(bench cycle)"; stop
  echo "pair=$p drain: $d"
  echo "pair=$p cycle: $c"
  python3 - "$d" "$c" "$p" <<'PY'
import re, sys
def f(line, k):
    m = re.search(r" %s=([0-9.]+)" % k, line)
    return float(m.group(1)) if m else float("nan")
d, c, p = sys.argv[1], sys.argv[2], sys.argv[3]
print(f"pair={p} drain/cycle msgs_s={f(d,'msgs_s')/f(c,'msgs_s'):.2f} server_cpu_us_msg={f(d,'server_cpu_us_msg')/f(c,'server_cpu_us_msg'):.2f}")
PY
done
