#!/bin/bash
# Start-up, heap, RSS and idle CPU of the server with N schedules (docs/scheduler.md "Not done yet").
# usage: scheduler/bench/many-schedules.sh N   (after mvn -pl server -am -DskipTests package)
# Writes a data dir under target/ whose Scheduler log holds N PutSchedule commands of rate(1 day) schedules
# starting in 2100 (nothing fires), 100,000 per account, then starts the shaded jar on it and measures.
set -euo pipefail
n=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
jar=$root/server/target/hikyaku.jar
work=$root/target/many-schedules; dir=$work/d$n
mkdir -p "$work"; rm -rf "$dir"
port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
# an empty data dir first (the server writes its FORMAT and layout), then the generated log in it
p=$(port); java -jar "$jar" serve --host 127.0.0.1 --port "$p" --storage rocksdb --data-dir "$dir" > "$dir.init.log" 2>&1 & pid=$!
until curl -s -o /dev/null http://127.0.0.1:$p/health; do sleep 0.1; done; kill $pid; wait $pid 2>/dev/null || true
python3 "$root/scheduler/bench/generate-schedule-log.py" "$n" "$dir/scheduler/commands.log"
p=$(port); start=$(date +%s.%N)
java -Xmx2g -XX:+UseSerialGC -jar "$jar" serve --host 127.0.0.1 --port "$p" --storage rocksdb --data-dir "$dir" > "$dir.log" 2>&1 & pid=$!
until curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:$p/health 2>/dev/null | grep -q 200; do
  kill -0 $pid 2>/dev/null || { echo "the server died:"; tail -5 "$dir.log"; exit 1; }; sleep 0.05; done
ready=$(date +%s.%N); sleep 3
t0=$(awk '{print $14+$15}' /proc/$pid/stat); sleep 10; t1=$(awk '{print $14+$15}' /proc/$pid/stat)
jcmd $pid GC.run > /dev/null
heap=$(jcmd $pid GC.heap_info | grep -E "generation" | sed -E "s/.*(new|tenured) generation.*used ([0-9]+K).*/\1 \2/" | tr "\n" " ")
rss=$(awk '/VmRSS/{print $2}' /proc/$pid/status)
echo "$n schedules: ready $(echo "$ready - $start" | bc) s; idle CPU $(echo "scale=1; ($t1 - $t0) / 10" | bc)% of one core; heap after GC: $heap; RSS $rss kB"
kill $pid; wait $pid 2>/dev/null || true
