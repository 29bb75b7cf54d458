#!/usr/bin/env bash
# Cluster vs single node, side by side in one run: the `cycle` scenario (8 producers, 8 consumers by
# default, durable storage) against
#   single           : one node, RocksDB with fsync (today's default server)
#   cluster-leader   : a 3-node cluster on loopback (one Raft group), the client on the leader's port
#   cluster-follower : the same cluster, the client on a follower's port (every request forwarded)
# All three nodes and the client share this machine, so the cluster pays three JVMs and three fsyncs
# per entry on the same cores. Rounds alternate the modes. Prints msgs/s per run, the ratio to the
# round's single-node figure, the leader's batches per Raft entry and the mean time of each stage
# of a replicated write (from /metrics, cluster/CLUSTER.md "Where the time goes"), and with
# THREADS=1 the leader's and a follower's busiest threads (CPU time); raw result lines go to $RAW
# (default bench/results/$(date)-cluster-raw.txt).
#
# usage: bench/cluster/run.sh [ROUNDS=3] [DURATION=20] [PRODUCERS=8] [CONSUMERS=PRODUCERS] [MODES="cluster-leader cluster-follower"]
set -euo pipefail
ROUNDS="${1:-3}"; DURATION="${2:-20}"; PRODUCERS="${3:-8}"; CONSUMERS="${4:-$PRODUCERS}"
MODES="${5:-cluster-leader cluster-follower}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
JAR="$ROOT/bench/target/hikyaku-bench.jar"
BASE="${PORT:-19491}"
RAW="${RAW:-$ROOT/bench/results/$(date -u +%Y-%m-%d)-cluster-raw.txt}"
[ -f "$JAR" ] || (cd "$ROOT" && mvn -B -q -o -pl bench -am package -DskipTests)
[ -f "$ROOT/server/target/hikyaku.jar" ] || (cd "$ROOT" && mvn -B -q -o -pl server -am package -DskipTests)
WORK="$(mktemp -d /tmp/cluster-bench.XXXXXX)"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

http_port() { echo $((BASE + $1)); }      # node i (1..3) serves SQS here
raft_port() { echo $((BASE + 100 + $1)); }

start_node() { # $1 = i, rest = extra flags
  local i="$1"; shift
  JAVA_OPTS="-Xmx1g ${NODE_JAVA_OPTS:-}" "$ROOT/hikyaku" serve --port "$(http_port "$i")" --data-dir "$WORK/n$i" "$@" \
    > "$WORK/n$i.log" 2>&1 &
  PIDS+=($!)
}

stop_all() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  PIDS=(); rm -rf "$WORK"/n*
}

leader_index() { # the node whose /health says it leads and is ready, else empty
  for i in 1 2 3; do
    if curl -sf "http://127.0.0.1:$(http_port "$i")/health" 2>/dev/null \
        | python3 -c 'import json,sys; d=json.load(sys.stdin); g=d["cluster"]["groups"][0]; sys.exit(0 if g["role"]=="LEADER" else 1)' 2>/dev/null \
        && curl -sf "http://127.0.0.1:$(http_port "$i")/health/ready" >/dev/null 2>&1; then
      echo "$i"; return
    fi
  done
}

start_cluster() {
  local peers="n1=127.0.0.1:$(raft_port 1),n2=127.0.0.1:$(raft_port 2),n3=127.0.0.1:$(raft_port 3)"
  for i in 1 2 3; do start_node "$i" --node-id "n$i" --cluster "$peers"; done
  for _ in $(seq 1 600); do
    LEADER="$(leader_index)"; [ -n "$LEADER" ] && return 0
    sleep 0.2
  done
  echo "no leader" >&2; tail -5 "$WORK"/n*.log >&2; exit 1
}

client() { # $1 = port, $2 = label, $3 = pid for server CPU
  AWS_ACCESS_KEY_ID=000000000000 AWS_SECRET_ACCESS_KEY=unused timeout 300 java -jar "$JAR" run \
    --endpoint "http://127.0.0.1:$1" --scenario cycle --label "$2" --server hikyaku-cluster --server-pid "$3" \
    --duration "$DURATION" --warmup 5 --producers "$PRODUCERS" --consumers "$CONSUMERS" --sigv4 --results "$WORK/results" \
    2>>"$WORK/client.err" >/dev/null
}

batches_per_entry() { # the leader's mean batches per committed Raft entry
  curl -sf "http://127.0.0.1:$(http_port "$1")/metrics" 2>/dev/null | python3 -c '
import sys, re
text = sys.stdin.read()
m = re.search(r"^hikyaku_cluster_batches_per_entry(?:_mean)?(?:\{[^}]*\})? ([0-9.eE+-]+)$", text, re.M)
print(m.group(1) if m else "n/a")'
}

stage_means() { # the mean ms of each replicated-write stage on node $1 (sum / count since start)
  curl -sf "http://127.0.0.1:$(http_port "$1")/metrics" 2>/dev/null | python3 -c '
import sys, re
text = sys.stdin.read()
out = []
for st in ("queued", "submit", "commit", "apply", "answer", "write"):
    c = re.search(r"^hikyaku_cluster_stage_seconds_count\{[^}]*stage=\"%s\"[^}]*\} ([0-9.eE+-]+)$" % st, text, re.M)
    t = re.search(r"^hikyaku_cluster_stage_seconds_sum\{[^}]*stage=\"%s\"[^}]*\} ([0-9.eE+-]+)$" % st, text, re.M)
    if c and t and float(c.group(1)) > 0:
        out.append("%s_ms=%.2f" % (st, float(t.group(1)) * 1000 / float(c.group(1))))
for tm in ("log_sync", "follower_append", "leader_append_rtt", "client_write"):
    g = re.search(r"^hikyaku_cluster_ratis_mean_seconds\{[^}]*timer=\"%s\"[^}]*\} ([0-9.eE+-]+)$" % tm, text, re.M)
    if g and float(g.group(1)) > 0:
        out.append("ratis_%s_ms=%.2f" % (tm, float(g.group(1)) * 1000))
print(" ".join(out))'
}

busiest_threads() { # the 6 threads of pid $1 with the most CPU time so far (ps: name, [d-]hh:mm:ss)
  ps -L -o time=,comm= -p "$1" 2>/dev/null | sort -r | head -6 | awk '{t=$1; n=$2; for(i=3;i<=NF;i++) n=n"_"$i; printf "%s=%s,", n, t}'
}

run() { # $1 = mode; prints "msgs_s=..." and extra fields
  local mode="$1" port pid extra=""
  mkdir -p "$WORK/results"
  case "$mode" in
    single)
      start_node 1
      for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$(http_port 1)/health/ready" >/dev/null 2>&1 && break; sleep 0.1; done
      client "$(http_port 1)" "$mode" "${PIDS[0]}" ;;
    cluster-leader|cluster-follower)
      start_cluster
      local target="$LEADER"
      if [ "$mode" = cluster-follower ]; then target=$(( LEADER % 3 + 1 )); fi
      client "$(http_port "$target")" "$mode" "${PIDS[$((LEADER - 1))]}"
      local follower=$(( LEADER % 3 + 1 ))
      extra=" leader=n$LEADER client_on=n$target batches_per_entry=$(batches_per_entry "$LEADER") leader_stages: $(stage_means "$LEADER") follower_stages: $(stage_means "$follower")"
      if [ "${THREADS:-0}" = 1 ]; then
        extra="$extra leader_threads=$(busiest_threads "${PIDS[$((LEADER - 1))]}") follower_threads=$(busiest_threads "${PIDS[$((follower - 1))]}")"
      fi ;;
  esac
  stop_all
  local line; line="$(cat "$WORK"/results/*.txt 2>/dev/null || true)"
  rm -rf "$WORK/results"
  printf '%s%s\n' "$line" "$extra" >> "$RAW"
  echo "$(sed -n 's/.*\( msgs_s=[0-9.]*\).*/\1/p' <<<"$line" | head -1)$extra"
}

echo "# cluster vs single node, cycle $PRODUCERS+$CONSUMERS, durable, $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$ROUNDS"); do
  single="$(run single)"
  s="$(sed -n 's/.*msgs_s=\([0-9.]*\).*/\1/p' <<<"$single")"
  echo "round=$r mode=single$single"
  for mode in $MODES; do
    out="$(run "$mode")"
    c="$(sed -n 's/.*msgs_s=\([0-9.]*\).*/\1/p' <<<"$out")"
    ratio="$(python3 -c "import sys; s,c=sys.argv[1:]; print(f'{float(c)/float(s):.2f}x' if s and c else 'n/a')" "$s" "$c")"
    echo "round=$r mode=$mode$out ratio_to_single=$ratio"
  done
done
