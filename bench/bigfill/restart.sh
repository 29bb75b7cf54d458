#!/usr/bin/env bash
# Restart measurement over a stored backlog: launches the server (launcher JVM defaults) over DATA_DIR,
# then reports the time to /health/ready, to the first ListQueues and to the first ReceiveMessage of
# 10 messages; ApproximateNumberOfMessages at once and 20 s later; live heap after a full GC
# (jcmd GC.heap_info, tenured used) and VmRSS; then stops the server.
#
# usage: bench/bigfill/restart.sh DATA_DIR QUEUE [PORT=19390]
set -euo pipefail
DIR="$1"; QUEUE="$2"; PORT="${3:-19390}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
EP="http://127.0.0.1:$PORT"
ms() { date +%s%3N; }
call() { curl -s -X POST "$EP/" -H 'Content-Type: application/x-amz-json-1.0' -H "X-Amz-Target: AmazonSQS.$1" -d "$2"; }
T0=$(ms)
"$ROOT/hikyaku" serve --port "$PORT" --data-dir "$DIR" > /tmp/bigfill-restart.log 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true' EXIT
until curl -sf "$EP/health/ready" >/dev/null 2>&1; do sleep 0.02; done
READY=$(( $(ms) - T0 ))
call ListQueues '{}' >/dev/null; LIST=$(( $(ms) - T0 ))
URL="$EP/000000000000/$QUEUE"
N=$(call ReceiveMessage "{\"QueueUrl\":\"$URL\",\"MaxNumberOfMessages\":10,\"VisibilityTimeout\":600}" | grep -o '"MessageId"' | wc -l)
RECV=$(( $(ms) - T0 ))
echo "ready_ms=$READY listqueues_ms=$LIST first_receive_ms=$RECV ($N messages received)"
attrs() { call GetQueueAttributes "{\"QueueUrl\":\"$URL\",\"AttributeNames\":[\"ApproximateNumberOfMessages\",\"ApproximateNumberOfMessagesNotVisible\"]}"; }
echo "GetQueueAttributes at once: $(attrs)"
sleep 20
echo "GetQueueAttributes after 20 s: $(attrs)"
jcmd "$PID" GC.run >/dev/null; sleep 5
echo "heap after full GC: $(jcmd "$PID" GC.heap_info | tr -s ' ' | grep -o 'tenured generation total [0-9]*K, used [0-9]*K')"
echo "VmRSS: $(grep VmRSS /proc/$PID/status | tr -s ' \t' ' ')"
echo "metrics: $(curl -s "$EP/metrics" | grep -E '^hikyaku_index_(messages|spilled_messages|budget) ' | tr '\n' ' ')"
kill "$PID"; wait "$PID" 2>/dev/null || true
