#!/usr/bin/env python3
"""Writes identity/src/test/resources/sigv4-vectors.json: requests of our own, signed by botocore's
SigV4 signer (an independent implementation), with the canonical request, string to sign and
signature it produced. SigV4CanonicalTest checks our verifier against every one.
Run: python3 identity/tools/make-sigv4-vectors.py > identity/src/test/resources/sigv4-vectors.json"""
import json
from botocore.auth import SigV4Auth, SigV4QueryAuth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

CREDS = Credentials("AKIAVECTORKEY0000001", "vectorSecretKey/0123456789abcdefghijKLMN")
SESSION = Credentials("ASIAVECTORKEY0000002", "sessionSecret/abcdefghij0123456789KLMN", "session-token-value+/=")

CASES = [
    # name, method, url, headers (list of pairs, in order), body, credentials, service, region, presign expires
    ("get-vanilla", "GET", "http://127.0.0.1:9324/", [], b"", CREDS, "sqs", "us-east-1", None),
    ("get-query-order", "GET", "http://127.0.0.1:9324/?b=2&a=1&a=0&c=", [], b"", CREDS, "sqs", "us-east-1", None),
    ("get-query-unreserved", "GET", "http://127.0.0.1:9324/?k=-_.~AZaz09&sp=a%20b&plus=%2B&slash=%2F&utf8=%E2%82%AC", [], b"", CREDS, "sqs", "eu-west-1", None),
    ("get-path-dots", "GET", "http://127.0.0.1:9324/a/./b/../c//d/", [], b"", CREDS, "sqs", "us-east-1", None),
    ("get-path-encoded", "GET", "http://127.0.0.1:9324/000000000000/my%20queue", [], b"", CREDS, "sqs", "us-east-1", None),
    ("get-header-duplicate", "GET", "http://127.0.0.1:9324/", [("My-Header1", "value2"), ("My-Header1", "value2"), ("My-Header1", "value1")], b"", CREDS, "sqs", "us-east-1", None),
    ("get-header-trim", "GET", "http://127.0.0.1:9324/", [("My-Header1", "  value1  "), ("My-Header2", "a   b\t c")], b"", CREDS, "sqs", "us-east-1", None),
    ("post-json", "POST", "http://localhost:9324/", [("Content-Type", "application/x-amz-json-1.0"), ("X-Amz-Target", "AmazonSQS.ListQueues")], b"{}", CREDS, "sqs", "us-east-1", None),
    ("post-query-session", "POST", "http://localhost:9324/000000000000/orders", [("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")], b"Action=SendMessage&MessageBody=hello%20world&Version=2012-11-05", SESSION, "sqs", "us-west-2", None),
    ("post-sts", "POST", "http://127.0.0.1:9324/", [("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")], b"Action=GetCallerIdentity&Version=2011-06-15", CREDS, "sts", "us-east-1", None),
    ("presigned-get", "GET", "http://127.0.0.1:9324/000000000000/orders?Action=ReceiveMessage&Version=2012-11-05", [], b"", CREDS, "sqs", "us-east-1", 600),
    ("presigned-session", "GET", "http://127.0.0.1:9324/?Action=ListQueues&Version=2012-11-05", [], b"", SESSION, "sqs", "us-east-1", 3600),
]

out = []
if True:
    for name, method, url, headers, body, creds, service, region, expires in CASES:
        req = AWSRequest(method=method, url=url, data=body)
        for k, v in headers:
            req.headers.add_header(k, v) if hasattr(req.headers, "add_header") else req.headers.__setitem__(k, v)
        signer = SigV4QueryAuth(creds, service, region, expires=expires) if expires else SigV4Auth(creds, service, region)
        seen = {}
        real_canonical, real_sts = signer.canonical_request, signer.string_to_sign
        signer.canonical_request = lambda r: seen.setdefault("canonical", real_canonical(r))
        signer.string_to_sign = lambda r, c: seen.setdefault("sts", real_sts(r, c))
        signer.add_auth(req)
        canonical, sts = seen["canonical"], seen["sts"]
        prepared = req.prepare()
        path, _, query = prepared.url.split("://", 1)[1].partition("/")[2].partition("?")
        sent = [["host", url.split("://", 1)[1].split("/", 1)[0]]] + [[k.lower(), v] for k, v in req.headers.items()]
        amz_date = req.headers.get("X-Amz-Date") or req.context["timestamp"]
        out.append({
            "name": name, "method": method, "rawPath": "/" + path, "rawQuery": query,
            "headers": sent, "body": body.decode(),
            "accessKeyId": creds.access_key, "secret": creds.secret_key, "sessionToken": creds.token,
            "amzDate": amz_date, "canonicalRequest": canonical, "stringToSign": sts,
            "signature": (req.headers.get("Authorization") or "").rpartition("Signature=")[2] or prepared.url.rpartition("X-Amz-Signature=")[2],
        })
print(json.dumps(out, indent=1))
