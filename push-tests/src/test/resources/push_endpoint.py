#!/usr/bin/env python3
"""A Lambda-style SQS handler behind a tiny HTTP adapter, for push delivery tests.

The handler follows Lambda's contract: it gets the SQS event ({"Records": [...]}) and returns an
SQSBatchResponse ({"batchItemFailures": [{"itemIdentifier": ...}]}). What it does per message comes
from the message body, so a test decides the outcome by what it sends:
  "fail:..."   -> reported in batchItemFailures
  "crash:..."  -> the whole invocation fails (HTTP 500, as an unhandled exception in Lambda)
  "sleep:S:.." -> sleeps S seconds first (to exceed the function timeout)
  anything else succeeds.

Usage: push_endpoint.py LOG_FILE [SIGNING_SECRET]
Prints "PORT <n>" once listening on 127.0.0.1 (an ephemeral port). Appends one JSON line per
invocation to LOG_FILE: {"event": ..., "signatureOk": true|false|null}.
"""
import hashlib
import hmac
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOG_FILE = sys.argv[1]
SECRET = sys.argv[2].encode() if len(sys.argv) > 2 else None
LOCK = threading.Lock()


def handler(event):
    """An unchanged Lambda handler: raises to fail the batch, returns batch item failures."""
    failures = []
    for record in event["Records"]:
        body = record["body"]
        if body.startswith("sleep:"):
            time.sleep(float(body.split(":")[1]))
        if body.startswith("crash:"):
            raise RuntimeError("crash requested by " + record["messageId"])
        if body.startswith("fail:"):
            failures.append({"itemIdentifier": record["messageId"]})
    return {"batchItemFailures": failures}


class Adapter(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        signature_ok = None
        if SECRET is not None:
            ts = self.headers.get("X-Hikyaku-Timestamp", "")
            expected = "v1=" + hmac.new(SECRET, ts.encode() + b"." + raw, hashlib.sha256).hexdigest()
            signature_ok = hmac.compare_digest(expected, self.headers.get("X-Hikyaku-Signature", "")) \
                and abs(time.time() - int(ts or 0)) < 300
        event = json.loads(raw)
        with LOCK:
            with open(LOG_FILE, "a") as f:
                f.write(json.dumps({"event": event, "signatureOk": signature_ok}) + "\n")
        if signature_ok is False:
            self.reply(401, {"message": "bad signature"})
            return
        try:
            self.reply(200, handler(event))
        except Exception as e:  # an unhandled exception: Lambda reports a function error
            self.reply(500, {"errorMessage": str(e), "errorType": type(e).__name__})

    def reply(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, fmt, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Adapter)
server.daemon_threads = True
print("PORT %d" % server.server_address[1], flush=True)
server.serve_forever()
