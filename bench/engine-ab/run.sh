#!/usr/bin/env bash
# Engine-only A/B: the FIFO send/receive/delete loop of FifoEngineBench.java (100 groups, a backlog of
# ~500, batches of 10, over the in-memory store) run in-process against the engine of two commits,
# alternating A B A B, one JVM per run; prints each run's engine CPU per message (thread CPU time, so
# other processes on a shared machine disturb it far less than a wall-clock rate) and the medians.
#
# usage: bench/engine-ab/run.sh COMMIT_A COMMIT_B [ROUNDS=7] [WARMUP_MSGS=200000] [MEASURED_MSGS=300000]
# Both commits must have the engine API this program uses (QueueEngine.sendMessage/receiveMessages/
# deleteMessage, the records of Dec 2026).
set -euo pipefail
A="$1"; B="$2"; ROUNDS="${3:-7}"; WARM="${4:-200000}"; MEAS="${5:-300000}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
WORK="$(mktemp -d /tmp/engine-ab.XXXXXX)"
cleanup() { for n in A B; do git -C "$ROOT" worktree remove --force "$WORK/src-$n" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT
for pair in "A:$A" "B:$B"; do
  n="${pair%%:*}"; c="${pair#*:}"
  git -C "$ROOT" worktree add -q --detach "$WORK/src-$n" "$c"
  (cd "$WORK/src-$n" && mvn -o -q -B -ntp -pl engine package -DskipTests)
  mkdir -p "$WORK/cls-$n"
  javac -d "$WORK/cls-$n" -cp "$WORK/src-$n/engine/target/hikyaku-engine-0.1.0-SNAPSHOT.jar" "$HERE/FifoEngineBench.java"
done
declare -A RUNS=([A]="" [B]="")
for r in $(seq 1 "$ROUNDS"); do
  for n in A B; do
    out="$(java -cp "$WORK/cls-$n:$WORK/src-$n/engine/target/hikyaku-engine-0.1.0-SNAPSHOT.jar" FifoEngineBench "$WARM" "$MEAS")"
    echo "round=$r engine=$n $out"
    RUNS[$n]+="$(sed -n 's/.*engine_cpu_ns_per_msg=\([0-9.]*\).*/\1/p' <<<"$out") "
  done
done
median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
ma="$(median <<<"${RUNS[A]}")"; mb="$(median <<<"${RUNS[B]}")"
echo "median engine_cpu_ns_per_msg: A($A)=$ma B($B)=$mb B/A=$(awk -v a="$ma" -v b="$mb" 'BEGIN{printf "%.3f", b/a}')"
