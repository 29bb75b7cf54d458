#!/usr/bin/env python3
"""SSE-KMS and SSE-SQS queues with boto3's sqs and kms clients against a Hikyaku endpoint (auth none).

Usage: sse_check.py ENDPOINT [--expect-protocol json|query]. Checks SQS's KMS.* errors on send (single and per
batch entry) and receive for a disabled key and a key pending deletion, their recovery, and the MD5s of what an
encrypted queue returns, in whichever protocol this boto3 speaks to SQS (current boto3: JSON; Debian 12's 1.26:
Query, where the error code comes from the XML body). Prints "ok: <n> checks ..." and exits 0, or fails with the
first difference.
"""
import hashlib
import sys
import uuid

import boto3
import botocore
from botocore.config import Config
from botocore.exceptions import ClientError

endpoint = sys.argv[1]
common = dict(endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="test",
              config=Config(retries={"max_attempts": 1}))
kms = boto3.client("kms", **common)
sqs = boto3.client("sqs", **common)
EXPECT = sys.argv[sys.argv.index("--expect-protocol") + 1] if "--expect-protocol" in sys.argv else None
seen_protocols = set()
sqs.meta.events.register("before-send.sqs.*", lambda request, **kw: seen_protocols.add(
    "json" if "X-Amz-Target" in request.headers else "query"))
checks = 0


def expect_error(code, status, call, **kwargs):
    global checks
    try:
        call(**kwargs)
    except ClientError as e:
        got = e.response["Error"]["Code"]
        assert got == code, f"{call.__name__}: expected {code}, got {got}: {e.response['Error'].get('Message')}"
        got_status = e.response["ResponseMetadata"]["HTTPStatusCode"]
        assert got_status == status, f"{call.__name__}: expected HTTP {status}, got {got_status}"
        checks += 1
        return e.response["Error"].get("Message")
    raise AssertionError(f"{call.__name__}: expected {code}, got success")


def md5(text):
    return hashlib.md5(text.encode("utf-8")).hexdigest()


key = kms.create_key(Description="sse boto3")["KeyMetadata"]
name = "sse-boto3-" + uuid.uuid4().hex[:8]
url = sqs.create_queue(QueueName=name, Attributes={"KmsMasterKeyId": key["KeyId"],
                                                    "KmsDataKeyReusePeriodSeconds": "60"})["QueueUrl"]
attrs = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
assert attrs["KmsMasterKeyId"] == key["KeyId"] and attrs["KmsDataKeyReusePeriodSeconds"] == "60", attrs
assert attrs["SqsManagedSseEnabled"] == "false", attrs
checks += 1

marker = "marker " + uuid.uuid4().hex
sent = sqs.send_message(QueueUrl=url, MessageBody=marker,
                        MessageAttributes={"a": {"DataType": "String", "StringValue": marker}})
assert sent["MD5OfMessageBody"] == md5(marker), sent
checks += 1

kms.disable_key(KeyId=key["KeyId"])
message = expect_error("KMS.DisabledException", 400, sqs.send_message, QueueUrl=url, MessageBody="x")
assert message == key["Arn"] + " is disabled.", message
batch = sqs.send_message_batch(QueueUrl=url, Entries=[{"Id": "1", "MessageBody": "x"}, {"Id": "2", "MessageBody": "y"}])
assert not batch.get("Successful"), batch
assert [(f["Id"], f["Code"], f["SenderFault"]) for f in batch["Failed"]] == [
    ("1", "KMS.DisabledException", True), ("2", "KMS.DisabledException", True)], batch
checks += 1
expect_error("KMS.DisabledException", 400, sqs.receive_message, QueueUrl=url)
counts = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages"])["Attributes"]
assert counts["ApproximateNumberOfMessages"] == "1", counts
checks += 1

kms.enable_key(KeyId=key["KeyId"])
got = sqs.receive_message(QueueUrl=url, MessageAttributeNames=["All"], WaitTimeSeconds=1)["Messages"]
assert len(got) == 1 and got[0]["Body"] == marker and got[0]["MD5OfBody"] == md5(marker), got
assert got[0]["MessageAttributes"]["a"]["StringValue"] == marker, got
assert got[0]["MD5OfMessageAttributes"] == sent["MD5OfMessageAttributes"], got
checks += 1
sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=got[0]["ReceiptHandle"], VisibilityTimeout=0)

kms.schedule_key_deletion(KeyId=key["KeyId"], PendingWindowInDays=7)
message = expect_error("KMS.InvalidStateException", 400, sqs.send_message, QueueUrl=url, MessageBody="x")
assert message == key["Arn"] + " is pending deletion.", message
expect_error("KMS.InvalidStateException", 400, sqs.receive_message, QueueUrl=url)
kms.cancel_key_deletion(KeyId=key["KeyId"])
kms.enable_key(KeyId=key["KeyId"])
sqs.send_message(QueueUrl=url, MessageBody="after")
bodies = set()
for _ in range(5):
    for m in sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=1).get("Messages", []):
        bodies.add(m["Body"])
    if len(bodies) == 2:
        break
assert bodies == {marker, "after"}, bodies
checks += 1

missing = sqs.create_queue(QueueName=name + "-missing",
                           Attributes={"KmsMasterKeyId": "alias/does-not-exist"})["QueueUrl"]
expect_error("KMS.NotFoundException", 400, sqs.send_message, QueueUrl=missing, MessageBody="x")

default = sqs.create_queue(QueueName=name + "-sse-sqs")["QueueUrl"]
assert sqs.get_queue_attributes(QueueUrl=default, AttributeNames=["SqsManagedSseEnabled"])["Attributes"] == {
    "SqsManagedSseEnabled": "true"}
sqs.send_message(QueueUrl=default, MessageBody=marker)
got = sqs.receive_message(QueueUrl=default, WaitTimeSeconds=1)["Messages"]
assert got[0]["Body"] == marker and got[0]["MD5OfBody"] == md5(marker), got
checks += 1
if EXPECT:
    assert seen_protocols == {EXPECT}, f"expected protocol {EXPECT}, saw {seen_protocols}"
print(f"ok: {checks} checks, boto3 {boto3.__version__}, botocore {botocore.__version__}, protocol {sorted(seen_protocols)}")
