#!/usr/bin/env bash
# The AWS CLI against a Hikyaku server with --auth sigv4 --config compat/auth/identities.yaml:
# `aws sts get-caller-identity` and an SQS call with real keys, and a wrong secret refused with AWS's code.
# Usage: cli.sh ENDPOINT [--aws PATH]. Exit 0 = all passed.
set -euo pipefail
EP="$1"; shift
AWS=aws
[ "${1:-}" == "--aws" ] && AWS="$2"
export AWS_DEFAULT_REGION=us-east-1 AWS_EC2_METADATA_DISABLED=true AWS_PAGER="" AWS_MAX_ATTEMPTS=1
fail() { echo "FAILED: $*"; exit 1; }

out=$(AWS_ACCESS_KEY_ID=AKIAROOTAAAAAAAAAAAA AWS_SECRET_ACCESS_KEY='rootA/secret/0123456789abcdefghijklmnopq' \
  "$AWS" --endpoint-url "$EP" sts get-caller-identity --output text --query '[Account,Arn,UserId]')
[ "$out" == $'111111111111\tarn:aws:iam::111111111111:root\t111111111111' ] || fail "root identity: $out"

out=$(AWS_ACCESS_KEY_ID=AKIAALICE00000000001 AWS_SECRET_ACCESS_KEY='alice/secret/0123456789abcdefghijklmnopq' \
  "$AWS" --endpoint-url "$EP" sts get-caller-identity --output text --query Arn)
[ "$out" == "arn:aws:iam::111111111111:user/alice" ] || fail "alice identity: $out"

out=$(AWS_ACCESS_KEY_ID=AKIAROOTAAAAAAAAAAAA AWS_SECRET_ACCESS_KEY='rootA/secret/0123456789abcdefghijklmnopq' \
  "$AWS" --endpoint-url "$EP" sqs list-queues --output text --query 'QueueUrls[0]')
[ "$out" == "$EP/111111111111/orders" ] || fail "list-queues: $out"

if err=$(AWS_ACCESS_KEY_ID=AKIAROOTAAAAAAAAAAAA AWS_SECRET_ACCESS_KEY=wrong \
  "$AWS" --endpoint-url "$EP" sts get-caller-identity 2>&1); then fail "a wrong secret was accepted"; fi
[[ "$err" == *"SignatureDoesNotMatch"* ]] || fail "wrong secret: $err"

if err=$(AWS_ACCESS_KEY_ID=AKIANOBODY0000000000 AWS_SECRET_ACCESS_KEY=x \
  "$AWS" --endpoint-url "$EP" sqs list-queues 2>&1); then fail "an unknown key was accepted"; fi
[[ "$err" == *"InvalidClientTokenId"* ]] || fail "unknown key: $err"
echo "ok: $("$AWS" --version 2>&1)"
