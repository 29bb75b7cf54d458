#!/usr/bin/env bash
# Time to the first message: launches `ROOT/hikyaku serve` over DATA_DIR (launcher JVM defaults),
# polls until a ReceiveMessage on QUEUE returns a message, prints the milliseconds from launch to
# /health/ready and to that first message, then stops the server. ROOT is a checkout (or any
# directory holding `hikyaku` and `server/target/hikyaku.jar`), so two builds can be compared side
# by side. The receive uses VisibilityTimeout 0, so the stored backlog is left as it was.
#
# usage: bench/startup/first-receive.sh ROOT DATA_DIR QUEUE [PORT=19395]
set -euo pipefail
ROOT="$1"; DIR="$2"; QUEUE="$3"; PORT="${4:-19395}"
EP="http://127.0.0.1:$PORT"
ms() { date +%s%3N; }
T0=$(ms)
"$ROOT/hikyaku" serve --port "$PORT" --data-dir "$DIR" > /dev/null 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true; wait $PID 2>/dev/null || true' EXIT
for _ in $(seq 1 1500); do curl -sf "$EP/health/ready" >/dev/null 2>&1 && break; sleep 0.01; done
READY=$(( $(ms) - T0 ))
BODY="{\"QueueUrl\":\"$EP/000000000000/$QUEUE\",\"MaxNumberOfMessages\":1,\"VisibilityTimeout\":0}"
for _ in $(seq 1 1500); do
  if curl -s -X POST "$EP/" -H 'Content-Type: application/x-amz-json-1.0' \
      -H 'X-Amz-Target: AmazonSQS.ReceiveMessage' -d "$BODY" | grep -q '"MessageId"'; then
    break
  fi
  sleep 0.01
done
echo "ready_ms=$READY first_message_ms=$(( $(ms) - T0 ))"
