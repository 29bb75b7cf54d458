#!/usr/bin/env python3
"""boto3 compatibility workflow against an SQS endpoint.

Usage: workflow.py [ENDPOINT] [--expect-protocol json|query]
The endpoint defaults to $HIKYAKU_ENDPOINT. The same script serves two matrix rows: the current boto3
(AWS JSON 1.0) and Debian's python3-boto3 1.26 (Query/XML); --expect-protocol makes the row prove which
wire protocol botocore really used. Exit code 0 means every assertion held.
"""
import hashlib
import json
import os
import struct
import sys
import threading
import time

import boto3
import botocore


def fail(what, expected, got):
    print(f"FAILED: {what}\n  expected: {expected!r}\n  got:      {got!r}", flush=True)
    sys.exit(1)


def check(cond, what, expected=None, got=None):
    if not cond:
        fail(what, expected, got)


def check_eq(got, expected, what):
    check(got == expected, what, expected, got)


def step(name):
    print(f"-- {name}", flush=True)


def parse_args(argv):
    endpoint = os.environ.get("HIKYAKU_ENDPOINT")
    expect_protocol = None
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--expect-protocol":
            expect_protocol = args.pop(0)
        else:
            endpoint = arg
    if not endpoint:
        print("usage: workflow.py ENDPOINT [--expect-protocol json|query] (or set HIKYAKU_ENDPOINT)")
        sys.exit(2)
    return endpoint.rstrip("/"), expect_protocol


def md5_of_attributes(attrs):
    """The documented MD5OfMessageAttributes algorithm, to check what the server computed."""
    digest = hashlib.md5()
    for name in sorted(attrs):
        value = attrs[name]
        data_type = value["DataType"]
        for part in (name.encode(), data_type.encode()):
            digest.update(struct.pack(">I", len(part)) + part)
        if data_type.startswith("Binary"):
            payload = value["BinaryValue"]
            digest.update(b"\x02")
        else:
            payload = value["StringValue"].encode()
            digest.update(b"\x01")
        digest.update(struct.pack(">I", len(payload)) + payload)
    return digest.hexdigest()


def has_param(client, operation, member):
    return member in client.meta.service_model.operation_model(operation).input_shape.members


def receive(client, url, **kwargs):
    """ReceiveMessage asking for all system attributes with whichever parameter this botocore knows."""
    if has_param(client, "ReceiveMessage", "MessageSystemAttributeNames"):
        kwargs.setdefault("MessageSystemAttributeNames", ["All"])
    else:
        kwargs.setdefault("AttributeNames", ["All"])
    return client.receive_message(QueueUrl=url, **kwargs).get("Messages", [])


def expect_error(call, exception_class, code, what):
    try:
        call()
    except exception_class as err:
        check_eq(err.response["Error"]["Code"], code, f"{what}: error code")
        return err
    except botocore.exceptions.ClientError as err:
        fail(f"{what}: typed exception", exception_class.__name__,
             f"{type(err).__name__} {err.response.get('Error')}")
    fail(f"{what}: an error", exception_class.__name__, "success")


def queue_attrs(client, url, names=("All",)):
    return client.get_queue_attributes(QueueUrl=url, AttributeNames=list(names))["Attributes"]


def main():
    endpoint, expect_protocol = parse_args(sys.argv[1:])
    sqs = boto3.client(
        "sqs", endpoint_url=endpoint, region_name="us-east-1",
        aws_access_key_id=os.environ.get("AWS_ACCESS_KEY_ID", "test"),
        aws_secret_access_key=os.environ.get("AWS_SECRET_ACCESS_KEY", "test"))
    protocol = sqs.meta.service_model.protocol
    print(f"boto3 {boto3.__version__} botocore {botocore.__version__} protocol {protocol} endpoint {endpoint}")
    if expect_protocol:
        check_eq(protocol, expect_protocol, "botocore wire protocol")

    suffix = str(int(time.time() * 1000) % 10_000_000)
    dlq_name, src_name, fifo_name = f"wf-dlq-{suffix}", f"wf-src-{suffix}", f"wf-fifo-{suffix}.fifo"

    step("create queues (DLQ, standard with RedrivePolicy, FIFO with tags)")
    dlq_url = sqs.create_queue(QueueName=dlq_name)["QueueUrl"]
    check(dlq_url.endswith(f"/{dlq_name}"), "DLQ url", f".../{dlq_name}", dlq_url)
    dlq_arn = queue_attrs(sqs, dlq_url, ["QueueArn"])["QueueArn"]
    check_eq(dlq_arn, f"arn:aws:sqs:us-east-1:{dlq_url.split('/')[-2]}:{dlq_name}", "DLQ QueueArn")
    redrive = '{"deadLetterTargetArn":"%s","maxReceiveCount":"2"}' % dlq_arn
    src_url = sqs.create_queue(QueueName=src_name, Attributes={
        "RedrivePolicy": redrive, "VisibilityTimeout": "30"})["QueueUrl"]
    fifo_url = sqs.create_queue(QueueName=fifo_name, Attributes={
        "FifoQueue": "true", "ContentBasedDeduplication": "true"}, tags={"kind": "fifo"})["QueueUrl"]
    check_eq(sqs.get_queue_url(QueueName=src_name)["QueueUrl"], src_url, "GetQueueUrl(source)")
    check_eq(sqs.create_queue(QueueName=src_name, Attributes={"VisibilityTimeout": "30"})["QueueUrl"],
             src_url, "CreateQueue is idempotent with the same attributes")
    listed = sqs.list_queues(QueueNamePrefix="wf-").get("QueueUrls", [])
    for url in (dlq_url, src_url, fifo_url):
        check(url in listed, "ListQueues(prefix wf-) lists the queue", url, listed)

    step("queue attributes")
    attrs = queue_attrs(sqs, src_url)
    check_eq(attrs.get("VisibilityTimeout"), "30", "source VisibilityTimeout")
    check_eq(attrs.get("ApproximateNumberOfMessages"), "0", "new queue ApproximateNumberOfMessages")
    check("RedrivePolicy" in attrs, "source has RedrivePolicy", "present", sorted(attrs))
    policy = json.loads(attrs["RedrivePolicy"])
    check_eq(policy.get("deadLetterTargetArn"), dlq_arn, "RedrivePolicy deadLetterTargetArn")
    check_eq(str(policy.get("maxReceiveCount")), "2", "RedrivePolicy maxReceiveCount")
    fifo_attrs = queue_attrs(sqs, fifo_url)
    check_eq(fifo_attrs.get("FifoQueue"), "true", "FIFO FifoQueue attribute")
    check_eq(fifo_attrs.get("ContentBasedDeduplication"), "true", "FIFO ContentBasedDeduplication")
    sources = sqs.list_dead_letter_source_queues(QueueUrl=dlq_url).get("queueUrls", [])
    check_eq(sources, [src_url], "ListDeadLetterSourceQueues(DLQ)")

    step("send single message with String, Number and Binary attributes")
    blob = bytes(range(256))
    single_attrs = {
        "color": {"DataType": "String", "StringValue": "blue"},
        "count": {"DataType": "Number", "StringValue": "42"},
        "blob": {"DataType": "Binary", "BinaryValue": blob},
    }
    body = "hello from boto3 \u65e5\u672c"
    sent = sqs.send_message(QueueUrl=src_url, MessageBody=body, MessageAttributes=single_attrs)
    check_eq(sent["MD5OfMessageBody"], hashlib.md5(body.encode()).hexdigest(), "SendMessage MD5OfMessageBody")
    check_eq(sent["MD5OfMessageAttributes"], md5_of_attributes(single_attrs), "SendMessage MD5OfMessageAttributes")
    single_id = sent["MessageId"]

    step("send batch of 3 with attributes")
    entries = [{"Id": f"m{i}", "MessageBody": f"batch-{i}", "MessageAttributes": {
        "idx": {"DataType": "Number", "StringValue": str(i)},
        "kind": {"DataType": "String", "StringValue": "batch"}}} for i in range(3)]
    batch = sqs.send_message_batch(QueueUrl=src_url, Entries=entries)
    check_eq(batch.get("Failed", []), [], "SendMessageBatch Failed")
    check_eq(sorted(e["Id"] for e in batch["Successful"]), ["m0", "m1", "m2"], "SendMessageBatch Successful ids")
    for entry in batch["Successful"]:
        i = int(entry["Id"][1:])
        check_eq(entry["MD5OfMessageBody"], hashlib.md5(f"batch-{i}".encode()).hexdigest(),
                 f"batch entry {entry['Id']} MD5OfMessageBody")
        check_eq(entry["MD5OfMessageAttributes"], md5_of_attributes(entries[i]["MessageAttributes"]),
                 f"batch entry {entry['Id']} MD5OfMessageAttributes")
    check_eq(queue_attrs(sqs, src_url, ["ApproximateNumberOfMessages"])["ApproximateNumberOfMessages"], "4",
             "ApproximateNumberOfMessages after 4 sends")

    step("long-poll receive with All system attributes and selected message attributes")
    got = {}
    for _ in range(5):
        for msg in receive(sqs, src_url, MaxNumberOfMessages=10, WaitTimeSeconds=2,
                           MessageAttributeNames=["color", "count", "idx"]):
            got[msg["Body"]] = msg
        if len(got) == 4:
            break
    check_eq(sorted(got), sorted([body, "batch-0", "batch-1", "batch-2"]), "received bodies")
    first = got[body]
    check_eq(first["MessageId"], single_id, "received MessageId")
    for name in ("SenderId", "SentTimestamp", "ApproximateReceiveCount", "ApproximateFirstReceiveTimestamp"):
        check(name in first.get("Attributes", {}), f"system attribute {name} with All", "present",
              first.get("Attributes"))
    check_eq(first["Attributes"]["ApproximateReceiveCount"], "1", "ApproximateReceiveCount on first receive")
    check_eq(sorted(first.get("MessageAttributes", {})), ["color", "count"], "selected message attributes")
    check_eq(first["MessageAttributes"]["count"], {"DataType": "Number", "StringValue": "42"}, "Number attribute")
    check_eq(first["MD5OfMessageAttributes"],
             md5_of_attributes({k: single_attrs[k] for k in ("color", "count")}),
             "MD5OfMessageAttributes over the returned subset")
    for i in range(3):
        check_eq(sorted(got[f"batch-{i}"].get("MessageAttributes", {})), ["idx"], f"batch-{i} selected attributes")
    check_eq(queue_attrs(sqs, src_url, ["ApproximateNumberOfMessagesNotVisible"])
             ["ApproximateNumberOfMessagesNotVisible"], "4", "ApproximateNumberOfMessagesNotVisible while in flight")

    step("change visibility to 0, receive again with All message attributes")
    sqs.change_message_visibility(QueueUrl=src_url, ReceiptHandle=first["ReceiptHandle"], VisibilityTimeout=0)
    again = receive(sqs, src_url, MaxNumberOfMessages=10, WaitTimeSeconds=2, MessageAttributeNames=["All"])
    check_eq([m["Body"] for m in again], [body], "only the released message comes back")
    again = again[0]
    check_eq(again["Attributes"]["ApproximateReceiveCount"], "2", "ApproximateReceiveCount on second receive")
    check_eq(again["MessageAttributes"].get("blob"), {"DataType": "Binary", "BinaryValue": blob},
             "Binary attribute round trip")
    check_eq(again["MessageAttributes"].get("color"), {"DataType": "String", "StringValue": "blue"},
             "String attribute round trip")
    check_eq(again["MD5OfMessageAttributes"], md5_of_attributes(single_attrs), "MD5OfMessageAttributes (All)")

    step("delete single and batch")
    sqs.delete_message(QueueUrl=src_url, ReceiptHandle=again["ReceiptHandle"])
    deleted = sqs.delete_message_batch(QueueUrl=src_url, Entries=[
        {"Id": f"d{i}", "ReceiptHandle": got[f"batch-{i}"]["ReceiptHandle"]} for i in range(3)])
    check_eq(deleted.get("Failed", []), [], "DeleteMessageBatch Failed")
    check_eq(sorted(e["Id"] for e in deleted["Successful"]), ["d0", "d1", "d2"], "DeleteMessageBatch Successful")
    counts = queue_attrs(sqs, src_url, ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"])
    check_eq(counts, {"ApproximateNumberOfMessages": "0", "ApproximateNumberOfMessagesNotVisible": "0"},
             "counts after deleting everything")

    step("FIFO: ordered delivery, content-based deduplication, batch send")
    fifo_ids = [sqs.send_message(QueueUrl=fifo_url, MessageBody=b, MessageGroupId="g1")["MessageId"]
                for b in ("f1", "f2")]
    fbatch = sqs.send_message_batch(QueueUrl=fifo_url, Entries=[
        {"Id": "e3", "MessageBody": "f3", "MessageGroupId": "g1"},
        {"Id": "e4", "MessageBody": "f4", "MessageGroupId": "g1"}])
    check_eq(fbatch.get("Failed", []), [], "FIFO SendMessageBatch Failed")
    check(all("SequenceNumber" in e for e in fbatch["Successful"]), "FIFO batch entries have SequenceNumber",
          "SequenceNumber", fbatch["Successful"])
    sqs.send_message(QueueUrl=fifo_url, MessageBody="f1", MessageGroupId="g1")  # deduplicated by content
    fifo_bodies = []
    for _ in range(5):
        msgs = receive(sqs, fifo_url, MaxNumberOfMessages=10, WaitTimeSeconds=1)
        for msg in msgs:
            fifo_bodies.append(msg["Body"])
            check_eq(msg["Attributes"].get("MessageGroupId"), "g1", "FIFO MessageGroupId attribute")
            check("SequenceNumber" in msg["Attributes"], "FIFO SequenceNumber attribute", "present", msg["Attributes"])
            check("MessageDeduplicationId" in msg["Attributes"], "FIFO MessageDeduplicationId attribute",
                  "present", msg["Attributes"])
        if msgs:
            sqs.delete_message_batch(QueueUrl=fifo_url, Entries=[
                {"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(msgs)])
        if len(fifo_bodies) >= 4:
            break
    check_eq(fifo_bodies, ["f1", "f2", "f3", "f4"], "FIFO order")
    check_eq(receive(sqs, fifo_url, WaitTimeSeconds=1), [], "deduplicated FIFO message is not delivered")
    check(fifo_ids[0] != fifo_ids[1], "FIFO message ids differ", "distinct", fifo_ids)

    step("FIFO: a parked long poll gets the group's next message as soon as the group unlocks")
    # Two workers on one group: one holds m1 while the other long-polls; deleting m1 must wake the poll.
    for b in ("g2-m1", "g2-m2"):
        sqs.send_message(QueueUrl=fifo_url, MessageBody=b, MessageGroupId="g2")
    held = receive(sqs, fifo_url, WaitTimeSeconds=1)
    check_eq([m["Body"] for m in held], ["g2-m1"], "first message of the group")
    parked = {}

    def long_poll():
        started = time.time()
        parked["messages"] = receive(sqs, fifo_url, WaitTimeSeconds=8)
        parked["seconds"] = time.time() - started

    poller = threading.Thread(target=long_poll)
    poller.start()
    time.sleep(1)
    sqs.delete_message(QueueUrl=fifo_url, ReceiptHandle=held[0]["ReceiptHandle"])
    poller.join(15)
    check_eq([m["Body"] for m in parked.get("messages", [])], ["g2-m2"], "parked FIFO long poll receives the unlocked group's next message")
    check(parked["seconds"] < 5, "parked FIFO long poll returns soon after the group unlocks",
          "< 5 s (delete at ~1 s)", f"{parked['seconds']:.1f} s")
    sqs.delete_message(QueueUrl=fifo_url, ReceiptHandle=parked["messages"][0]["ReceiptHandle"])

    step("poison message reaches the DLQ after maxReceiveCount=2 receives")
    poison_id = sqs.send_message(QueueUrl=src_url, MessageBody="poison")["MessageId"]
    receives = 0
    for _ in range(6):
        msgs = receive(sqs, src_url, WaitTimeSeconds=1, VisibilityTimeout=0)
        if not msgs:
            if receives >= 2:
                break
            continue
        receives += 1
        check_eq(msgs[0]["MessageId"], poison_id, "poison message id")
        check_eq(msgs[0]["Attributes"]["ApproximateReceiveCount"], str(receives), "poison ApproximateReceiveCount")
    check_eq(receives, 2, "poison message received maxReceiveCount times before moving")
    dead = receive(sqs, dlq_url, WaitTimeSeconds=2, VisibilityTimeout=0)
    check_eq([m["MessageId"] for m in dead], [poison_id], "poison message is in the DLQ")
    check_eq(dead[0]["Body"], "poison", "DLQ message body")
    check_eq(queue_attrs(sqs, dlq_url, ["ApproximateNumberOfMessages"])["ApproximateNumberOfMessages"], "1",
             "DLQ ApproximateNumberOfMessages")

    if hasattr(sqs, "start_message_move_task"):
        step("redrive with StartMessageMoveTask, poll ListMessageMoveTasks until COMPLETED")
        handle = sqs.start_message_move_task(SourceArn=dlq_arn, DestinationArn=queue_attrs(
            sqs, src_url, ["QueueArn"])["QueueArn"])["TaskHandle"]
        check(bool(handle), "StartMessageMoveTask TaskHandle", "non-empty", handle)
        status, task = None, None
        deadline = time.time() + 20
        while time.time() < deadline:
            tasks = sqs.list_message_move_tasks(SourceArn=dlq_arn).get("Results", [])
            check(len(tasks) >= 1, "ListMessageMoveTasks has the task", ">= 1 result", tasks)
            task = tasks[0]
            status = task["Status"]
            if status in ("COMPLETED", "FAILED", "CANCELLED"):
                break
            time.sleep(0.5)
        check_eq(status, "COMPLETED", f"move task status ({task})")
        check_eq(task.get("ApproximateNumberOfMessagesMoved"), 1, "ApproximateNumberOfMessagesMoved")
    else:
        # botocore 1.29 predates the message-move-task API (2023): redrive by hand, as such apps did.
        step("redrive by hand (this botocore has no StartMessageMoveTask)")
        sqs.send_message(QueueUrl=src_url, MessageBody=dead[0]["Body"])
        moved = receive(sqs, dlq_url, WaitTimeSeconds=2)
        check_eq([m["Body"] for m in moved], ["poison"], "DLQ message for manual redrive")
        sqs.delete_message(QueueUrl=dlq_url, ReceiptHandle=moved[0]["ReceiptHandle"])
    back = receive(sqs, src_url, WaitTimeSeconds=2)
    check_eq([m["Body"] for m in back], ["poison"], "redriven message is back in the source queue")
    sqs.delete_message(QueueUrl=src_url, ReceiptHandle=back[0]["ReceiptHandle"])
    check_eq(queue_attrs(sqs, dlq_url, ["ApproximateNumberOfMessages"])["ApproximateNumberOfMessages"], "0",
             "DLQ is empty after redrive")

    step("tags: tag, list, untag")
    check_eq(sqs.list_queue_tags(QueueUrl=fifo_url).get("Tags"), {"kind": "fifo"}, "tags given at CreateQueue")
    sqs.tag_queue(QueueUrl=src_url, Tags={"team": "compat", "env": "ci"})
    check_eq(sqs.list_queue_tags(QueueUrl=src_url).get("Tags"), {"team": "compat", "env": "ci"}, "ListQueueTags")
    sqs.untag_queue(QueueUrl=src_url, TagKeys=["env"])
    check_eq(sqs.list_queue_tags(QueueUrl=src_url).get("Tags"), {"team": "compat"}, "ListQueueTags after untag")

    step("expected errors surface as typed exceptions")
    expect_error(lambda: sqs.get_queue_url(QueueName=f"missing-{suffix}"), sqs.exceptions.QueueDoesNotExist,
                 "AWS.SimpleQueueService.NonExistentQueue", "GetQueueUrl of a missing queue")
    expect_error(lambda: sqs.delete_message(QueueUrl=src_url, ReceiptHandle="garbage"),
                 sqs.exceptions.ReceiptHandleIsInvalid, "ReceiptHandleIsInvalid", "DeleteMessage with a bad handle")
    expect_error(lambda: sqs.send_message(QueueUrl=fifo_url, MessageBody="no group"),
                 botocore.exceptions.ClientError, "MissingParameter", "FIFO SendMessage without MessageGroupId")

    step("delete queues")
    for url in (src_url, fifo_url, dlq_url):
        sqs.delete_queue(QueueUrl=url)
    expect_error(lambda: sqs.get_queue_attributes(QueueUrl=src_url, AttributeNames=["All"]),
                 sqs.exceptions.QueueDoesNotExist, "AWS.SimpleQueueService.NonExistentQueue",
                 "GetQueueAttributes of a deleted queue")
    print("OK boto3 workflow passed")


if __name__ == "__main__":
    main()
