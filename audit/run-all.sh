#!/usr/bin/env bash
# Runs the whole conformance audit against a fresh in-memory Hikyaku built from this worktree:
# behaviours.py and actions.py on both boto3s (current = JSON, Debian = Query), wire.py, no500.py,
# then readme.sh (the README's boto3 quick start, verbatim, on both boto3s).
# Usage: audit/run-all.sh            (exit status 0 only when every check passes)
#        STORAGE=rocksdb audit/run-all.sh   (same audit against the durable store, in a temporary data dir)
set -uo pipefail
cd "$(dirname "$0")/.."
# The Query half needs Debian's boto3 (python3-boto3, installed by .ci/run). Without it CI fails;
# elsewhere the Query runs are skipped with a warning.
QUERY_PY=/usr/bin/python3
if ! "$QUERY_PY" -c 'import boto3' 2>/dev/null; then
  if [ "${CI:-}" = true ]; then
    echo "audit: Debian's python3-boto3 (the Query client) is missing" >&2
    exit 1
  fi
  echo "audit: WARNING: /usr/bin/python3 has no boto3 (apt install python3-boto3): Query runs skipped" >&2
  QUERY_PY=""
fi
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
[ -n "$QUERY_PY" ] && run "$QUERY_PY" audit/behaviours.py "$PORT"
run python3 audit/actions.py "$PORT"
[ -n "$QUERY_PY" ] && run "$QUERY_PY" audit/actions.py "$PORT"
run python3 audit/wire.py "$PORT"
run python3 audit/no500.py "$PORT"
echo "== audit/readme.sh"
audit/readme.sh || status=1
exit $status
