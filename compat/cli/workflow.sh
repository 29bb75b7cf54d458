#!/usr/bin/env bash
# AWS CLI compatibility workflow against an SQS endpoint.
# Usage: workflow.sh [ENDPOINT] [--aws PATH_TO_AWS] [--expect-protocol json|query]
# ENDPOINT defaults to $HIKYAKU_ENDPOINT, the CLI to `aws` on PATH. Rows: the CLI v1 of the default python3
# (AWS JSON 1.0) and Debian's awscli v2.9 at /usr/bin/aws (Query/XML). Only --endpoint-url differs from AWS.
# Results are checked with python3 (jq may be missing). Exit code 0 = every assertion held.
set -uo pipefail

ENDPOINT="${HIKYAKU_ENDPOINT:-}"
AWS_BIN=aws
EXPECT_PROTOCOL=""
while [ $# -gt 0 ]; do
  case "$1" in
    --aws) AWS_BIN="$2"; shift 2 ;;
    --expect-protocol) EXPECT_PROTOCOL="$2"; shift 2 ;;
    *) ENDPOINT="$1"; shift ;;
  esac
done
[ -n "$ENDPOINT" ] || { echo "usage: workflow.sh ENDPOINT [--aws PATH] [--expect-protocol json|query]"; exit 2; }
export AWS_ACCESS_KEY_ID="${AWS_ACCESS_KEY_ID:-test}" AWS_SECRET_ACCESS_KEY="${AWS_SECRET_ACCESS_KEY:-test}"
export AWS_DEFAULT_REGION=us-east-1 AWS_PAGER="" AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

step() { echo "-- [${SECONDS}s] $*"; }
# fail may run inside $(...): it reports on stderr and signals the main shell ($$) to stop the row.
trap 'exit 1' USR1
fail() { printf 'FAILED: %s\n  expected: %s\n  got:      %s\n' "$1" "$2" "$3" >&2; kill -USR1 $$; exit 1; }
assert_eq() { [ "$1" == "$2" ] || fail "$3" "$2" "$1"; }
assert_contains() { [[ "$1" == *"$2"* ]] || fail "$3" "contains $2" "$1"; }

# sqs SUBCOMMAND ARGS...: run the CLI, fail the row on a non-zero exit, print stdout (JSON).
sqs() {
  local out err rc
  err=$(mktemp)
  out=$("$AWS_BIN" --endpoint-url "$ENDPOINT" --region us-east-1 --output json sqs "$@" 2>"$err")
  rc=$?
  if [ $rc -ne 0 ]; then
    fail "aws sqs $1 exits 0" "exit 0" "exit $rc: $(cat "$err")"
  fi
  rm -f "$err"
  printf '%s' "$out"
}

# sqs_error SUBCOMMAND ARGS...: run a call that must fail; print its stderr.
sqs_error() {
  local err rc
  err=$("$AWS_BIN" --endpoint-url "$ENDPOINT" --region us-east-1 --output json sqs "$@" 2>&1 >/dev/null)
  rc=$?
  [ $rc -ne 0 ] || fail "aws sqs $1 fails" "non-zero exit" "exit 0"
  printf '%s' "$err"
}

# py EXPR: evaluate a python expression over the JSON on stdin bound to d (empty input = {}).
py() { "$PY" -c 'import json,sys; t=sys.stdin.read().strip(); d=json.loads(t) if t else {}; r=eval(sys.argv[1]); print(r if isinstance(r,str) else json.dumps(r, sort_keys=True))' "$1"; }
md5() { printf '%s' "$1" | md5sum | cut -d' ' -f1; }

VERSION=$("$AWS_BIN" --version 2>&1)
echo "cli: $VERSION endpoint $ENDPOINT"
MAJOR=$(printf '%s' "$VERSION" | sed -E 's#^aws-cli/([0-9]+).*#\1#')

# Which wire protocol does this CLI really speak? Read it off its own debug log of one request.
DEBUG=$("$AWS_BIN" --endpoint-url "$ENDPOINT" --region us-east-1 --output json --debug sqs list-queues 2>&1 >/dev/null)
if grep -q 'x-amz-json-1.0' <<<"$DEBUG"; then PROTOCOL=json
elif grep -q -E "Action.{0,4}ListQueues" <<<"$DEBUG"; then PROTOCOL=query
else PROTOCOL=unknown; fi
echo "protocol: $PROTOCOL"
[ -z "$EXPECT_PROTOCOL" ] || assert_eq "$PROTOCOL" "$EXPECT_PROTOCOL" "CLI wire protocol"

# Newer CLIs know the message-move-task commands and MessageSystemAttributeNames; v2.9 (2022) does not.
# (Called without its required argument, a known subcommand says so before making any request.)
PROBE=$("$AWS_BIN" sqs list-message-move-tasks 2>&1)
if grep -q 'arguments are required' <<<"$PROBE"; then MODERN=1; else MODERN=0; fi
echo "message-move-task commands: $([ $MODERN -eq 1 ] && echo yes || echo no)"
if [ $MODERN -eq 1 ]; then SYSATTRS=(--message-system-attribute-names All); else SYSATTRS=(--attribute-names All); fi
# v2 reads blob arguments as base64 unless told otherwise; v1 takes them raw.
BINFMT=()
[ "$MAJOR" == "2" ] && BINFMT=(--cli-binary-format raw-in-base64-out)

SUFFIX=$(( $(date +%s%N) / 1000000 % 10000000 ))
DLQ=cli-dlq-$SUFFIX SRC=cli-src-$SUFFIX FIFO=cli-fifo-$SUFFIX.fifo

step "create queues (DLQ, standard with RedrivePolicy, FIFO with tags)"
DLQ_URL=$(sqs create-queue --queue-name "$DLQ" | py 'd["QueueUrl"]')
assert_contains "$DLQ_URL" "/$DLQ" "DLQ url"
DLQ_ARN=$(sqs get-queue-attributes --queue-url "$DLQ_URL" --attribute-names QueueArn | py 'd["Attributes"]["QueueArn"]')
assert_contains "$DLQ_ARN" "arn:aws:sqs:us-east-1:" "DLQ QueueArn"
REDRIVE="{\"deadLetterTargetArn\":\"$DLQ_ARN\",\"maxReceiveCount\":\"2\"}"
ATTRS=$("$PY" -c 'import json,sys; print(json.dumps({"RedrivePolicy": sys.argv[1], "VisibilityTimeout": "30"}))' "$REDRIVE")
SRC_URL=$(sqs create-queue --queue-name "$SRC" --attributes "$ATTRS" | py 'd["QueueUrl"]')
FIFO_URL=$(sqs create-queue --queue-name "$FIFO" --attributes FifoQueue=true,ContentBasedDeduplication=true \
  --tags kind=fifo | py 'd["QueueUrl"]')
assert_eq "$(sqs get-queue-url --queue-name "$SRC" | py 'd["QueueUrl"]')" "$SRC_URL" "GetQueueUrl(source)"
LISTED=$(sqs list-queues --queue-name-prefix cli- | py 'sorted(d.get("QueueUrls", []))')
for url in "$DLQ_URL" "$SRC_URL" "$FIFO_URL"; do assert_contains "$LISTED" "\"$url\"" "ListQueues lists $url"; done

step "queue attributes"
A=$(sqs get-queue-attributes --queue-url "$SRC_URL" --attribute-names All)
assert_eq "$(py 'd["Attributes"]["VisibilityTimeout"]' <<<"$A")" "30" "source VisibilityTimeout"
assert_eq "$(py 'd["Attributes"]["ApproximateNumberOfMessages"]' <<<"$A")" "0" "new queue ApproximateNumberOfMessages"
assert_eq "$(py 'json.loads(d["Attributes"]["RedrivePolicy"])["deadLetterTargetArn"]' <<<"$A")" "$DLQ_ARN" "RedrivePolicy target"
assert_eq "$(py 'str(json.loads(d["Attributes"]["RedrivePolicy"])["maxReceiveCount"])' <<<"$A")" "2" "RedrivePolicy maxReceiveCount"
assert_eq "$(sqs get-queue-attributes --queue-url "$FIFO_URL" --attribute-names FifoQueue | py 'd["Attributes"]["FifoQueue"]')" \
  "true" "FIFO FifoQueue attribute"
assert_eq "$(sqs list-dead-letter-source-queues --queue-url "$DLQ_URL" | py 'd.get("queueUrls")')" "[\"$SRC_URL\"]" \
  "ListDeadLetterSourceQueues(DLQ)"

step "send single message with String, Number and Binary attributes"
BODY="hello from the aws cli"
MSG_ATTRS='{"color":{"DataType":"String","StringValue":"blue"},"count":{"DataType":"Number","StringValue":"42"},"blob":{"DataType":"Binary","BinaryValue":"binary-data"}}'
SENT=$(sqs send-message --queue-url "$SRC_URL" --message-body "$BODY" --message-attributes "$MSG_ATTRS" "${BINFMT[@]}")
assert_eq "$(py 'd["MD5OfMessageBody"]' <<<"$SENT")" "$(md5 "$BODY")" "SendMessage MD5OfMessageBody"
MD5_ATTRS=$("$PY" - <<'EOF'
import hashlib, struct
def enc(b): return struct.pack(">I", len(b)) + b
h = hashlib.md5()
for name, typ, val, kind in [("blob", "Binary", b"binary-data", 2), ("color", "String", b"blue", 1), ("count", "Number", b"42", 1)]:
    h.update(enc(name.encode()) + enc(typ.encode()) + bytes([kind]) + enc(val))
print(h.hexdigest())
EOF
)
assert_eq "$(py 'd["MD5OfMessageAttributes"]' <<<"$SENT")" "$MD5_ATTRS" "SendMessage MD5OfMessageAttributes"
SINGLE_ID=$(py 'd["MessageId"]' <<<"$SENT")

step "send batch of 3 with attributes"
ENTRIES='[{"Id":"m0","MessageBody":"batch-0","MessageAttributes":{"idx":{"DataType":"Number","StringValue":"0"}}},
 {"Id":"m1","MessageBody":"batch-1","MessageAttributes":{"idx":{"DataType":"Number","StringValue":"1"}}},
 {"Id":"m2","MessageBody":"batch-2","MessageAttributes":{"idx":{"DataType":"Number","StringValue":"2"}}}]'
B=$(sqs send-message-batch --queue-url "$SRC_URL" --entries "$ENTRIES")
assert_eq "$(py 'sorted(e["Id"] for e in d["Successful"])' <<<"$B")" '["m0", "m1", "m2"]' "SendMessageBatch Successful"
assert_eq "$(py 'd.get("Failed", [])' <<<"$B")" '[]' "SendMessageBatch Failed"
assert_eq "$(sqs get-queue-attributes --queue-url "$SRC_URL" --attribute-names ApproximateNumberOfMessages \
  | py 'd["Attributes"]["ApproximateNumberOfMessages"]')" "4" "ApproximateNumberOfMessages after 4 sends"

step "long-poll receive with All system attributes and selected message attributes"
RECEIVED='[]'
for _ in 1 2 3 4 5; do
  R=$(sqs receive-message --queue-url "$SRC_URL" --max-number-of-messages 10 --wait-time-seconds 2 \
    "${SYSATTRS[@]}" --message-attribute-names color count)
  RECEIVED=$("$PY" -c 'import json,sys; a=json.loads(sys.argv[1]); t=sys.argv[2].strip(); a+=json.loads(t).get("Messages",[]) if t else []; print(json.dumps(a))' "$RECEIVED" "$R")
  [ "$(py 'len(d)' <<<"$RECEIVED")" -ge 4 ] && break
done
assert_eq "$(py 'sorted(m["Body"] for m in d)' <<<"$RECEIVED")" "[\"batch-0\", \"batch-1\", \"batch-2\", \"$BODY\"]" "received bodies"
FIRST=$(py "[m for m in d if m['Body'] == '$BODY'][0]" <<<"$RECEIVED")
assert_eq "$(py 'd["MessageId"]' <<<"$FIRST")" "$SINGLE_ID" "received MessageId"
assert_eq "$(py 'sorted(k for k in d["Attributes"] if k in ("SenderId","SentTimestamp","ApproximateReceiveCount","ApproximateFirstReceiveTimestamp"))' <<<"$FIRST")" \
  '["ApproximateFirstReceiveTimestamp", "ApproximateReceiveCount", "SenderId", "SentTimestamp"]' "system attributes with All"
assert_eq "$(py 'd["Attributes"]["ApproximateReceiveCount"]' <<<"$FIRST")" "1" "ApproximateReceiveCount"
assert_eq "$(py 'sorted(d.get("MessageAttributes", {}))' <<<"$FIRST")" '["color", "count"]' "selected message attributes"
assert_eq "$(py 'd["MessageAttributes"]["count"]' <<<"$FIRST")" '{"DataType": "Number", "StringValue": "42"}' "Number attribute"
assert_eq "$(py '[sorted(m.get("MessageAttributes", {})) for m in d if m["Body"].startswith("batch")]' <<<"$RECEIVED")" \
  '[[], [], []]' "batch messages carry no selected attribute"

step "change visibility to 0, receive again with All message attributes"
sqs change-message-visibility --queue-url "$SRC_URL" --receipt-handle "$(py 'd["ReceiptHandle"]' <<<"$FIRST")" \
  --visibility-timeout 0 >/dev/null
AGAIN=$(sqs receive-message --queue-url "$SRC_URL" --max-number-of-messages 10 --wait-time-seconds 2 \
  "${SYSATTRS[@]}" --message-attribute-names All)
assert_eq "$(py '[m["Body"] for m in d.get("Messages", [])]' <<<"$AGAIN")" "[\"$BODY\"]" "only the released message comes back"
assert_eq "$(py 'd["Messages"][0]["Attributes"]["ApproximateReceiveCount"]' <<<"$AGAIN")" "2" "ApproximateReceiveCount after release"
assert_eq "$(py 'd["Messages"][0]["MessageAttributes"]["blob"]["BinaryValue"]' <<<"$AGAIN")" \
  "$(printf binary-data | base64)" "Binary attribute round trip (base64 in CLI output)"
assert_eq "$(py 'd["Messages"][0]["MD5OfMessageAttributes"]' <<<"$AGAIN")" "$MD5_ATTRS" "MD5OfMessageAttributes (All)"

step "delete single and batch"
sqs delete-message --queue-url "$SRC_URL" --receipt-handle "$(py 'd["Messages"][0]["ReceiptHandle"]' <<<"$AGAIN")" >/dev/null
DEL_ENTRIES=$(py 'json.dumps([{"Id": "d%d" % i, "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(x for x in d if x["Body"].startswith("batch"))])' <<<"$RECEIVED")
D=$(sqs delete-message-batch --queue-url "$SRC_URL" --entries "$DEL_ENTRIES")
assert_eq "$(py 'sorted(e["Id"] for e in d["Successful"])' <<<"$D")" '["d0", "d1", "d2"]' "DeleteMessageBatch Successful"
assert_eq "$(sqs get-queue-attributes --queue-url "$SRC_URL" --attribute-names ApproximateNumberOfMessages ApproximateNumberOfMessagesNotVisible \
  | py 'd["Attributes"]')" '{"ApproximateNumberOfMessages": "0", "ApproximateNumberOfMessagesNotVisible": "0"}' "counts after deletes"

step "FIFO: ordered delivery and content-based deduplication"
for b in f1 f2 f3; do sqs send-message --queue-url "$FIFO_URL" --message-body "$b" --message-group-id g1 >/dev/null; done
sqs send-message --queue-url "$FIFO_URL" --message-body f1 --message-group-id g1 >/dev/null  # deduplicated
FBODIES='[]'
for _ in 1 2 3 4; do
  R=$(sqs receive-message --queue-url "$FIFO_URL" --max-number-of-messages 10 --wait-time-seconds 1 "${SYSATTRS[@]}")
  [ -n "$R" ] || continue
  assert_eq "$(py 'sorted(set(m["Attributes"]["MessageGroupId"] for m in d["Messages"]))' <<<"$R")" '["g1"]' "FIFO MessageGroupId"
  assert_eq "$(py 'all("SequenceNumber" in m["Attributes"] for m in d["Messages"])' <<<"$R")" "true" "FIFO SequenceNumber present"
  FBODIES=$("$PY" -c 'import json,sys; print(json.dumps(json.loads(sys.argv[1]) + [m["Body"] for m in json.loads(sys.argv[2])["Messages"]]))' "$FBODIES" "$R")
  sqs delete-message-batch --queue-url "$FIFO_URL" --entries \
    "$(py 'json.dumps([{"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(d["Messages"])])' <<<"$R")" >/dev/null
  [ "$(py 'len(d)' <<<"$FBODIES")" -ge 3 ] && break
done
assert_eq "$FBODIES" '["f1", "f2", "f3"]' "FIFO order"
assert_eq "$(sqs receive-message --queue-url "$FIFO_URL" --wait-time-seconds 1 | py 'd.get("Messages", [])')" "[]" \
  "deduplicated FIFO message is not delivered"

step "poison message reaches the DLQ after maxReceiveCount=2 receives"
POISON_ID=$(sqs send-message --queue-url "$SRC_URL" --message-body poison | py 'd["MessageId"]')
RECEIVES=0
for _ in 1 2 3 4 5 6; do
  R=$(sqs receive-message --queue-url "$SRC_URL" --wait-time-seconds 1 --visibility-timeout 0 "${SYSATTRS[@]}")
  if [ -z "$R" ] || [ "$(py 'len(d.get("Messages", []))' <<<"$R")" == "0" ]; then
    [ $RECEIVES -ge 2 ] && break
    continue
  fi
  RECEIVES=$((RECEIVES + 1))
  assert_eq "$(py 'd["Messages"][0]["MessageId"]' <<<"$R")" "$POISON_ID" "poison message id"
  assert_eq "$(py 'd["Messages"][0]["Attributes"]["ApproximateReceiveCount"]' <<<"$R")" "$RECEIVES" "poison ApproximateReceiveCount"
done
assert_eq "$RECEIVES" "2" "poison message received maxReceiveCount times"
DEAD=$(sqs receive-message --queue-url "$DLQ_URL" --wait-time-seconds 2 --visibility-timeout 0)
assert_eq "$(py '[m["MessageId"] for m in d.get("Messages", [])]' <<<"$DEAD")" "[\"$POISON_ID\"]" "poison message is in the DLQ"

if [ $MODERN -eq 1 ]; then
  step "redrive with start-message-move-task, poll list-message-move-tasks until COMPLETED"
  SRC_ARN=$(sqs get-queue-attributes --queue-url "$SRC_URL" --attribute-names QueueArn | py 'd["Attributes"]["QueueArn"]')
  HANDLE=$(sqs start-message-move-task --source-arn "$DLQ_ARN" --destination-arn "$SRC_ARN" | py 'd["TaskHandle"]')
  [ -n "$HANDLE" ] || fail "StartMessageMoveTask TaskHandle" "non-empty" "''"
  STATUS=""
  for _ in $(seq 1 20); do
    T=$(sqs list-message-move-tasks --source-arn "$DLQ_ARN")
    STATUS=$(py 'd["Results"][0]["Status"]' <<<"$T")
    case "$STATUS" in COMPLETED|FAILED|CANCELLED) break ;; esac
    sleep 1
  done
  assert_eq "$STATUS" "COMPLETED" "move task status ($T)"
  assert_eq "$(py 'd["Results"][0]["ApproximateNumberOfMessagesMoved"]' <<<"$T")" "1" "ApproximateNumberOfMessagesMoved"
else
  step "redrive by hand (this CLI has no start-message-move-task)"
  sqs send-message --queue-url "$SRC_URL" --message-body poison >/dev/null
  M=$(sqs receive-message --queue-url "$DLQ_URL" --wait-time-seconds 2)
  sqs delete-message --queue-url "$DLQ_URL" --receipt-handle "$(py 'd["Messages"][0]["ReceiptHandle"]' <<<"$M")" >/dev/null
fi
BACK=$(sqs receive-message --queue-url "$SRC_URL" --wait-time-seconds 2)
assert_eq "$(py '[m["Body"] for m in d.get("Messages", [])]' <<<"$BACK")" '["poison"]' "redriven message is back in the source"
sqs delete-message --queue-url "$SRC_URL" --receipt-handle "$(py 'd["Messages"][0]["ReceiptHandle"]' <<<"$BACK")" >/dev/null
assert_eq "$(sqs get-queue-attributes --queue-url "$DLQ_URL" --attribute-names ApproximateNumberOfMessages \
  | py 'd["Attributes"]["ApproximateNumberOfMessages"]')" "0" "DLQ empty after redrive"

step "tags: tag, list, untag"
assert_eq "$(sqs list-queue-tags --queue-url "$FIFO_URL" | py 'd.get("Tags")')" '{"kind": "fifo"}' "tags given at CreateQueue"
sqs tag-queue --queue-url "$SRC_URL" --tags team=compat,env=ci >/dev/null
assert_eq "$(sqs list-queue-tags --queue-url "$SRC_URL" | py 'd.get("Tags")')" '{"env": "ci", "team": "compat"}' "ListQueueTags"
sqs untag-queue --queue-url "$SRC_URL" --tag-keys env >/dev/null
assert_eq "$(sqs list-queue-tags --queue-url "$SRC_URL" | py 'd.get("Tags")')" '{"team": "compat"}' "ListQueueTags after untag"

step "expected errors"
E=$(sqs_error get-queue-url --queue-name "missing-$SUFFIX")
assert_contains "$E" "(AWS.SimpleQueueService.NonExistentQueue)" "GetQueueUrl of a missing queue"
E=$(sqs_error delete-message --queue-url "$SRC_URL" --receipt-handle garbage)
assert_contains "$E" "(ReceiptHandleIsInvalid)" "DeleteMessage with a bad receipt handle"

step "delete queues"
for url in "$SRC_URL" "$FIFO_URL" "$DLQ_URL"; do sqs delete-queue --queue-url "$url" >/dev/null; done
E=$(sqs_error get-queue-attributes --queue-url "$SRC_URL" --attribute-names All)
assert_contains "$E" "(AWS.SimpleQueueService.NonExistentQueue)" "GetQueueAttributes of a deleted queue"
echo "OK cli workflow passed"
