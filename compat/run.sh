#!/usr/bin/env bash
# Client compatibility matrix: runs each client's workflow against a fresh Hikyaku server.
#
# Usage: compat/run.sh [ROW...]     (no ROW = every row; `compat/run.sh --list` prints the rows)
# For each row: start `./hikyaku serve --port P --storage memory` on a free 127.0.0.1 port, wait for
# /health, run the row's program with a timeout, stop the server, print `PASS <row>` or `FAIL <row>`.
# Ends with `N passed, M failed` and exits non-zero when any row failed. Logs: compat/.work/logs/.
set -uo pipefail

COMPAT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$COMPAT")"
WORK="$COMPAT/.work"
LOGS="$WORK/logs"
ROW_TIMEOUT="${COMPAT_ROW_TIMEOUT:-150}"   # per row; the CLI rows (~60 CLI processes each) get twice that
ALL_ROWS=(boto3-json boto3-query cli-v1-json cli-v2-query js-v3 spring-cloud-aws jms tempqueues
          auth-boto3-json auth-boto3-query auth-cli-v1 auth-cli-v2
          sigv4-boto3-json sigv4-boto3-query sigv4-js-v3 sigv4-spring-cloud-aws sigv4-jms sigv4-tempqueues
          extended)
# sigv4-ROW: the row ROW against a server started with --auth sigv4, signed with real keys (below).
# The two CLI workflows with auth on take ~2 min each, so they run only when named (the auth-cli-*
# rows sign with both CLIs in every run).
NAMED_ONLY_ROWS=(sigv4-cli-v1-json sigv4-cli-v2-query)

# Dummy credentials and a fixed region: only the endpoint differs from AWS. No instance-metadata lookups.
export AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_DEFAULT_REGION=us-east-1 AWS_REGION=us-east-1
export AWS_EC2_METADATA_DISABLED=true AWS_PAGER=""
export AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE=1

log() { echo "[compat] $*" >&2; }

if [ "${1:-}" == "--list" ]; then printf '%s\n' "${ALL_ROWS[@]}" "${NAMED_ONLY_ROWS[@]}"; exit 0; fi
ROWS=("$@")
[ ${#ROWS[@]} -gt 0 ] || ROWS=("${ALL_ROWS[@]}")
mkdir -p "$LOGS"

# ---------- setup: install what the rows need (each step is skipped when already done) ----------

setup_debian_clients() {
  if /usr/bin/python3 -c 'import boto3' 2>/dev/null && [ -x /usr/bin/aws ]; then return 0; fi
  if [ "$(id -u)" == "0" ] && command -v apt-get >/dev/null; then
    log "installing Debian's python3-boto3 and awscli"
    apt-get install -y -q python3-boto3 awscli >"$LOGS/apt.log" 2>&1 \
      || { apt-get update -q >>"$LOGS/apt.log" 2>&1 && apt-get install -y -q python3-boto3 awscli >>"$LOGS/apt.log" 2>&1; } \
      || log "apt-get install failed (see $LOGS/apt.log)"
  else
    log "Debian python3-boto3/awscli missing and not root: the Query rows will fail"
  fi
}

setup_js() {
  local js="$COMPAT/js"
  if [ -d "$js/node_modules/@aws-sdk/client-sqs" ] && [ "$js/node_modules/.package-lock.json" -nt "$js/package-lock.json" ]; then
    return 0
  fi
  log "npm ci in compat/js"
  (cd "$js" && npm ci --no-audit --no-fund >"$LOGS/npm-ci.log" 2>&1) || log "npm ci failed (see $LOGS/npm-ci.log)"
}

# Maven offline first (deps cached in ~/.m2), online if something is missing.
build_java_row() {
  local dir="$COMPAT/$1"
  log "building compat/$1"
  (cd "$dir" && { mvn -B -q -o compile >"$LOGS/build-$1.log" 2>&1 || mvn -B -q compile >>"$LOGS/build-$1.log" 2>&1; }) \
    || { log "build of compat/$1 failed (see $LOGS/build-$1.log)"; return 1; }
}

setup_server() {
  log "making sure the server jar is built"
  (cd "$ROOT" && { MVN_OPTS_EXTRA=-o ./hikyaku --version || ./hikyaku --version; }) >"$LOGS/server-build.log" 2>&1 \
    || { log "server build failed (see $LOGS/server-build.log)"; return 1; }
}

wants() { local r; for r in "${ROWS[@]}"; do [[ "$r" == $1 ]] && return 0; done; return 1; }

setup_server || { echo "FAIL server-build"; echo "0 passed, ${#ROWS[@]} failed"; exit 1; }
if wants '*boto3-query' || wants '*cli-v2-query' || wants 'auth-cli-v2'; then setup_debian_clients; fi
if wants '*js-v3'; then setup_js; fi
declare -A BUILT=()
for row in spring-cloud-aws:spring jms:jms tempqueues:tempqueues extended:extended; do
  if wants "*${row%%:*}"; then build_java_row "${row##*:}" && BUILT[${row##*:}]=1; fi
done

# ---------- rows ----------

# row_command ROW ENDPOINT: sets DIR (where to run) and CMD (what to run) for a row.
row_command() {
  DIR="$COMPAT"
  case "$1" in
    boto3-json) CMD=(python3 boto3/workflow.py "$2" --expect-protocol json) ;;
    boto3-query) CMD=(/usr/bin/python3 boto3/workflow.py "$2" --expect-protocol query) ;;
    cli-v1-json) CMD=(bash cli/workflow.sh "$2" --aws "$(aws_v1_path)" --expect-protocol json) ;;
    cli-v2-query) CMD=(bash cli/workflow.sh "$2" --aws /usr/bin/aws --expect-protocol query) ;;
    js-v3) DIR="$COMPAT/js"; CMD=(node workflow.mjs "$2") ;;
    spring-cloud-aws) java_command spring io.hikyaku.compat.spring.SpringWorkflow "$2" ;;
    jms) java_command jms io.hikyaku.compat.jms.JmsWorkflow "$2" ;;
    tempqueues) java_command tempqueues io.hikyaku.compat.tempqueues.TempQueuesWorkflow "$2" ;;
    extended) extended_command "$2" ;;
    auth-boto3-json) CMD=(python3 auth/auth_check.py "$2" --expect-protocol json) ;;
    auth-boto3-query) CMD=(/usr/bin/python3 auth/auth_check.py "$2" --expect-protocol query) ;;
    auth-cli-v1) CMD=(bash auth/cli.sh "$2" --aws "$(aws_v1_path)") ;;
    auth-cli-v2) CMD=(bash auth/cli.sh "$2" --aws /usr/bin/aws) ;;
    sigv4-*) row_command "${1#sigv4-}" "$2"; return ;;
    *) CMD=(echo "unknown row $1 (rows: ${ALL_ROWS[*]} ${NAMED_ONLY_ROWS[*]})"); return 1 ;;
  esac
}

# The CLI v1 of the default python3: the pyenv shim resolved once, to spare its overhead on ~60 calls.
aws_v1_path() {
  if command -v pyenv >/dev/null && pyenv which aws >/dev/null 2>&1; then pyenv which aws; else command -v aws || echo aws; fi
}

java_command() {  # java_command DIR MAIN ENDPOINT
  DIR="$COMPAT/$1"
  if [ -z "${BUILT[$1]:-}" ]; then CMD=(echo "compat/$1 was not built"); return 1; fi
  CMD=(java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "target/classes:$(cat "$DIR/target/classpath.txt")" "$2" "$3")
}

# The extended row brings its own S3 (moto's server, started and stopped by compat/extended/with_s3.sh).
extended_command() {  # extended_command ENDPOINT
  DIR="$COMPAT/extended"
  if [ -z "${BUILT[extended]:-}" ]; then CMD=(echo "compat/extended was not built"); return 1; fi
  CMD=(env MOTO_LOG="$LOGS/moto-extended.log" bash with_s3.sh "$1")
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# The auth-* and sigv4-* rows run against a server that verifies SigV4, with the identities of compat/auth/.
server_args() {  # server_args ROW
  case "$1" in
    auth-*|sigv4-*) echo "--auth sigv4 --config $COMPAT/auth/identities.yaml" ;;
  esac
}

# The keys a row's program finds in the environment, as an application on AWS would. The sigv4-*
# rows use real keys of compat/auth/identities.yaml: account 111111111111's root keys, or its user
# `ops` (identity policy sqs:* on *), alternately, so both a root and a user principal run the matrix.
# COMPAT_AUTH=sigv4 also turns on the rows' wrong-secret / unknown-key checks (JS, Java SDK v2).
row_env() {  # row_env ROW: prints NAME=VALUE words for env(1)
  case "$1" in
    sigv4-boto3-json|sigv4-spring-cloud-aws|sigv4-tempqueues|sigv4-cli-v1-json)
      echo "COMPAT_AUTH=sigv4 AWS_ACCESS_KEY_ID=AKIAROOTAAAAAAAAAAAA AWS_SECRET_ACCESS_KEY=rootA/secret/0123456789abcdefghijklmnopq" ;;
    sigv4-*)
      echo "COMPAT_AUTH=sigv4 AWS_ACCESS_KEY_ID=AKIAOPS0000000000001 AWS_SECRET_ACCESS_KEY=ops/secret/0123456789abcdefghijklmnopqrs" ;;
  esac
}

SERVER_PID=""
start_server() {  # start_server PORT LOG [EXTRA ARGS...]
  # The jar is already built, so the launcher execs java at once: $! is the server's own pid.
  "$ROOT/hikyaku" serve --port "$1" --storage memory "${@:3}" >"$2" 2>&1 &
  SERVER_PID=$!
  local i
  for i in $(seq 1 60); do
    if curl -sf -o /dev/null "http://127.0.0.1:$1/health"; then return 0; fi
    kill -0 "$SERVER_PID" 2>/dev/null || return 1
    sleep 0.5
  done
  return 1
}

stop_server() {
  [ -n "$SERVER_PID" ] || return 0
  kill -TERM "$SERVER_PID" 2>/dev/null
  local i
  for i in $(seq 1 20); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.25; done
  kill -KILL "$SERVER_PID" 2>/dev/null
  wait "$SERVER_PID" 2>/dev/null
  SERVER_PID=""
}
trap stop_server EXIT

passed=0 failed=0
for row in "${ROWS[@]}"; do
  port=$(free_port)
  endpoint="http://127.0.0.1:$port"
  started=$(date +%s)
  # shellcheck disable=SC2046
  if ! start_server "$port" "$LOGS/server-$row.log" $(server_args "$row"); then
    echo "FAIL $row (server did not become healthy; see $LOGS/server-$row.log)"
    failed=$((failed + 1)); stop_server; continue
  fi
  if row_command "$row" "$endpoint"; then
    limit=$ROW_TIMEOUT
    [[ "$row" == cli-* || "$row" == sigv4-cli-* ]] && limit=$((ROW_TIMEOUT * 2))
    # shellcheck disable=SC2046
    (cd "$DIR" && env HIKYAKU_ENDPOINT="$endpoint" $(row_env "$row") timeout --kill-after=10 "$limit" "${CMD[@]}") >"$LOGS/$row.log" 2>&1
    rc=$?
  else
    "${CMD[@]}" >"$LOGS/$row.log" 2>&1; rc=1; limit=0
  fi
  stop_server
  secs=$(( $(date +%s) - started ))
  if [ $rc -eq 0 ]; then
    echo "PASS $row (${secs}s)"
    passed=$((passed + 1))
  else
    [ $rc -eq 124 ] && why="timed out after ${limit}s" || why="exit $rc"
    echo "FAIL $row ($why, ${secs}s; log $LOGS/$row.log)"
    grep -v -E '^\s+at |^\s+\.\.\. [0-9]+ (more|common)' "$LOGS/$row.log" | grep -E -A3 'FAILED|Error|error' | head -12 | sed 's/^/    /'
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
