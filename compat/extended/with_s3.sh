#!/usr/bin/env bash
# The extended row: starts moto's S3 server on a free 127.0.0.1 port, runs ExtendedClientWorkflow against
# SQS_ENDPOINT and that S3, then stops moto by its PID. Usage: bash with_s3.sh SQS_ENDPOINT (from compat/extended,
# after `mvn -B -q compile` wrote target/classpath.txt). moto's log: $MOTO_LOG (default target/moto.log).
set -uo pipefail
SQS_ENDPOINT="${1:?usage: with_s3.sh SQS_ENDPOINT}"
MOTO_LOG="${MOTO_LOG:-target/moto.log}"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')

# `python3 -m moto.server` (the same as moto_server, without relying on the script being on PATH) execs
# python: $! is the server's own pid.
python3 -m moto.server -H 127.0.0.1 -p "$port" >"$MOTO_LOG" 2>&1 &
MOTO_PID=$!
stop_moto() {
  kill -TERM "$MOTO_PID" 2>/dev/null
  local i
  for i in $(seq 1 20); do kill -0 "$MOTO_PID" 2>/dev/null || break; sleep 0.25; done
  kill -KILL "$MOTO_PID" 2>/dev/null
  wait "$MOTO_PID" 2>/dev/null
}
trap stop_moto EXIT
trap "exit 143" TERM INT

for i in $(seq 1 60); do
  curl -s -o /dev/null "http://127.0.0.1:$port/" && break
  kill -0 "$MOTO_PID" 2>/dev/null || { echo "FAILED: moto's server exited (see $MOTO_LOG)"; exit 1; }
  sleep 0.5
done
echo "-- moto S3 on http://127.0.0.1:$port (pid $MOTO_PID)"
java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "target/classes:$(cat target/classpath.txt)" \
  io.hikyaku.compat.extended.ExtendedClientWorkflow "$SQS_ENDPOINT" "http://127.0.0.1:$port"
