#!/bin/sh
# LocalStack's entry point path (/usr/local/bin/docker-entrypoint.sh in the image). Testcontainers'
# LocalStackContainer replaces the image's entry point by a script that ends in this one; it starts Hikyaku
# with LocalStack parity (port 4566 unless HIKYAKU_PORT is set, the Ready. line, /_localstack/health).
# LocalStack's region variables become Hikyaku's region; SERVICES and LOCALSTACK_HOST are not needed (every
# service runs; queue URLs follow each request's Host header).
export HIKYAKU_LOCALSTACK_PARITY="${HIKYAKU_LOCALSTACK_PARITY:-true}"
if [ -z "${HIKYAKU_REGION:-}" ]; then
  region="${DEFAULT_REGION:-${AWS_DEFAULT_REGION:-}}"
  if [ -n "$region" ]; then
    export HIKYAKU_REGION="$region"
  fi
fi
exec /opt/hikyaku/jre/bin/java @/opt/hikyaku/java.args serve "$@"
