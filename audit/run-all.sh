#!/usr/bin/env bash
# Runs the whole conformance audit against a fresh in-memory Hikyaku built from this worktree:
# behaviours.py and actions.py on both boto3s (current = JSON, Debian = Query), wire.py, no500.py.
# Usage: audit/run-all.sh            (exit status 0 only when every check passes)
#        STORAGE=rocksdb audit/run-all.sh   (same audit against the durable store, in a temporary data dir)
set -uo pipefail
cd "$(dirname "$0")/.."
PORT=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
STORAGE=${STORAGE:-memory}
DATA=$(mktemp -d)
./hikyaku serve --storage "$STORAGE" --data-dir "$DATA" --port "$PORT" > audit/server.log 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; rm -rf "$DATA"' EXIT
for _ in $(seq 1 120); do
  curl -s -o /dev/null "http://127.0.0.1:$PORT/?Action=ListQueues" && break
  sleep 1
done
status=0
run() { echo "== $*"; timeout 300 "$@" | grep -v '^PASS' || true; [[ ${PIPESTATUS[0]} -eq 0 ]] || status=1; }
run python3 audit/behaviours.py "$PORT"
run /usr/bin/python3 audit/behaviours.py "$PORT"
run python3 audit/actions.py "$PORT"
run /usr/bin/python3 audit/actions.py "$PORT"
run python3 audit/wire.py "$PORT"
run python3 audit/no500.py "$PORT"
exit $status
