#!/bin/bash
# compose.yaml's stand-in application: waits until Hikyaku is ready, then sends one message to the orders
# queue with SQS's JSON protocol (what the AWS SDKs speak), over bash's /dev/tcp (the image has no curl).
set -euo pipefail
endpoint="${AWS_ENDPOINT_URL_SQS:?}"
hostport="${endpoint#http://}"
host="${hostport%%:*}"
port="${hostport##*:}"
request() {  # request METHOD PATH [BODY] [X-Amz-Target]: prints the status line
  local body="${3:-}" target="${4:-}"
  exec 3<>"/dev/tcp/$host/$port"
  {
    printf '%s %s HTTP/1.0\r\nHost: %s\r\n' "$1" "$2" "$hostport"
    if [[ -n "$target" ]]; then
      printf 'X-Amz-Target: %s\r\nContent-Type: application/x-amz-json-1.0\r\n' "$target"
    fi
    printf 'Content-Length: %s\r\n\r\n%s' "${#body}" "$body"
  } >&3
  head -n 1 <&3
  exec 3<&-
}
for _ in $(seq 1 120); do
  if request GET /health/ready 2>/dev/null | grep -q ' 200 '; then
    break
  fi
  sleep 0.5
done
queue="http://$hostport/000000000000/orders"
status="$(request POST / "{\"QueueUrl\":\"$queue\",\"MessageBody\":\"order 1 from the app\"}" AmazonSQS.SendMessage)"
echo "app: SendMessage to $queue: $status"
[[ "$status" == *" 200 "* ]]
