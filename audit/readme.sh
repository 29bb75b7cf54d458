#!/usr/bin/env bash
# Runs the README's boto3 quick-start block, exactly as written, with the current boto3 (JSON) and with
# Debian's python3-boto3 (Query) against a fresh in-memory server on the README's port 9324. If 9324 is
# taken the port (and only the port) is rewritten to a free one, and the script says so.
set -uo pipefail
cd "$(dirname "$0")/.."
SCRIPT=$(mktemp --suffix=.py)
awk '/^## Quick start/{q=1} q && /^```python/{p=1; next} p && /^```/{exit} p' README.md > "$SCRIPT"
if ! grep -q "create_queue" "$SCRIPT"; then
  echo "readme: no boto3 block found under '## Quick start' in README.md" >&2
  exit 1
fi
PORT=9324
if python3 -c 'import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(("127.0.0.1",9324))!=0)'; then
  PORT=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
  echo "readme: port 9324 is in use; running the block with port $PORT instead"
  sed -i "s/127.0.0.1:9324/127.0.0.1:$PORT/" "$SCRIPT"
fi
./hikyaku serve --storage memory --port "$PORT" > /dev/null 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; rm -f "$SCRIPT"' EXIT
for _ in $(seq 1 120); do
  curl -s -o /dev/null "http://127.0.0.1:$PORT/health" && break
  sleep 0.5
done
status=0
for py in python3 /usr/bin/python3; do
  if [ "$py" = /usr/bin/python3 ] && ! "$py" -c 'import boto3' 2>/dev/null; then
    [ "${CI:-}" = true ] && { echo "readme: Debian's python3-boto3 is missing" >&2; status=1; }
    continue
  fi
  out=$(timeout 60 "$py" "$SCRIPT" 2>&1)
  if [[ "$out" == *"hello {'kind': {'StringValue': 'greeting', 'DataType': 'String'}}"* ]]; then
    echo "readme: $py ($("$py" -c 'import botocore;print(botocore.__version__)')): PASS"
  else
    echo "readme: $py: FAIL: $out"
    status=1
  fi
done
exit $status
