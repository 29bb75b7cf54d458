#!/bin/bash
# The image's HEALTHCHECK: GET /health/ready on the port the server listens on, wanting a 200 status line.
# Needs no curl: bash's /dev/tcp. The port is the server's own default: HIKYAKU_PORT, else 4566 with
# LocalStack parity, else 9324.
case "${HIKYAKU_LOCALSTACK_PARITY:-}" in
  true|on|yes) default=4566 ;;
  *) default=9324 ;;
esac
exec 3<>"/dev/tcp/127.0.0.1/${HIKYAKU_PORT:-$default}" || exit 1
printf 'GET /health/ready HTTP/1.0\r\nHost: localhost\r\n\r\n' >&3
head -n 1 <&3 | grep -q ' 200 '
