#!/usr/bin/env python3
"""boto3 against a Hikyaku server started with --auth sigv4 --config compat/auth/identities.yaml.

Real keys sign SQS (JSON with current boto3, Query with Debian's boto3 1.26) and STS calls; an assumed
role acts in its own account; and every refusal of the negative matrix comes back with AWS's code,
status and text. Usage: auth_check.py ENDPOINT --expect-protocol json|query. Exit 0 = all passed."""
import contextlib
import json
import datetime
import importlib
import sys
import urllib.error
import urllib.request

import boto3
import botocore
import botocore.auth
from botocore import UNSIGNED
from botocore.config import Config
from botocore.exceptions import ClientError

EP = sys.argv[1]
EXPECT = sys.argv[sys.argv.index("--expect-protocol") + 1] if "--expect-protocol" in sys.argv else None
A, B = "111111111111", "222222222222"
ROOT_A = ("AKIAROOTAAAAAAAAAAAA", "rootA/secret/0123456789abcdefghijklmnopq")
ALICE = ("AKIAALICE00000000001", "alice/secret/0123456789abcdefghijklmnopq")
ROOT_B = ("AKIAROOTBBBBBBBBBBBB", "rootB/secret/0123456789abcdefghijklmnopq")
WORKER = "arn:aws:iam::111111111111:role/worker"
BAD_SIGNATURE = ("The request signature we calculated does not match the signature you provided. "
                 "Check your AWS Secret Access Key and signing method. Consult the service documentation for details.")
INVALID_TOKEN = "The security token included in the request is invalid."
NO_RETRY = Config(retries={"max_attempts": 0})
seen_protocols = set()
checks = 0


def client(service, key=None, secret=None, token=None, config=NO_RETRY):
    c = boto3.client(service, endpoint_url=EP, region_name="us-east-1", aws_access_key_id=key,
                     aws_secret_access_key=secret, aws_session_token=token, config=config)
    if service == "sqs":
        c.meta.events.register("before-send.sqs.*", lambda request, **kw: seen_protocols.add(
            "json" if "X-Amz-Target" in request.headers else "query"))
    return c


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        print("FAILED:", what)
        sys.exit(1)


def refused(call, code, status, message=None, prefix=None):
    try:
        call()
    except ClientError as e:
        err, got = e.response["Error"], e.response["ResponseMetadata"]["HTTPStatusCode"]
        check(err["Code"] == code and got == status, f"expected {code} {status}, got {err} {got}")
        if message is not None:
            check(err["Message"] == message, f"message {err['Message']!r} != {message!r}")
        if prefix is not None:
            check(err["Message"].startswith(prefix), f"message {err['Message']!r} does not start with {prefix!r}")
        return err
    check(False, f"expected {code} ({message or prefix}), but the call succeeded")


@contextlib.contextmanager
def signing_clock(offset):
    """Makes botocore sign as if its clock were `offset` away from now: its Python signer (old and new
    botocore) and, where awscrt is installed (Debian's botocore uses it), its CRT signer."""
    patched = []
    if hasattr(botocore.auth, "get_current_datetime"):
        real = botocore.auth.get_current_datetime
        patched.append((botocore.auth, "get_current_datetime", real))
        botocore.auth.get_current_datetime = lambda *a, **k: real(*a, **k) + offset

    class Shifted(datetime.datetime):
        @classmethod
        def utcnow(cls):
            return datetime.datetime.utcnow() + offset

        @classmethod
        def now(cls, tz=None):
            return datetime.datetime.now(tz) + offset

    module = type("ShiftedDatetimeModule", (), {"datetime": Shifted, "timedelta": datetime.timedelta, "timezone": datetime.timezone})
    targets = [botocore.auth]
    try:
        targets.append(importlib.import_module("botocore.crt.auth"))
    except ImportError:
        pass
    for m in targets:
        if getattr(m, "datetime", None) is datetime:
            patched.append((m, "datetime", m.datetime))
            m.datetime = module
    try:
        yield
    finally:
        for m, name, value in patched:
            setattr(m, name, value)


def tamper(c, change):
    """Alters each request after signing (before-send), as a man in the middle would."""
    def hook(request, **kw):
        change(request)
    c.meta.events.register("before-send.*.*", hook)
    return c


# ---------- accepted ----------
sqs_a = client("sqs", *ROOT_A)
urls = sqs_a.list_queues().get("QueueUrls", [])
check(urls == [f"{EP}/{A}/orders"], f"root A lists only its queue: {urls}")
url = sqs_a.create_queue(QueueName="auth-check-%d" % (datetime.datetime.now().timestamp() * 1000))["QueueUrl"]
sqs_a.send_message(QueueUrl=url, MessageBody="signed")
msgs = sqs_a.receive_message(QueueUrl=url, WaitTimeSeconds=1).get("Messages", [])
check([m["Body"] for m in msgs] == ["signed"], f"receive {msgs}")
sqs_a.delete_queue(QueueUrl=url)

who = client("sts", *ROOT_A).get_caller_identity()
check((who["Account"], who["Arn"], who["UserId"]) == (A, f"arn:aws:iam::{A}:root", A), f"root identity {who}")
who = client("sts", *ALICE).get_caller_identity()
check(who["Arn"] == f"arn:aws:iam::{A}:user/alice" and who["UserId"].startswith("AIDA"), f"alice identity {who}")

creds = client("sts", *ROOT_B).assume_role(RoleArn=WORKER, RoleSessionName="boto3")["Credentials"]
check(creds["AccessKeyId"].startswith("ASIA"), f"temporary key {creds['AccessKeyId']}")
session = (creds["AccessKeyId"], creds["SecretAccessKey"], creds["SessionToken"])
as_role = client("sqs", *session)
role_urls = as_role.list_queues().get("QueueUrls", [])
check(role_urls and all(u.startswith(f"{EP}/{A}/") for u in role_urls), f"the role lists A's queues: {role_urls}")
who = client("sts", *session).get_caller_identity()
check(who["Arn"] == f"arn:aws:sts::{A}:assumed-role/worker/boto3" and who["Account"] == A, f"role identity {who}")

# ---------- refused ----------
refused(lambda: client("sqs", ROOT_A[0], "wrong").list_queues(), "SignatureDoesNotMatch", 403, BAD_SIGNATURE)
refused(lambda: client("sqs", "AKIANOBODY0000000000", "x").list_queues(), "InvalidClientTokenId", 403, INVALID_TOKEN)
refused(lambda: client("sts", ROOT_A[0], "wrong").get_caller_identity(), "SignatureDoesNotMatch", 403, BAD_SIGNATURE)
with signing_clock(datetime.timedelta(minutes=-16)):
    refused(lambda: client("sqs", *ROOT_A).list_queues(), "SignatureDoesNotMatch", 403, prefix="Signature expired: ")
with signing_clock(datetime.timedelta(minutes=16)):
    refused(lambda: client("sqs", *ROOT_A).list_queues(), "SignatureDoesNotMatch", 403, prefix="Signature not yet current: ")


def body_tamper(request):
    body = request.body if isinstance(request.body, bytes) else (request.body or "").encode()
    request.body = body.replace(b"{}", b'{"QueueNamePrefix":"x"}') if body == b"{}" else body + b"&QueueNamePrefix=x"
    request.headers["Content-Length"] = str(len(request.body))


refused(lambda: tamper(client("sqs", *ROOT_A), body_tamper).list_queues(), "SignatureDoesNotMatch", 403, BAD_SIGNATURE)


def date_tamper(request):
    d = request.headers["X-Amz-Date"]
    d = d if isinstance(d, str) else d.decode()
    request.headers["X-Amz-Date"] = d[:13] + ("4" if d[13] == "5" else "5") + d[14:]


refused(lambda: tamper(client("sqs", *ROOT_A), date_tamper).list_queues(), "SignatureDoesNotMatch", 403, BAD_SIGNATURE)


def unsign_host(request):
    auth = request.headers["Authorization"]
    auth = auth if isinstance(auth, str) else auth.decode()
    request.headers["Authorization"] = auth.replace("host;", "")


refused(lambda: tamper(client("sqs", *ROOT_A), unsign_host).list_queues(), "SignatureDoesNotMatch", 403,
        "'Host' must be a 'SignedHeader' in the AWS Authorization.")
refused(lambda: client("sqs", session[0], session[1]).list_queues(), "InvalidClientTokenId", 403, INVALID_TOKEN)
refused(lambda: client("sqs", session[0], session[1], session[2] + "x").list_queues(), "InvalidClientTokenId", 403, INVALID_TOKEN)
refused(lambda: client("sqs", config=Config(signature_version=UNSIGNED, retries={"max_attempts": 0})).list_queues(),
        "AccessDenied", 403, "Access to the resource https://sqs.us-east-1.amazonaws.com/ is denied.")
refused(lambda: sqs_a.send_message(QueueUrl=f"{EP}/{B}/billing", MessageBody="x"), "AccessDenied", 403,
        f"User: arn:aws:iam::{A}:root is not authorized to perform: sqs:sendmessage on resource: "
        f"arn:aws:sqs:us-east-1:{B}:billing because no resource-based policy allows the sqs:sendmessage action")
refused(lambda: client("sts", *ALICE).assume_role(RoleArn=WORKER, RoleSessionName="nope"), "AccessDenied", 403,
        f"User: arn:aws:iam::{A}:user/alice is not authorized to perform: sts:AssumeRole on resource: {WORKER}")


# ---------- authorization (identity policies, queue policies, anonymous) ----------
def denied_text(who, action, resource, why):
    return f"User: {who} is not authorized to perform: sqs:{action} on resource: {resource} {why}"


ORDERS = f"{EP}/{A}/orders"
ORDERS_ARN = f"arn:aws:sqs:us-east-1:{A}:orders"
alice = client("sqs", *ALICE)
alice.send_message(QueueUrl=ORDERS, MessageBody="alice may send")
refused(lambda: alice.receive_message(QueueUrl=ORDERS), "AccessDenied", 403,
        denied_text(f"arn:aws:iam::{A}:user/alice", "receivemessage", ORDERS_ARN,
                    "because no identity-based policy allows the sqs:receivemessage action"))
sqs_a.receive_message(QueueUrl=ORDERS)  # the root may do anything in its account

SHARED = "authz-shared-%d" % (datetime.datetime.now().timestamp() * 1000)
shared = sqs_a.create_queue(QueueName=SHARED)["QueueUrl"]
shared_arn = f"arn:aws:sqs:us-east-1:{A}:{SHARED}"
sqs_b = client("sqs", *ROOT_B)
refused(lambda: sqs_b.send_message(QueueUrl=shared, MessageBody="x"), "AccessDenied", 403,
        denied_text(f"arn:aws:iam::{B}:root", "sendmessage", shared_arn,
                    "because no resource-based policy allows the sqs:sendmessage action"))
sqs_a.set_queue_attributes(QueueUrl=shared, Attributes={"Policy": json.dumps({"Version": "2012-10-17", "Statement": [
    {"Effect": "Allow", "Principal": {"AWS": B}, "Action": "sqs:*", "Resource": shared_arn},
    {"Effect": "Deny", "Principal": "*", "Action": "sqs:PurgeQueue", "Resource": shared_arn},
    {"Effect": "Allow", "Principal": "*", "Action": "sqs:SendMessage", "Resource": shared_arn,
     "Condition": {"IpAddress": {"aws:SourceIp": ["127.0.0.0/8", "::1/128"]}}}]})})
sqs_b.send_message(QueueUrl=shared, MessageBody="from B")
check(sqs_b.get_queue_url(QueueName=SHARED, QueueOwnerAWSAccountId=A)["QueueUrl"] == shared, "B finds A's shared queue")
refused(lambda: sqs_b.purge_queue(QueueUrl=shared), "AccessDenied", 403,
        denied_text(f"arn:aws:iam::{B}:root", "purgequeue", shared_arn, "with an explicit deny in a resource-based policy"))
refused(lambda: sqs_b.delete_queue(QueueUrl=shared), "AccessDenied", 403,
        denied_text(f"arn:aws:iam::{B}:root", "deletequeue", shared_arn,
                    "because no resource-based policy allows the sqs:deletequeue action"))
anonymous = client("sqs", config=Config(signature_version=UNSIGNED, retries={"max_attempts": 0}))
anonymous.send_message(QueueUrl=shared, MessageBody="anonymous")
refused(lambda: anonymous.receive_message(QueueUrl=shared), "AccessDenied", 403,
        f"Access to the resource https://sqs.us-east-1.amazonaws.com/{A}/{SHARED} is denied.")
refused(lambda: anonymous.send_message(QueueUrl=ORDERS, MessageBody="x"), "AccessDenied", 403,
        f"Access to the resource https://sqs.us-east-1.amazonaws.com/{A}/orders is denied.")
bodies = sorted(m["Body"] for m in sqs_a.receive_message(QueueUrl=shared, MaxNumberOfMessages=10).get("Messages", []))
check(set(bodies) <= {"from B", "anonymous"} and bodies, f"A reads what B and anonymous sent: {bodies}")
sqs_a.delete_queue(QueueUrl=shared)


def get(url):
    try:
        with urllib.request.urlopen(url) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def presigned(expires):
    """A Query GET presigned by botocore's SigV4QueryAuth (what generate_presigned_url uses)."""
    from botocore.auth import SigV4QueryAuth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials
    request = AWSRequest(method="GET", url=f"{EP}/?Action=ListQueues&Version=2012-11-05")
    SigV4QueryAuth(Credentials(*ROOT_A), "sqs", "us-east-1", expires=expires).add_auth(request)
    return request.prepare().url


status, body = get(presigned(300))
check(status == 200 and "ListQueuesResult" in body, f"a fresh presigned URL works: {status} {body}")
with signing_clock(datetime.timedelta(minutes=-30)):
    expired = presigned(60)
status, body = get(expired)
check(status == 403 and "<Code>SignatureDoesNotMatch</Code>" in body and "Signature expired: " in body, f"expired URL: {status} {body}")
status, body = get(presigned(300).replace("Action=ListQueues", "Action=ListQueues&QueueNamePrefix=x"))
check(status == 403 and "<Code>SignatureDoesNotMatch</Code>" in body, f"tampered query: {status} {body}")

if EXPECT:
    check(seen_protocols == {EXPECT}, f"expected protocol {EXPECT}, saw {seen_protocols}")
print(f"ok: {checks} checks, boto3 {boto3.__version__}, botocore {botocore.__version__}, protocol {sorted(seen_protocols)}")
