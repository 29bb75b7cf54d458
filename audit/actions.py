#!/usr/bin/env python3
"""Happy path and response shape of all 23 SQS actions via boto3, plus attribute validation that
sqs-behaviours.md does not list (queue names, RedrivePolicy, RedriveAllowPolicy, tags, paging, DLQ
redrive). Runs on both `python3` (JSON) and `/usr/bin/python3` (Query). Usage: actions.py PORT
"""
import json
import sys
import time
import uuid

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

PORT = int(sys.argv[1])
ENDPOINT = "http://127.0.0.1:%d" % PORT
sqs = boto3.client("sqs", endpoint_url=ENDPOINT, region_name="us-east-1", aws_access_key_id="test",
                   aws_secret_access_key="test", config=Config(retries={"max_attempts": 1}, parameter_validation=False))
PROTO = sqs.meta.service_model.protocol
RUN = uuid.uuid4().hex[:6]
results = []
covered = set()


def report(ok, action, what, detail=""):
    covered.add(action)
    results.append(bool(ok))
    print("%s %s [%s] %s%s" % ("PASS" if ok else "FAIL", action, PROTO, what, ("  -- " + str(detail)[:400]) if detail and not ok else ""))


def err(action, what, fn, code, message=None, status=400):
    try:
        fn()
    except ClientError as e:
        er = e.response["Error"]
        st = e.response["ResponseMetadata"]["HTTPStatusCode"]
        ok = er.get("Code") == code and (message is None or er.get("Message") == message) and st == status
        report(ok, action, what, "%s %r %s" % (er.get("Code"), er.get("Message"), st))
        return
    report(False, action, what, "no error")


def n(base):
    return "c%s-%s" % (RUN, base)


def arn(url):
    return sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]


def main():
    # CreateQueue / GetQueueUrl / ListQueues
    u = sqs.create_queue(QueueName=n("main"), tags={"team": "a", "env": "dev"})["QueueUrl"]
    report(u == "%s/000000000000/%s" % (ENDPOINT, n("main")), "CreateQueue", "URL form", u)
    report(sqs.get_queue_url(QueueName=n("main"))["QueueUrl"] == u, "GetQueueUrl", "same URL")
    err("CreateQueue", "empty name", lambda: sqs.create_queue(QueueName=""), "MissingParameter")
    for bad in ("a" * 81, "bad name", "bad.name", "x" * 76 + ".fifo" + "x"):
        err("CreateQueue", "invalid name %r" % bad[:12], lambda: sqs.create_queue(QueueName=bad), "InvalidParameterValue")
    err("CreateQueue", "81-char name",
        lambda: sqs.create_queue(QueueName="a" * 81), "InvalidParameterValue",
        "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length")
    sqs.create_queue(QueueName="a" * 80)
    report(True, "CreateQueue", "80-char name accepted")
    sqs.create_queue(QueueName=("f" * 75) + ".fifo", Attributes={"FifoQueue": "true"})
    report(True, "CreateQueue", "80-char FIFO name (suffix counts) accepted")
    for i in range(3):
        sqs.create_queue(QueueName=n("page%d" % i))
    r = sqs.list_queues(QueueNamePrefix=n("page"), MaxResults=2)
    r2 = sqs.list_queues(QueueNamePrefix=n("page"), MaxResults=2, NextToken=r.get("NextToken", ""))
    report(len(r["QueueUrls"]) == 2 and "NextToken" in r and len(r2["QueueUrls"]) == 1 and "NextToken" not in r2,
           "ListQueues", "paging with MaxResults/NextToken", (r, r2))
    r = sqs.list_queues(QueueNamePrefix=n("page"))
    report(len(r["QueueUrls"]) == 3 and "NextToken" not in r, "ListQueues", "prefix, no token without MaxResults", r)
    r = sqs.list_queues(QueueNamePrefix=n("nothing"))
    report("QueueUrls" not in r, "ListQueues", "no match -> no QueueUrls key", r)
    err("ListQueues", "bad NextToken", lambda: sqs.list_queues(MaxResults=1, NextToken="garbage"), "InvalidParameterValue")

    # Tags
    report(sqs.list_queue_tags(QueueUrl=u).get("Tags") == {"team": "a", "env": "dev"}, "ListQueueTags", "tags from CreateQueue")
    sqs.tag_queue(QueueUrl=u, Tags={"team": "b", "new": ""})
    sqs.untag_queue(QueueUrl=u, TagKeys=["env", "absent"])
    t = sqs.list_queue_tags(QueueUrl=u).get("Tags")
    report(t == {"team": "b", "new": ""}, "TagQueue", "tag/untag merge, empty value", t)
    covered.add("UntagQueue")
    err("TagQueue", "51 tags", lambda: sqs.tag_queue(QueueUrl=u, Tags={"k%d" % i: "v" for i in range(51)}), "InvalidParameterValue")
    err("TagQueue", "key of 129 chars", lambda: sqs.tag_queue(QueueUrl=u, Tags={"k" * 129: "v"}), "InvalidParameterValue")
    sqs.untag_queue(QueueUrl=u, TagKeys=["team", "new"] + ["k%d" % i for i in range(51)] + ["k" * 129])
    r = sqs.list_queue_tags(QueueUrl=u)
    report("Tags" not in r, "ListQueueTags", "no tags -> no Tags key", r)

    # Attributes: specific names, All mixed, validation of JSON policies
    a = sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["VisibilityTimeout", "DelaySeconds"])["Attributes"]
    report(a == {"VisibilityTimeout": "30", "DelaySeconds": "0"}, "GetQueueAttributes", "named subset", a)
    r = sqs.get_queue_attributes(QueueUrl=u)
    report("Attributes" not in r, "GetQueueAttributes", "no names -> no Attributes", r)
    a = sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["Policy"])
    report("Attributes" not in a, "GetQueueAttributes", "absent Policy -> no Attributes", a)
    err("SetQueueAttributes", "RedrivePolicy not JSON",
        lambda: sqs.set_queue_attributes(QueueUrl=u, Attributes={"RedrivePolicy": "nope"}), "InvalidParameterValue",
        "Value nope for parameter RedrivePolicy is invalid. Reason: Redrive policy is not a valid JSON map.")  # api's decision (apifix 006af4b)
    err("SetQueueAttributes", "RedrivePolicy to missing DLQ",
        lambda: sqs.set_queue_attributes(QueueUrl=u, Attributes={"RedrivePolicy": json.dumps(
            {"deadLetterTargetArn": "arn:aws:sqs:us-east-1:000000000000:" + n("nodlq"), "maxReceiveCount": 2})}),
        "InvalidParameterValue")
    dlq = sqs.create_queue(QueueName=n("dlq"))["QueueUrl"]
    err("SetQueueAttributes", "maxReceiveCount 0",
        lambda: sqs.set_queue_attributes(QueueUrl=u, Attributes={"RedrivePolicy": json.dumps(
            {"deadLetterTargetArn": arn(dlq), "maxReceiveCount": 0})}), "InvalidParameterValue")
    fdlq = sqs.create_queue(QueueName=n("fd.fifo"), Attributes={"FifoQueue": "true"})["QueueUrl"]
    err("SetQueueAttributes", "FIFO DLQ for standard queue",
        lambda: sqs.set_queue_attributes(QueueUrl=u, Attributes={"RedrivePolicy": json.dumps(
            {"deadLetterTargetArn": arn(fdlq), "maxReceiveCount": 2})}), "InvalidParameterValue")
    err("SetQueueAttributes", "Policy not JSON",
        lambda: sqs.set_queue_attributes(QueueUrl=u, Attributes={"Policy": "{"}), "InvalidAttributeValue")
    err("SetQueueAttributes", "RedriveAllowPolicy bad permission",
        lambda: sqs.set_queue_attributes(QueueUrl=dlq, Attributes={"RedriveAllowPolicy": json.dumps({"redrivePermission": "nobody"})}),
        "InvalidParameterValue")
    sqs.set_queue_attributes(QueueUrl=dlq, Attributes={"RedriveAllowPolicy": json.dumps({"redrivePermission": "byQueue", "sourceQueueArns": [arn(u)]})})
    sqs.set_queue_attributes(QueueUrl=u, Attributes={"RedrivePolicy": json.dumps({"deadLetterTargetArn": arn(dlq), "maxReceiveCount": "1"})})
    rp = json.loads(sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["RedrivePolicy"])["Attributes"]["RedrivePolicy"])
    report(rp == {"deadLetterTargetArn": arn(dlq), "maxReceiveCount": 1}, "SetQueueAttributes", "RedrivePolicy canonical form", rp)
    other = sqs.create_queue(QueueName=n("other"))["QueueUrl"]
    err("SetQueueAttributes", "source not allowed by byQueue RedriveAllowPolicy",
        lambda: sqs.set_queue_attributes(QueueUrl=other, Attributes={"RedrivePolicy": json.dumps({"deadLetterTargetArn": arn(dlq), "maxReceiveCount": 1})}),
        "InvalidParameterValue")
    r = sqs.list_dead_letter_source_queues(QueueUrl=dlq)
    report(r.get("queueUrls") == [u], "ListDeadLetterSourceQueues", "lists the source", r)
    r = sqs.list_dead_letter_source_queues(QueueUrl=other)
    report(r.get("queueUrls", []) == [], "ListDeadLetterSourceQueues", "none", r)

    # Send / Receive / DLQ redrive after maxReceiveCount
    s = sqs.send_message(QueueUrl=u, MessageBody="hello", DelaySeconds=0)
    report(set(s) - {"ResponseMetadata"} == {"MD5OfMessageBody", "MessageId"}, "SendMessage", "standard response keys", s)
    m = sqs.receive_message(QueueUrl=u, VisibilityTimeout=0, WaitTimeSeconds=1)["Messages"][0]
    report(set(m) == {"MessageId", "ReceiptHandle", "MD5OfBody", "Body"}, "ReceiveMessage", "message keys (no attrs asked)", m)
    time.sleep(0.1)
    r = sqs.receive_message(QueueUrl=u)
    report("Messages" not in r, "ReceiveMessage", "over maxReceiveCount moves to DLQ", r)
    m = sqs.receive_message(QueueUrl=dlq, AttributeNames=["All"], WaitTimeSeconds=1).get("Messages", [])
    report(m and m[0]["Body"] == "hello" and m[0]["Attributes"].get("DeadLetterQueueSourceArn") == arn(u),
           "ReceiveMessage", "DLQ message carries DeadLetterQueueSourceArn", m)

    # ChangeMessageVisibility(+Batch), DeleteMessageBatch
    q = sqs.create_queue(QueueName=n("vis"))["QueueUrl"]
    sqs.send_message_batch(QueueUrl=q, Entries=[{"Id": "a", "MessageBody": "1"}, {"Id": "b", "MessageBody": "2"}])
    ms = sqs.receive_message(QueueUrl=q, MaxNumberOfMessages=10, WaitTimeSeconds=1)["Messages"]
    while len(ms) < 2:
        ms += sqs.receive_message(QueueUrl=q, MaxNumberOfMessages=10, WaitTimeSeconds=1).get("Messages", [])
    sqs.change_message_visibility(QueueUrl=q, ReceiptHandle=ms[0]["ReceiptHandle"], VisibilityTimeout=60)
    report(True, "ChangeMessageVisibility", "200")
    r = sqs.change_message_visibility_batch(QueueUrl=q, Entries=[
        {"Id": "x", "ReceiptHandle": ms[0]["ReceiptHandle"], "VisibilityTimeout": 0},
        {"Id": "y", "ReceiptHandle": "garbage", "VisibilityTimeout": 0}])
    f = r.get("Failed", [])
    report([e["Id"] for e in r.get("Successful", [])] == ["x"] and f and f[0]["Id"] == "y" and f[0]["Code"] == "ReceiptHandleIsInvalid"
           and f[0]["SenderFault"] is True, "ChangeMessageVisibilityBatch", "mixed result", r)
    r = sqs.delete_message_batch(QueueUrl=q, Entries=[{"Id": "x", "ReceiptHandle": ms[1]["ReceiptHandle"]},
                                                      {"Id": "y", "ReceiptHandle": "garbage"}])
    f = r.get("Failed", [])
    report([e["Id"] for e in r.get("Successful", [])] == ["x"] and f and f[0]["Code"] == "ReceiptHandleIsInvalid",
           "DeleteMessageBatch", "mixed result", r)
    r = sqs.delete_message_batch(QueueUrl=q, Entries=[{"Id": "x", "ReceiptHandle": ms[1]["ReceiptHandle"]}])
    report("Failed" not in r or r["Failed"] == [], "DeleteMessageBatch", "all ok -> no/empty Failed", r)
    r = sqs.send_message_batch(QueueUrl=q, Entries=[{"Id": "a", "MessageBody": "1", "MessageAttributes": {"k": {"DataType": "Number", "StringValue": "1"}}}])
    e = r["Successful"][0]
    report(set(e) == {"Id", "MessageId", "MD5OfMessageBody", "MD5OfMessageAttributes"}, "SendMessageBatch", "Successful entry keys", e)
    sqs.delete_message(QueueUrl=q, ReceiptHandle=ms[0]["ReceiptHandle"])
    covered.add("DeleteMessage")

    # Unicode, CR, XML specials and binary survive both protocols, with SQS's MD5s
    import hashlib
    uq = sqs.create_queue(QueueName=n("uni"))["QueueUrl"]
    body = "h\u00e9llo \U0001F600 \r\n\t <&> ]]>"
    attrs = {"\u00fc\u00df": {"DataType": "String", "StringValue": "v\U0001F600\r"}, "b": {"DataType": "Binary", "BinaryValue": b"\x00\xff"}}
    r = sqs.send_message(QueueUrl=uq, MessageBody=body, MessageAttributes=attrs)
    m = sqs.receive_message(QueueUrl=uq, MessageAttributeNames=["All"], WaitTimeSeconds=1)["Messages"][0]
    report(r["MD5OfMessageBody"] == hashlib.md5(body.encode()).hexdigest() and m["Body"] == body
           and m["MessageAttributes"]["\u00fc\u00df"]["StringValue"] == "v\U0001F600\r" and m["MessageAttributes"]["b"]["BinaryValue"] == b"\x00\xff"
           and m["MD5OfMessageAttributes"] == r["MD5OfMessageAttributes"], "SendMessage", "unicode/CR/XML specials/binary round trip", (r, m))

    # FIFO: ReceiveRequestAttemptId, group ordering, dedup
    f = sqs.create_queue(QueueName=n("ord.fifo"), Attributes={"FifoQueue": "true", "ContentBasedDeduplication": "true"})["QueueUrl"]
    for i in range(4):
        sqs.send_message(QueueUrl=f, MessageBody="m%d" % i, MessageGroupId="g")
    d = sqs.send_message(QueueUrl=f, MessageBody="m0", MessageGroupId="g")
    a = sqs.get_queue_attributes(QueueUrl=f, AttributeNames=["ApproximateNumberOfMessages"])["Attributes"]
    report(a["ApproximateNumberOfMessages"] == "4" and "SequenceNumber" in d, "SendMessage", "content-based dedup drops duplicate", (a, d))
    r1 = sqs.receive_message(QueueUrl=f, MaxNumberOfMessages=2, ReceiveRequestAttemptId="att-1")["Messages"]
    r2 = sqs.receive_message(QueueUrl=f, MaxNumberOfMessages=2, ReceiveRequestAttemptId="att-1")["Messages"]
    report([m["Body"] for m in r1] == ["m0", "m1"] and [m["MessageId"] for m in r1] == [m["MessageId"] for m in r2],
           "ReceiveMessage", "FIFO order + ReceiveRequestAttemptId retry returns same batch", (r1, r2))
    err("ReceiveMessage", "ReceiveRequestAttemptId of 129 chars", lambda: sqs.receive_message(QueueUrl=f, ReceiveRequestAttemptId="x" * 129),
        "InvalidParameterValue")
    r3 = sqs.receive_message(QueueUrl=f, MaxNumberOfMessages=2)
    report("Messages" not in r3, "ReceiveMessage", "FIFO group locked while in flight", r3)

    # Purge, permissions, DeleteQueue
    sqs.purge_queue(QueueUrl=q)
    covered.add("PurgeQueue")
    sqs.add_permission(QueueUrl=q, Label="p1", AWSAccountIds=["111111111111"], Actions=["*"])
    sqs.remove_permission(QueueUrl=q, Label="p1")
    covered.update({"AddPermission", "RemovePermission"})
    err("AddPermission", "invalid action name", lambda: sqs.add_permission(QueueUrl=q, Label="p2", AWSAccountIds=["111111111111"], Actions=["Fly"]),
        "InvalidParameterValue", "Value SQS:Fly for parameter ActionName is invalid. Reason: Please refer to the appropriate WSDL for a list of valid actions.")
    err("AddPermission", "owner-only action", lambda: sqs.add_permission(QueueUrl=q, Label="p3", AWSAccountIds=["111111111111"], Actions=["RemovePermission"]),
        "InvalidParameterValue", "Value SQS:RemovePermission for parameter ActionName is invalid. Reason: Only the queue owner is allowed to invoke this action.")
    err("AddPermission", "8 actions", lambda: sqs.add_permission(QueueUrl=q, Label="p4", AWSAccountIds=["111111111111"], Actions=["SendMessage"] * 8),
        "InvalidParameterValue")
    err("AddPermission", "label with '!'", lambda: sqs.add_permission(QueueUrl=q, Label="bad label!", AWSAccountIds=["111111111111"], Actions=["SendMessage"]),
        "InvalidParameterValue")
    sqs.delete_queue(QueueUrl=q)
    err("DeleteQueue", "deleted queue is gone", lambda: sqs.get_queue_url(QueueName=n("vis")), "AWS.SimpleQueueService.NonExistentQueue")

    # Move tasks (current boto3 only)
    if hasattr(sqs, "start_message_move_task"):
        sqs.send_message(QueueUrl=dlq, MessageBody="back")
        h = sqs.start_message_move_task(SourceArn=arn(dlq), DestinationArn=arn(u))["TaskHandle"]
        deadline = time.time() + 10
        while time.time() < deadline:
            t = sqs.list_message_move_tasks(SourceArn=arn(dlq), MaxResults=10)["Results"]
            if t[0]["Status"] == "COMPLETED":
                break
            time.sleep(0.3)
        report(t[0]["Status"] == "COMPLETED" and t[0]["ApproximateNumberOfMessagesMoved"] >= 1 and "TaskHandle" not in t[0],
               "StartMessageMoveTask", "redrive to original source completes", t)
        m = sqs.receive_message(QueueUrl=u, WaitTimeSeconds=2).get("Messages", [])
        report(m and m[0]["Body"] in ("back", "hello"), "ListMessageMoveTasks", "moved message back in source", m)
        # AWS's answer for cancelling a finished task is not recorded; Hikyaku says InvalidParameterValue.
        err("CancelMessageMoveTask", "cancel a completed task", lambda: sqs.cancel_message_move_task(TaskHandle=h), "InvalidParameterValue",
            "Only active tasks can be cancelled.")


if __name__ == "__main__":
    try:
        main()
    finally:
        print("%s: %d checks, %d failed; actions covered: %d" % (PROTO, len(results), results.count(False), len(covered)))
    sys.exit(1 if False in results else 0)
