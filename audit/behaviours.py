#!/usr/bin/env python3
"""Conformance audit of a running Hikyaku against sqs-behaviours.md, via boto3.

Runs unchanged on the current boto3 (`python3`, JSON protocol) and on Debian's boto3
(`/usr/bin/python3`, Query protocol). Usage: behaviours.py PORT [only-numbers...]
Prints one line per check (PASS/FAIL <behaviour> <what>) and exits non-zero on any failure.
Every queue it makes has a unique prefix, so runs never collide.
"""
import base64
import hashlib
import json
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

import boto3
import botocore
from botocore.config import Config
from botocore.exceptions import ClientError

PORT = int(sys.argv[1])
ONLY = set(int(a) for a in sys.argv[2:])
ENDPOINT = "http://127.0.0.1:%d" % PORT
ACCOUNT = "000000000000"


def client():
    return boto3.client("sqs", endpoint_url=ENDPOINT, region_name="us-east-1",
                        aws_access_key_id="test", aws_secret_access_key="test",
                        config=Config(retries={"max_attempts": 1}, read_timeout=30,
                                      parameter_validation=False))


sqs = client()
PROTO = sqs.meta.service_model.protocol  # "json" or "query"
JSON = PROTO == "json"
RUN = uuid.uuid4().hex[:6]
results = []


def report(ok, num, what, detail=""):
    results.append(ok)
    print("%s %s [%s] %s%s" % ("PASS" if ok else "FAIL", num, PROTO, what, ("  -- " + detail) if detail and not ok else ""))


def name(base):
    return "a%s-%s" % (RUN, base)


def new_queue(base, **attrs):
    return sqs.create_queue(QueueName=name(base), Attributes={k: str(v) for k, v in attrs.items()})["QueueUrl"]


def expect_error(num, what, fn, code, message=None, status=400):
    try:
        fn()
    except ClientError as e:
        err = e.response["Error"]
        got_status = e.response["ResponseMetadata"]["HTTPStatusCode"]
        problems = []
        if err.get("Code") != code:
            problems.append("code %r != %r" % (err.get("Code"), code))
        if message is not None and err.get("Message") != message:
            problems.append("message %r != %r" % (err.get("Message"), message))
        if got_status != status:
            problems.append("status %s != %s" % (got_status, status))
        report(not problems, num, what, "; ".join(problems))
        return e
    report(False, num, what, "no error raised")
    return None


def expect(num, what, cond, detail=""):
    report(bool(cond), num, what, detail)


def section(num):
    return not ONLY or num in ONLY


NOQ = "The specified queue does not exist." if JSON else "The specified queue does not exist for this wsdl version."


def run():
    # ---- A. existence and lifecycle
    if section(1):
        missing = "%s/%s/%s" % (ENDPOINT, ACCOUNT, name("missing"))
        rh = "garbage"
        for what, fn in [
            ("GetQueueUrl", lambda: sqs.get_queue_url(QueueName=name("missing"))),
            ("GetQueueAttributes", lambda: sqs.get_queue_attributes(QueueUrl=missing, AttributeNames=["All"])),
            ("DeleteQueue", lambda: sqs.delete_queue(QueueUrl=missing)),
            ("DeleteMessage", lambda: sqs.delete_message(QueueUrl=missing, ReceiptHandle=rh)),
            ("SendMessage", lambda: sqs.send_message(QueueUrl=missing, MessageBody="x")),
            ("SendMessageBatch", lambda: sqs.send_message_batch(QueueUrl=missing, Entries=[{"Id": "a", "MessageBody": "x"}])),
            ("ReceiveMessage", lambda: sqs.receive_message(QueueUrl=missing)),
            ("ListQueueTags", lambda: sqs.list_queue_tags(QueueUrl=missing)),
            ("TagQueue", lambda: sqs.tag_queue(QueueUrl=missing, Tags={"a": "b"})),
            ("UntagQueue", lambda: sqs.untag_queue(QueueUrl=missing, TagKeys=["a"])),
            ("PurgeQueue", lambda: sqs.purge_queue(QueueUrl=missing)),
            ("SetQueueAttributes", lambda: sqs.set_queue_attributes(QueueUrl=missing, Attributes={"DelaySeconds": "1"})),
            ("ChangeMessageVisibility", lambda: sqs.change_message_visibility(QueueUrl=missing, ReceiptHandle=rh, VisibilityTimeout=1)),
            ("ChangeMessageVisibilityBatch", lambda: sqs.change_message_visibility_batch(QueueUrl=missing, Entries=[{"Id": "a", "ReceiptHandle": rh, "VisibilityTimeout": 1}])),
            ("DeleteMessageBatch", lambda: sqs.delete_message_batch(QueueUrl=missing, Entries=[{"Id": "a", "ReceiptHandle": rh}])),
            ("AddPermission", lambda: sqs.add_permission(QueueUrl=missing, Label="l", AWSAccountIds=["111111111111"], Actions=["SendMessage"])),
            ("RemovePermission", lambda: sqs.remove_permission(QueueUrl=missing, Label="l")),
            ("ListDeadLetterSourceQueues", lambda: sqs.list_dead_letter_source_queues(QueueUrl=missing)),
        ]:
            expect_error(1, what + " on missing queue", fn, "AWS.SimpleQueueService.NonExistentQueue", NOQ)
    if section(2):
        for host in ("https://sqs.us-east-1.amazonaws.com", "https://queue.amazonaws.com"):
            expect_error(2, "unknown queue under host " + host,
                         lambda: sqs.get_queue_attributes(QueueUrl="%s/%s/%s" % (host, ACCOUNT, name("nope"))),
                         "AWS.SimpleQueueService.NonExistentQueue", NOQ)
        url = new_queue("hostless")
        foreign = "https://sqs.us-east-1.amazonaws.com/%s/%s" % (ACCOUNT, name("hostless"))
        r = sqs.get_queue_attributes(QueueUrl=foreign, AttributeNames=["QueueArn"])
        expect(2, "existing queue found through a foreign host", r["Attributes"]["QueueArn"].endswith(name("hostless")))
    if section(4):
        url = new_queue("recent")
        sqs.delete_queue(QueueUrl=url)
        expect_error(4, "CreateQueue right after DeleteQueue", lambda: sqs.create_queue(QueueName=name("recent")),
                     "AWS.SimpleQueueService.QueueDeletedRecently",
                     "You must wait 60 seconds after deleting a queue before you can create another with the same name.")

    # ---- B. CreateQueue / Set / Get attributes
    if section(5):
        new_queue("exists", DelaySeconds=1)
        expect_error(5, "same name, different DelaySeconds",
                     lambda: new_queue("exists", DelaySeconds=2), "QueueAlreadyExists",
                     "A queue already exists with the same name and a different value for attribute DelaySeconds")
    if section(6):
        sqs.create_queue(QueueName=name("ex6.fifo"), Attributes={"FifoQueue": "true"})
        expect_error(6, "FIFO same name, different ContentBasedDeduplication",
                     lambda: sqs.create_queue(QueueName=name("ex6.fifo"),
                                              Attributes={"FifoQueue": "true", "ContentBasedDeduplication": "true"}),
                     "QueueAlreadyExists",
                     "A queue already exists with the same name and a different value for attribute ContentBasedDeduplication")
    if section(7):
        u1 = new_queue("idem", VisibilityTimeout=5)
        u2 = new_queue("idem", VisibilityTimeout=5)
        u3 = sqs.create_queue(QueueName=name("idem"))["QueueUrl"]
        expect(7, "idempotent CreateQueue", u1 == u2 == u3, "%s %s %s" % (u1, u2, u3))
    if section(8):
        u = new_queue("cur", VisibilityTimeout=1)
        sqs.set_queue_attributes(QueueUrl=u, Attributes={"VisibilityTimeout": "2"})
        expect_error(8, "compare with current attrs (old value)", lambda: new_queue("cur", VisibilityTimeout=1),
                     "QueueAlreadyExists")
        expect(8, "compare with current attrs (new value)", new_queue("cur", VisibilityTimeout=2) == u)
        expect(8, "compare with current attrs (none)", sqs.create_queue(QueueName=name("cur"))["QueueUrl"] == u)
    if section(9):
        expect_error(9, "FifoQueue=true without .fifo", lambda: new_queue("nofifo", FifoQueue="true"), "InvalidParameterValue")
    if section(10):
        expect_error(10, "standard queue named .fifo", lambda: sqs.create_queue(QueueName=name("s.fifo")), "InvalidParameterValue")
    if section(11):
        expect_error(11, "standard FifoQueue=false", lambda: new_queue("ff", FifoQueue="false"),
                     "InvalidAttributeName", "Unknown Attribute FifoQueue.")
    if section(12):
        expect_error(12, "standard ContentBasedDeduplication", lambda: new_queue("cbd", ContentBasedDeduplication="true"),
                     "InvalidAttributeName", "Unknown Attribute ContentBasedDeduplication.")
    if section(13):
        expect_error(13, "standard DeduplicationScope", lambda: new_queue("ds", DeduplicationScope="queue"),
                     "InvalidAttributeName", "You can specify the DeduplicationScope only when FifoQueue is set to true.")
    if section(14):
        expect_error(14, "standard FifoThroughputLimit", lambda: new_queue("ftl", FifoThroughputLimit="perQueue"),
                     "InvalidAttributeName", "You can specify the FifoThroughputLimit only when FifoQueue is set to true.")
    if section(15):
        u = new_queue("setfifo")
        for v in ("true", "false"):
            expect_error(15, "Set FifoQueue=%s on standard" % v,
                         lambda: sqs.set_queue_attributes(QueueUrl=u, Attributes={"FifoQueue": v}),
                         "InvalidAttributeName", "Unknown Attribute FifoQueue.")
    if section(16):
        u = sqs.create_queue(QueueName=name("set16.fifo"), Attributes={"FifoQueue": "true"})["QueueUrl"]
        expect_error(16, "Set FifoQueue=false on FIFO",
                     lambda: sqs.set_queue_attributes(QueueUrl=u, Attributes={"FifoQueue": "false"}),
                     "InvalidAttributeValue", "Invalid value for the parameter FifoQueue. Reason: Modifying queue type is not supported.")
        r = sqs.set_queue_attributes(QueueUrl=u, Attributes={"FifoQueue": "true"})
        expect(16, "Set FifoQueue=true on FIFO is 200", r["ResponseMetadata"]["HTTPStatusCode"] == 200)
    if section(17):
        expect_error(17, "KMS + SqsManagedSseEnabled",
                     lambda: new_queue("sse", KmsMasterKeyId="k", SqsManagedSseEnabled="true"), "InvalidAttributeName",
                     "You can use one type of server-side encryption (SSE) at one time. You can either enable KMS SSE or SQS SSE.")
    if section(18):
        u = new_queue("all18")
        a = sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["All"])["Attributes"]
        want = {"ApproximateNumberOfMessages": "0", "ApproximateNumberOfMessagesDelayed": "0",
                "ApproximateNumberOfMessagesNotVisible": "0", "DelaySeconds": "0", "MaximumMessageSize": "1048576",
                "MessageRetentionPeriod": "345600", "ReceiveMessageWaitTimeSeconds": "0",
                "SqsManagedSseEnabled": "true", "VisibilityTimeout": "30"}
        keys = set(want) | {"CreatedTimestamp", "LastModifiedTimestamp", "QueueArn"}
        expect(18, "All on new standard queue: exact key set", set(a) == keys, "extra %s missing %s" % (set(a) - keys, keys - set(a)))
        expect(18, "All on new standard queue: values", all(a.get(k) == v for k, v in want.items()),
               str({k: a.get(k) for k in want if a.get(k) != want[k]}))
        ts = a.get("CreatedTimestamp", "")
        expect(18, "CreatedTimestamp is epoch seconds", ts.isdigit() and abs(int(ts) - time.time()) < 60, ts)
    if section(19):
        u = sqs.create_queue(QueueName=name("f19.fifo"), Attributes={"FifoQueue": "true"})["QueueUrl"]
        a = sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["All"])["Attributes"]
        want = {"FifoQueue": "true", "ContentBasedDeduplication": "false", "DeduplicationScope": "queue",
                "FifoThroughputLimit": "perQueue", "QueueArn": "arn:aws:sqs:us-east-1:%s:%s" % (ACCOUNT, name("f19.fifo"))}
        expect(19, "FIFO defaults + ARN", all(a.get(k) == v for k, v in want.items()),
               str({k: a.get(k) for k in want if a.get(k) != want[k]}))
    if section(20):
        u = new_queue("kms20")
        sqs.set_queue_attributes(QueueUrl=u, Attributes={"KmsMasterKeyId": "testKeyId", "KmsDataKeyReusePeriodSeconds": "6000"})
        a = sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["All"])["Attributes"]
        expect(20, "KMS set", a.get("KmsMasterKeyId") == "testKeyId" and a.get("KmsDataKeyReusePeriodSeconds") == "6000"
               and a.get("SqsManagedSseEnabled") == "false", str(a))
        sqs.set_queue_attributes(QueueUrl=u, Attributes={"KmsMasterKeyId": "", "KmsDataKeyReusePeriodSeconds": "300"})
        a = sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["All"])["Attributes"]
        expect(20, "KMS cleared", "KmsMasterKeyId" not in a and "KmsDataKeyReusePeriodSeconds" not in a
               and a.get("SqsManagedSseEnabled") == "false", str(a))
    if section(21):
        u = new_queue("foo21")
        expect_error(21, "GetQueueAttributes Foobar", lambda: sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["Foobar"]),
                     "InvalidAttributeName", "Unknown Attribute Foobar.")
    if section(22):
        dlq = new_queue("dlq22")
        dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        u = new_queue("src22")
        sqs.set_queue_attributes(QueueUrl=u, Attributes={
            "RedrivePolicy": json.dumps({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": 3}),
            "Policy": json.dumps({"Version": "2012-10-17", "Statement": []})})
        a = sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["All"])["Attributes"]
        expect(22, "RedrivePolicy/Policy set", "RedrivePolicy" in a and "Policy" in a, str(a))
        sqs.set_queue_attributes(QueueUrl=u, Attributes={"RedrivePolicy": "", "Policy": ""})
        a = sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["All"])["Attributes"]
        expect(22, "empty RedrivePolicy/Policy removes them", "RedrivePolicy" not in a and "Policy" not in a, str(a))
        sqs.set_queue_attributes(QueueUrl=u, Attributes={"Policy": json.dumps({"Version": "2012-10-17", "Statement": []})})
        sqs.set_queue_attributes(QueueUrl=u, Attributes={"Policy": ""})
        a = sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["All"])["Attributes"]
        expect(22, "empty Policy alone removes it", "Policy" not in a, str(a))
        # Policies AWS accepts (AWS-validated tests): a Resource that is not an ARN, an ArnEquals placeholder,
        # a statement without Resource; each is returned exactly as given
        for doc in ('{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"*"},"Action":"sqs:SendMessage",'
                    '"Resource":"queue_arn","Condition":{"ArnEquals":{"aws:SourceArn":"topic_arn"}}}]}',
                    '{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "sqs:*"}]}'):
            sqs.set_queue_attributes(QueueUrl=u, Attributes={"Policy": doc})
            got = sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["Policy"])["Attributes"].get("Policy")
            expect(22, "policy AWS accepts is stored byte for byte", got == doc, str(got))

    # ---- C. SendMessage
    std = new_queue("std")
    if section(23):
        expect_error(23, "empty body", lambda: sqs.send_message(QueueUrl=std, MessageBody=""), "MissingParameter",
                     "The request must contain the parameter MessageBody.")
    if section(24):
        expect_error(24, "body+attrs over 1 MiB", lambda: sqs.send_message(
            QueueUrl=std, MessageBody="x" * (1048576 - 10),
            MessageAttributes={"abcd": {"DataType": "String", "StringValue": "123456"}}),
            "InvalidParameterValue", "One or more parameters are invalid. Reason: Message must be shorter than 1048576 bytes.")
        r = sqs.send_message(QueueUrl=std, MessageBody="x" * (1048576 - 16),
                             MessageAttributes={"abcd": {"DataType": "String", "StringValue": "123456"}})
        expect(24, "exactly 1 MiB accepted", "MessageId" in r)
    if section(25):
        u = new_queue("small25", MaximumMessageSize=1024)
        expect(25, "1024-byte body accepted", "MessageId" in sqs.send_message(QueueUrl=u, MessageBody="y" * 1024))
        expect_error(25, "1025 bytes", lambda: sqs.send_message(QueueUrl=u, MessageBody="y" * 1025),
                     "InvalidParameterValue", "One or more parameters are invalid. Reason: Message must be shorter than 1024 bytes.")
    if section(26):
        for ch in (0, 8, 19, 65535):
            expect_error(26, "body with chr(%d)" % ch, lambda: sqs.send_message(QueueUrl=std, MessageBody="a" + chr(ch)),
                         "InvalidMessageContents")
    if section(27):
        expect_error(27, "empty String attribute", lambda: sqs.send_message(
            QueueUrl=std, MessageBody="b", MessageAttributes={"ErrorDetails": {"DataType": "String", "StringValue": ""}}),
            "InvalidParameterValue", "Message (user) attribute 'ErrorDetails' must contain a non-empty value of type 'String'.")
    if section(28):
        for ch in (8, 11):
            expect_error(28, "String attribute with chr(%d)" % ch, lambda: sqs.send_message(
                QueueUrl=std, MessageBody="b", MessageAttributes={"a": {"DataType": "String", "StringValue": "x" + chr(ch)}}),
                "InvalidParameterValue")
    if section(29):
        for bad in ("AWS.x", "aws.x", "Amazon.x", "amazon.X", ".x", "a!", 'a"', "a§", "a(", "a?", "a" * 257, "x."):
            e = expect_error(29, "attribute name %r" % bad[:20], lambda: sqs.send_message(
                QueueUrl=std, MessageBody="b", MessageAttributes={bad: {"DataType": "String", "StringValue": "v"}}),
                "InvalidParameterValue")
        for dt in ("Invalid", "String." + "x" * 256):
            expect_error(29, "DataType %r" % dt[:20], lambda: sqs.send_message(
                QueueUrl=std, MessageBody="b", MessageAttributes={"a": {"DataType": dt, "StringValue": "v"}}),
                "InvalidParameterValue")
        r = sqs.send_message(QueueUrl=std, MessageBody="b", MessageAttributes={"attr.1øßä": {"DataType": "String", "StringValue": "v"}})
        expect(29, "non-ASCII attribute name accepted", "MessageId" in r)
    if section(30):
        u = new_queue("fair30")
        sqs.send_message(QueueUrl=u, MessageBody="t", MessageGroupId="tenant-1")
        m = sqs.receive_message(QueueUrl=u, AttributeNames=["All"]).get("Messages", [])
        expect(30, "MessageGroupId on standard comes back, no SequenceNumber",
               m and m[0]["Attributes"].get("MessageGroupId") == "tenant-1" and "SequenceNumber" not in m[0]["Attributes"], str(m))
    if section(31):
        for v in ("", "x" * 129, "a b"):
            expect_error(31, "MessageGroupId %r on standard" % v[:10], lambda: sqs.send_message(
                QueueUrl=std, MessageBody="b", MessageGroupId=v), "InvalidParameterValue",
                "Value %s for parameter MessageGroupId is invalid. Reason: MessageGroupId can only include alphanumeric and punctuation characters. 1 to 128 in length." % v)
    fifo = sqs.create_queue(QueueName=name("f.fifo"), Attributes={"FifoQueue": "true"})["QueueUrl"]
    if section(32):
        for v in ("", "x" * 129, "a b"):
            expect_error(32, "MessageDeduplicationId %r" % v[:10], lambda: sqs.send_message(
                QueueUrl=fifo, MessageBody="b", MessageGroupId="g", MessageDeduplicationId=v), "InvalidParameterValue",
                "Value %s for parameter MessageDeduplicationId is invalid. Reason: MessageDeduplicationId can only include alphanumeric and punctuation characters. 1 to 128 in length." % v)
    if section(33):
        expect_error(33, "FIFO without MessageGroupId", lambda: sqs.send_message(QueueUrl=fifo, MessageBody="b", MessageDeduplicationId="d"),
                     "MissingParameter", "The request must contain the parameter MessageGroupId.")
    if section(34):
        expect_error(34, "FIFO without dedup id", lambda: sqs.send_message(QueueUrl=fifo, MessageBody="b", MessageGroupId="g"),
                     "InvalidParameterValue",
                     "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly")
    if section(35):
        expect_error(35, "FIFO per-message DelaySeconds=2", lambda: sqs.send_message(
            QueueUrl=fifo, MessageBody="b", MessageGroupId="g", MessageDeduplicationId="d35", DelaySeconds=2),
            "InvalidParameterValue",
            "Value 2 for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid for this queue type.")
        u = sqs.create_queue(QueueName=name("d35.fifo"), Attributes={"FifoQueue": "true", "DelaySeconds": "2"})["QueueUrl"]
        sqs.send_message(QueueUrl=u, MessageBody="b", MessageGroupId="g", MessageDeduplicationId="d35", DelaySeconds=0)
        expect(35, "queue delay still applies with DelaySeconds=0", not sqs.receive_message(QueueUrl=u).get("Messages"))
        m = sqs.receive_message(QueueUrl=u, WaitTimeSeconds=4).get("Messages")
        expect(35, "delayed message arrives after queue delay", bool(m))
    if section(36):
        seqs = [sqs.send_message(QueueUrl=fifo, MessageBody="s%d" % i, MessageGroupId="g", MessageDeduplicationId="s36-%d" % i)["SequenceNumber"]
                for i in range(3)]
        expect(36, "SequenceNumber strictly increases", all(int(a) < int(b) for a, b in zip(seqs, seqs[1:])) and all(len(s) == 20 for s in seqs), str(seqs))
        # SQS's numbers are large and not consecutive; a zero-padded counter (10000000000000000001) is not SQS's form
        expect(36, "SequenceNumber is large and not a padded counter",
               all(not s.startswith("1000000000") for s in seqs) and all(int(b) - int(a) > 1 for a, b in zip(seqs, seqs[1:])), str(seqs))
    if section(37):
        expect(37, "MD5 of 'test'", sqs.send_message(QueueUrl=std, MessageBody="test")["MD5OfMessageBody"] == "098f6bcd4621d373cade4e832627b4f6")
        expect(37, "MD5 of 'msg'", sqs.send_message(QueueUrl=std, MessageBody="msg")["MD5OfMessageBody"] == "6e2baaf3b97dbeef01c0043275f9a0e7")
    if section(38) or section(39) or section(44):
        u = new_queue("md5")
        r = sqs.send_message(QueueUrl=u, MessageBody="m", MessageAttributes={"Foo": {"DataType": "String", "StringValue": "Bar"}})
        expect(38, "MD5OfMessageAttributes Foo=Bar", r.get("MD5OfMessageAttributes") == "ae7155c6026991b6d54b11589678bf9c", str(r.get("MD5OfMessageAttributes")))
        three = {"General": {"DataType": "String", "StringValue": "Kenobi"}, "Hello": {"DataType": "String", "StringValue": "There"},
                 "Help.Me": {"DataType": "String", "StringValue": "Me"}}
        r = sqs.send_message(QueueUrl=u, MessageBody="m", MessageAttributes=three,
                             MessageSystemAttributes={"AWSTraceHeader": {"DataType": "String", "StringValue": "Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1"}})
        expect(38, "MD5OfMessageAttributes three", r.get("MD5OfMessageAttributes") == "4c360f3fdafd970e05fae2f149d997f5", str(r.get("MD5OfMessageAttributes")))
        expect(39, "AWSTraceHeader does not change attr MD5", r.get("MD5OfMessageAttributes") == "4c360f3fdafd970e05fae2f149d997f5")
        expect(39, "MD5OfMessageSystemAttributes present", r.get("MD5OfMessageSystemAttributes") == md5_attrs(
            {"AWSTraceHeader": {"DataType": "String", "StringValue": "Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1"}}), str(r))
        sqs.purge_queue(QueueUrl=u)
        time.sleep(0.2)
        if section(44):
            u = new_queue("filter44")
            sqs.send_message(QueueUrl=u, MessageBody="m", MessageAttributes=three)
            for names, want in [([], []), (["All"], ["General", "Hello", "Help.Me"]), (["*"], ["General", "Hello", "Help.Me"]),
                                ([".*"], ["General", "Hello", "Help.Me"]), (["Hello"], ["Hello"]), (["Nope"], []),
                                (["Hel.*"], ["Hello", "Help.Me"]), (["AWS."], []), (["..foo"], [])]:
                m = sqs.receive_message(QueueUrl=u, MessageAttributeNames=names, VisibilityTimeout=0)["Messages"][0]
                got = sorted(m.get("MessageAttributes", {}))
                ok = got == want
                if want == ["Hello"]:
                    ok = ok and m.get("MD5OfMessageAttributes") == "a311262e065454b75da111d535b8dacd"
                if not want:
                    ok = ok and "MD5OfMessageAttributes" not in m
                expect(44, "MessageAttributeNames=%s" % names, ok, "got %s md5 %s" % (got, m.get("MD5OfMessageAttributes")))

    # ---- D. ReceiveMessage
    if section(40):
        expect_error(40, "MaxNumberOfMessages=11", lambda: sqs.receive_message(QueueUrl=std, MaxNumberOfMessages=11),
                     "InvalidParameterValue", "Value 11 for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided.")
        expect_error(40, "MaxNumberOfMessages=0", lambda: sqs.receive_message(QueueUrl=std, MaxNumberOfMessages=0),
                     "InvalidParameterValue", "Value 0 for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided.")
    if section(41):
        for v in (21, -1):
            expect_error(41, "WaitTimeSeconds=%d" % v, lambda: sqs.receive_message(QueueUrl=std, WaitTimeSeconds=v),
                         "InvalidParameterValue", "Value %d for parameter WaitTimeSeconds is invalid. Reason: Must be >= 0 and <= 20, if provided." % v)
    if section(42):
        u = new_queue("empty42")
        r = sqs.receive_message(QueueUrl=u)
        expect(42, "short poll on empty queue has no Messages", "Messages" not in r, str(r))
        t = time.time()
        r = sqs.receive_message(QueueUrl=u, WaitTimeSeconds=1)
        expect(42, "long poll on empty queue has no Messages and waits", "Messages" not in r and time.time() - t >= 0.9, str(r))
    if section(43):
        u = new_queue("sys43")
        sqs.send_message(QueueUrl=u, MessageBody="a")
        m = sqs.receive_message(QueueUrl=u, AttributeNames=["All"], VisibilityTimeout=0)["Messages"][0]
        want = {"ApproximateFirstReceiveTimestamp", "ApproximateReceiveCount", "SenderId", "SentTimestamp"}
        expect(43, "standard All system attributes", set(m["Attributes"]) == want, str(m["Attributes"]))
        m = sqs.receive_message(QueueUrl=u, AttributeNames=["All"])["Messages"][0]
        expect(43, "ApproximateReceiveCount counts", m["Attributes"]["ApproximateReceiveCount"] == "2", str(m["Attributes"]))
        uf = sqs.create_queue(QueueName=name("sys43.fifo"), Attributes={"FifoQueue": "true"})["QueueUrl"]
        sqs.send_message(QueueUrl=uf, MessageBody="a", MessageGroupId="g", MessageDeduplicationId="d")
        m = sqs.receive_message(QueueUrl=uf, AttributeNames=["All"])["Messages"][0]
        want |= {"MessageDeduplicationId", "MessageGroupId", "SequenceNumber"}
        expect(43, "FIFO All system attributes", set(m["Attributes"]) == want, str(m["Attributes"]))
    if section(45) and JSON:
        u = new_queue("sys45")
        sqs.send_message(QueueUrl=u, MessageBody="a")
        m = sqs.receive_message(QueueUrl=u, AttributeNames=["SenderId"], MessageSystemAttributeNames=["All"])["Messages"][0]
        expect(45, "JSON: MessageSystemAttributeNames wins", len(m["Attributes"]) == 4, str(m["Attributes"]))

    # ---- E. Receipt handles
    if section(46):
        expect_error(46, "DeleteMessage garbage", lambda: sqs.delete_message(QueueUrl=std, ReceiptHandle="garbage"),
                     "ReceiptHandleIsInvalid", 'The input receipt handle "garbage" is not a valid receipt handle.')
    if section(47):
        expect_error(47, "ChangeMessageVisibility INVALID",
                     lambda: sqs.change_message_visibility(QueueUrl=std, ReceiptHandle="INVALID", VisibilityTimeout=1),
                     "ReceiptHandleIsInvalid")
    if section(48) or section(49):
        u = new_queue("rh48")
        sqs.send_message(QueueUrl=u, MessageBody="a")
        h = sqs.receive_message(QueueUrl=u)["Messages"][0]["ReceiptHandle"]
        ok = all(sqs.delete_message(QueueUrl=u, ReceiptHandle=h)["ResponseMetadata"]["HTTPStatusCode"] == 200 for _ in range(3))
        expect(48, "repeated DeleteMessage is 200", ok)
        expect_error(49, "ChangeMessageVisibility after delete",
                     lambda: sqs.change_message_visibility(QueueUrl=u, ReceiptHandle=h, VisibilityTimeout=5),
                     "InvalidParameterValue",
                     "Value %s for parameter ReceiptHandle is invalid. Reason: Message does not exist or is not available for visibility timeout change." % h)
    if section(50):
        u = sqs.create_queue(QueueName=name("rh50.fifo"), Attributes={"FifoQueue": "true"})["QueueUrl"]
        sqs.send_message(QueueUrl=u, MessageBody="a", MessageGroupId="g", MessageDeduplicationId="d")
        h = sqs.receive_message(QueueUrl=u, VisibilityTimeout=1)["Messages"][0]["ReceiptHandle"]
        time.sleep(1.3)
        expect_error(50, "FIFO delete with expired handle", lambda: sqs.delete_message(QueueUrl=u, ReceiptHandle=h),
                     "InvalidParameterValue", "Value %s for parameter ReceiptHandle is invalid. Reason: The receipt handle has expired." % h)
        us = new_queue("rh50s")
        sqs.send_message(QueueUrl=us, MessageBody="a")
        h = sqs.receive_message(QueueUrl=us, VisibilityTimeout=1)["Messages"][0]["ReceiptHandle"]
        time.sleep(1.3)
        sqs.delete_message(QueueUrl=us, ReceiptHandle=h)
        a = sqs.get_queue_attributes(QueueUrl=us, AttributeNames=["ApproximateNumberOfMessages"])["Attributes"]
        expect(50, "standard delete with old handle deletes", a["ApproximateNumberOfMessages"] == "0", str(a))

    # ---- F. Batches
    if section(51):
        for what, fn in [
            ("SendMessageBatch", lambda: sqs.send_message_batch(QueueUrl=std, Entries=[{"Id": "i%d" % i, "MessageBody": "x"} for i in range(20)])),
            ("DeleteMessageBatch", lambda: sqs.delete_message_batch(QueueUrl=std, Entries=[{"Id": "i%d" % i, "ReceiptHandle": "x"} for i in range(20)])),
            ("ChangeMessageVisibilityBatch", lambda: sqs.change_message_visibility_batch(QueueUrl=std, Entries=[{"Id": "i%d" % i, "ReceiptHandle": "x", "VisibilityTimeout": 1} for i in range(20)])),
        ]:
            expect_error(51, what + " 20 entries", fn, "AWS.SimpleQueueService.TooManyEntriesInBatchRequest",
                         "Maximum number of entries per request are 10. You have sent 20.")
    if section(52):
        for bad in ("", "invalid:id", "a" * 81, ".!@#$%^&*()+="):
            expect_error(52, "batch id %r" % bad[:12], lambda: sqs.send_message_batch(QueueUrl=std, Entries=[{"Id": bad, "MessageBody": "x"}]),
                         "AWS.SimpleQueueService.InvalidBatchEntryId",
                         "A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.")
    if section(53):
        expect_error(53, "SendMessageBatch []", lambda: sqs.send_message_batch(QueueUrl=std, Entries=[]),
                     "AWS.SimpleQueueService.EmptyBatchRequest", "There should be at least one SendMessageBatchRequestEntry in the request.")
        expect_error(53, "DeleteMessageBatch []", lambda: sqs.delete_message_batch(QueueUrl=std, Entries=[]),
                     "AWS.SimpleQueueService.EmptyBatchRequest", "There should be at least one DeleteMessageBatchRequestEntry in the request.")
        expect_error(53, "ChangeMessageVisibilityBatch []", lambda: sqs.change_message_visibility_batch(QueueUrl=std, Entries=[]),
                     "AWS.SimpleQueueService.EmptyBatchRequest", "There should be at least one ChangeMessageVisibilityBatchRequestEntry in the request.")
    if section(54):
        expect_error(54, "duplicate ids", lambda: sqs.send_message_batch(QueueUrl=std, Entries=[
            {"Id": i, "MessageBody": "x"} for i in ("id_1", "id_2", "id_2", "id_1")]),
            "AWS.SimpleQueueService.BatchEntryIdsNotDistinct", "Id id_2 repeated.")
    if section(55):
        expect_error(55, "batch over 1 MiB", lambda: sqs.send_message_batch(QueueUrl=std, Entries=[
            {"Id": "a", "MessageBody": "x" * 524288}, {"Id": "b", "MessageBody": "x" * 524289}]),
            "AWS.SimpleQueueService.BatchRequestTooLong", "Batch requests cannot be longer than 1048576 bytes. You have sent 1048577 bytes.")
    if section(56):
        u = new_queue("b56", MaximumMessageSize=1024)
        r = sqs.send_message_batch(QueueUrl=u, Entries=[{"Id": "ok", "MessageBody": "x"}, {"Id": "big", "MessageBody": "x" * 1025}])
        f = r.get("Failed", [])
        expect(56, "oversized entry in Failed", len(r.get("Successful", [])) == 1 and f and f[0]["Id"] == "big"
               and f[0]["Code"] == "InvalidParameterValue" and f[0]["SenderFault"] is True
               and f[0]["Message"] == "One or more parameters cannot be validated. Reason: Message must be shorter than 1024 bytes.", str(r))
    if section(57):
        u = new_queue("b57")
        entries = [{"Id": "e%d" % i, "MessageBody": "ok"} for i in range(9)] + [{"Id": "bad", "MessageBody": "\x01"}]
        r = sqs.send_message_batch(QueueUrl=u, Entries=entries)
        f = r.get("Failed", [])
        expect(57, "\\x01 entry Failed InvalidMessageContents, 9 sent", len(r.get("Successful", [])) == 9 and f and f[0]["Code"] == "InvalidMessageContents", str(f))
    if section(58):
        expect_error(58, "FIFO batch without dedup id", lambda: sqs.send_message_batch(QueueUrl=fifo, Entries=[
            {"Id": "a", "MessageBody": "x", "MessageGroupId": "g", "MessageDeduplicationId": "d58"}, {"Id": "b", "MessageBody": "x", "MessageGroupId": "g"}]),
            "InvalidParameterValue", "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly")
    if section(59):
        expect_error(59, "FIFO batch without group id", lambda: sqs.send_message_batch(QueueUrl=fifo, Entries=[
            {"Id": "a", "MessageBody": "x", "MessageDeduplicationId": "d59"}]),
            "InvalidParameterValue", "The request must contain the parameter MessageGroupId.")

    # ---- G. Purge
    if section(60) or section(61):
        u = sqs.create_queue(QueueName=name("p60.fifo"), Attributes={"FifoQueue": "true", "DelaySeconds": "5"})["QueueUrl"]
        sqs.send_message(QueueUrl=u, MessageBody="a", MessageGroupId="g", MessageDeduplicationId="dd")
        sqs.purge_queue(QueueUrl=u)
        expect_error(60, "second purge", lambda: sqs.purge_queue(QueueUrl=u), "AWS.SimpleQueueService.PurgeQueueInProgress",
                     "Only one PurgeQueue operation on %s is allowed every 60 seconds." % name("p60.fifo"), status=403)
        time.sleep(0.3)
        a = sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["All"])["Attributes"]
        expect(61, "purge removes delayed", a["ApproximateNumberOfMessagesDelayed"] == "0", str(a))
        sqs.set_queue_attributes(QueueUrl=u, Attributes={"DelaySeconds": "0"})
        sqs.send_message(QueueUrl=u, MessageBody="a", MessageGroupId="g", MessageDeduplicationId="dd")
        a = sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["ApproximateNumberOfMessages"])["Attributes"]
        expect(61, "purge clears dedup cache", a["ApproximateNumberOfMessages"] == "1", str(a))
        us = new_queue("p61")
        sqs.send_message(QueueUrl=us, MessageBody="a")
        sqs.receive_message(QueueUrl=us)
        sqs.purge_queue(QueueUrl=us)
        time.sleep(0.3)
        a = sqs.get_queue_attributes(QueueUrl=us, AttributeNames=["All"])["Attributes"]
        expect(61, "purge removes in-flight", a["ApproximateNumberOfMessagesNotVisible"] == "0", str(a))

    # ---- H. Permissions
    if section(62) or section(63) or section(64):
        u = new_queue("perm")
        arn = sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
        sqs.add_permission(QueueUrl=u, Label="crossaccountpermission", AWSAccountIds=[ACCOUNT], Actions=["ReceiveMessage"])
        expect_error(62, "duplicate label", lambda: sqs.add_permission(QueueUrl=u, Label="crossaccountpermission",
                                                                       AWSAccountIds=[ACCOUNT], Actions=["ReceiveMessage"]),
                     "InvalidParameterValue", "Value crossaccountpermission for parameter Label is invalid. Reason: Already exists.")
        expect_error(63, "unknown label", lambda: sqs.remove_permission(QueueUrl=u, Label="crossaccountpermission2"),
                     "InvalidParameterValue", "Value crossaccountpermission2 for parameter Label is invalid. Reason: can't find label.")
        p = json.loads(sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["Policy"])["Attributes"]["Policy"])
        st = p["Statement"][0]
        expect(64, "policy shape", p["Version"] == "2008-10-17" and p["Id"].startswith(arn + "/") and st["Sid"] == "crossaccountpermission"
               and st["Effect"] == "Allow" and st["Principal"]["AWS"] == "arn:aws:iam::%s:root" % ACCOUNT
               and st["Action"] == "SQS:ReceiveMessage" and st["Resource"] == arn, json.dumps(p))
        sqs.add_permission(QueueUrl=u, Label="two", AWSAccountIds=["111111111111", "222222222222"], Actions=["SendMessage", "DeleteMessage"])
        p = json.loads(sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["Policy"])["Attributes"]["Policy"])
        st2 = [s for s in p["Statement"] if s["Sid"] == "two"][0]
        expect(64, "several accounts -> list principal", isinstance(st2["Principal"]["AWS"], list) and isinstance(st2["Action"], list), json.dumps(st2))
        sqs.remove_permission(QueueUrl=u, Label="crossaccountpermission")
        sqs.remove_permission(QueueUrl=u, Label="two")
        r = sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["Policy"])
        expect(64, "no Attributes after last permission removed", "Attributes" not in r, str(r))

    # ---- I. Move tasks
    if any(section(n) for n in (65, 66, 67, 68, 69)) and hasattr(sqs, "start_message_move_task"):
        src = new_queue("mvsrc")
        src_arn = arn_of(src)
        expect_error(65, "source not a DLQ", lambda: sqs.start_message_move_task(SourceArn=src_arn),
                     "InvalidParameterValue", "Source queue must be configured as a Dead Letter Queue.")
        dlq = new_queue("mvdlq")
        dlq_arn = arn_of(dlq)
        sqs.set_queue_attributes(QueueUrl=src, Attributes={"RedrivePolicy": json.dumps({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": 1})})
        expect_error(66, "destination missing", lambda: sqs.start_message_move_task(
            SourceArn=dlq_arn, DestinationArn="arn:aws:sqs:us-east-1:%s:%s" % (ACCOUNT, name("nodest"))),
            "ResourceNotFoundException", "The resource that you specified for the DestinationArn parameter doesn't exist.", status=404)
        for i in range(3):
            sqs.send_message(QueueUrl=dlq, MessageBody="m%d" % i)
        h = sqs.start_message_move_task(SourceArn=dlq_arn, MaxNumberOfMessagesPerSecond=1)["TaskHandle"]
        expect_error(67, "second task", lambda: sqs.start_message_move_task(SourceArn=dlq_arn),
                     "InvalidParameterValue", "There is already a task running. Only one active task is allowed for a source queue arn at a given time.")
        t = sqs.list_message_move_tasks(SourceArn=dlq_arn)["Results"]
        expect(67, "ListMessageMoveTasks shows RUNNING", t and t[0]["Status"] == "RUNNING" and t[0].get("TaskHandle") == h, str(t))
        r = sqs.cancel_message_move_task(TaskHandle=h)
        expect(67, "cancel returns ApproximateNumberOfMessagesMoved", "ApproximateNumberOfMessagesMoved" in r, str(r))
        expect_error(68, "undecodable handle", lambda: sqs.cancel_message_move_task(TaskHandle="not-a-handle"),
                     "InvalidParameterValue", "Value for parameter TaskHandle is invalid.")
        bad_task = base64.b64encode(json.dumps({"taskId": "00000000-0000-0000-0000-000000000000", "sourceArn": dlq_arn}).encode()).decode()
        expect_error(69, "unknown task id", lambda: sqs.cancel_message_move_task(TaskHandle=bad_task),
                     "ResourceNotFoundException", "Task does not exist.", status=404)
        bad_src = base64.b64encode(json.dumps({"taskId": "x", "sourceArn": "arn:aws:sqs:us-east-1:%s:%s" % (ACCOUNT, name("nosrc"))}).encode()).decode()
        expect_error(69, "unknown source", lambda: sqs.cancel_message_move_task(TaskHandle=bad_src),
                     "ResourceNotFoundException", "The resource that you specified for the SourceArn parameter doesn't exist.", status=404)


def run_k_to_q():
    """Behaviours 76-86 and 89-91 (sections K-Q; 87-88 are STS). Calls are spaced a few ms apart, as real
    clients' calls are, so that "available since" times of different calls differ."""
    def pause():
        time.sleep(0.01)

    def raw(method, path, data=None, headers=None):
        req = urllib.request.Request(ENDPOINT + path, data=data, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def fifo_queue(base, **attrs):
        attrs["FifoQueue"] = "true"
        return sqs.create_queue(QueueName=name(base + ".fifo"), Attributes={k: str(v) for k, v in attrs.items()})["QueueUrl"]

    def send(u, body, group):
        sqs.send_message(QueueUrl=u, MessageBody=body, MessageGroupId=group, MessageDeduplicationId=body)
        pause()

    def bodies(u, mx, vt=None):
        kw = {} if vt is None else {"VisibilityTimeout": vt}
        r = sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=mx, **kw).get("Messages", [])
        pause()
        return [m["Body"] for m in r], r

    no_queue = "The specified queue does not exist." if JSON else "The specified queue does not exist for this wsdl version."

    # ---- K. Addressing
    if section(76):
        bare = name("dl-queue-76")
        sqs.create_queue(QueueName=bare)
        r = sqs.send_message(QueueUrl=bare, MessageBody="Using name instead of URL")
        expect(76, "SendMessage with a bare queue name", r.get("MD5OfMessageBody") == "86a83f96652a1bfad3891e7d523750cb", str(r))
        sqs.set_queue_attributes(QueueUrl=bare, Attributes={"RedrivePolicy": ""})
        a = sqs.get_queue_attributes(QueueUrl=bare, AttributeNames=["All"])["Attributes"]
        expect(76, "Set/GetQueueAttributes with a bare queue name", a.get("ApproximateNumberOfMessages") == "1", str(a))
        fbare = name("moto_ab12cd.fifo")
        sqs.create_queue(QueueName=fbare, Attributes={"FifoQueue": "true"})
        expect_error(76, "a bare FIFO name reaches the FIFO validation", lambda: sqs.send_message(
            QueueUrl=fbare, MessageBody="m", MessageGroupId="g", MessageDeduplicationId="d", DelaySeconds=5),
            "InvalidParameterValue", "Value 5 for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid for this queue type.")
    if section(77):
        expect_error(77, "QueueUrl without /{account}/{name} -> NonExistentQueue 400", lambda: sqs.get_queue_attributes(
            QueueUrl="http://whatever-incorrect-queue-address", AttributeNames=["All"]),
            "AWS.SimpleQueueService.NonExistentQueue", no_queue)

    # ---- L. FIFO delivery
    if section(78):
        qs = []
        for extended in range(3):
            u = fifo_queue("b78c1-%d" % extended)
            for b in ("foo", "bar", "baz"):
                send(u, b, "g")
            got, msgs = bodies(u, 10, 1)
            sqs.change_message_visibility(QueueUrl=u, ReceiptHandle=msgs[extended]["ReceiptHandle"], VisibilityTimeout=4)
            qs.append(u)
        time.sleep(2.5)
        for extended, u in enumerate(qs):
            got, _ = bodies(u, 5)
            expect(78, "case 1, %s extended" % ["foo", "bar", "baz"][extended], got == ["foo", "bar"][:extended], str(got))
        u = fifo_queue("b78c2", VisibilityTimeout=30)
        send(u, "g1-m1", "g1")
        send(u, "g1-m2", "g1")
        send(u, "g2-m1", "g2")
        got, msgs = bodies(u, 2)
        sqs.change_message_visibility(QueueUrl=u, ReceiptHandle=msgs[0]["ReceiptHandle"], VisibilityTimeout=0)
        pause()
        got, _ = bodies(u, 3)
        expect(78, "case 2, ChangeMessageVisibility 0 -> [g2-m1, g1-m1]", got == ["g2-m1", "g1-m1"], str(got))
        u = fifo_queue("b78c3")
        for b, g in (("g1-m1", "g1"), ("g1-m2", "g1"), ("g2-m1", "g2"), ("g2-m2", "g2"), ("g3-m1", "g3")):
            send(u, b, g)
        got, msgs = bodies(u, 2)
        sqs.delete_message(QueueUrl=u, ReceiptHandle=msgs[0]["ReceiptHandle"])
        pause()
        got, _ = bodies(u, 10)
        expect(78, "case 3, partial delete -> [g2-m1, g2-m2, g3-m1]", got == ["g2-m1", "g2-m2", "g3-m1"], str(got))
    if section(79):
        u = fifo_queue("b79vt0")
        for b, g in (("g1-m1", "g1"), ("g2-m1", "g2"), ("g2-m2", "g2"), ("g3-m1", "g3"), ("g1-m2", "g1")):
            send(u, b, g)
        first, _ = bodies(u, 3, 0)
        second, _ = bodies(u, 10, 0)
        expect(79, "VisibilityTimeout=0 recording", first == ["g1-m1", "g1-m2", "g2-m1"]
               and second == ["g3-m1", "g1-m1", "g1-m2", "g2-m1", "g2-m2"], str((first, second)))
        u = fifo_queue("b79shared", VisibilityTimeout=1)
        for i in range(1, 5):
            send(u, "g1-m%d" % i, "g1")
        send(u, "g2-m1", "g2")
        send(u, "g3-m1", "g3")
        a, _ = bodies(u, 2)
        b, _ = bodies(u, 1)
        time.sleep(2)
        c, _ = bodies(u, 10, 0)
        expect(79, "shared-timeout recording", a == ["g1-m1", "g1-m2"] and b == ["g2-m1"]
               and c == ["g3-m1", "g1-m1", "g1-m2", "g1-m3", "g1-m4", "g2-m1"], str((a, b, c)))
        u = fifo_queue("b79del", ContentBasedDeduplication="true")
        for b, g in (("g1-m1", "g1"), ("g2-m1", "g2"), ("g1-m2", "g1"), ("g2-m2", "g2"), ("g1-m2", "g1"),
                     ("g1-m3", "g1"), ("g1-m4", "g1"), ("g3-m1", "g3")):
            sqs.send_message(QueueUrl=u, MessageBody=b, MessageGroupId=g)
            pause()
        a, msgs = bodies(u, 2)
        for m in msgs:
            sqs.delete_message(QueueUrl=u, ReceiptHandle=m["ReceiptHandle"])
        pause()
        b, _ = bodies(u, 10)
        expect(79, "delete recording", a == ["g1-m1", "g1-m2"] and b == ["g2-m1", "g2-m2", "g1-m3", "g1-m4", "g3-m1"], str((a, b)))
    if section(80):
        u = fifo_queue("b80", DeduplicationScope="queue", ContentBasedDeduplication="false")
        sqs.send_message(QueueUrl=u, MessageBody="m1", MessageGroupId="group1", MessageDeduplicationId="dedup_1")
        for m in sqs.receive_message(QueueUrl=u).get("Messages", []):
            sqs.delete_message(QueueUrl=u, ReceiptHandle=m["ReceiptHandle"])
        sqs.set_queue_attributes(QueueUrl=u, Attributes={"DeduplicationScope": "messageGroup", "FifoThroughputLimit": "perMessageGroupId"})
        a = sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["All"])["Attributes"]
        expect(80, "new values show at once", a.get("DeduplicationScope") == "messageGroup"
               and a.get("FifoThroughputLimit") == "perMessageGroupId", str(a))
        sqs.send_message(QueueUrl=u, MessageBody="m2", MessageGroupId="group3", MessageDeduplicationId="dedup_1")
        r = sqs.receive_message(QueueUrl=u)
        expect(80, "an old dedup id in a new group is still a duplicate", "Messages" not in r, str(r))
        sqs.send_message(QueueUrl=u, MessageBody="m3", MessageGroupId="group4", MessageDeduplicationId="dedup_2")
        r = sqs.receive_message(QueueUrl=u).get("Messages", [])
        expect(80, "a new dedup id is delivered", [m["Body"] for m in r] == ["m3"], str(r))
        for m in r:
            sqs.delete_message(QueueUrl=u, ReceiptHandle=m["ReceiptHandle"])
        sqs.send_message(QueueUrl=u, MessageBody="m4", MessageGroupId="group5", MessageDeduplicationId="dedup_2")
        r = sqs.receive_message(QueueUrl=u)
        expect(80, "dedup_2 again in another group is a duplicate", "Messages" not in r, str(r))

    # ---- M. Visibility
    if section(81):
        u = new_queue("b81")
        sqs.send_message(QueueUrl=u, MessageBody="m")
        m = sqs.receive_message(QueueUrl=u, VisibilityTimeout=1)["Messages"][0]
        time.sleep(2)
        try:
            r = sqs.change_message_visibility(QueueUrl=u, ReceiptHandle=m["ReceiptHandle"], VisibilityTimeout=2)
            expect(81, "ChangeMessageVisibility after expiry -> 200", r["ResponseMetadata"]["HTTPStatusCode"] == 200, str(r))
        except ClientError as e:
            expect(81, "ChangeMessageVisibility after expiry -> 200", False, str(e.response))

    # ---- N. Response shapes
    if section(82):
        u = new_queue("b82")
        r = sqs.send_message_batch(QueueUrl=u, Entries=[{"Id": "a", "MessageBody": "1"}, {"Id": "b", "MessageBody": "2"}])
        ok = "Failed" not in r and len(r.get("Successful", [])) == 2
        ms = sqs.receive_message(QueueUrl=u, MaxNumberOfMessages=10)["Messages"]
        r2 = sqs.change_message_visibility_batch(QueueUrl=u, Entries=[{"Id": "a", "ReceiptHandle": ms[0]["ReceiptHandle"], "VisibilityTimeout": 60}])
        r3 = sqs.delete_message_batch(QueueUrl=u, Entries=[{"Id": m["MessageId"], "ReceiptHandle": m["ReceiptHandle"]} for m in ms])
        r4 = sqs.delete_message_batch(QueueUrl=u, Entries=[{"Id": "x", "ReceiptHandle": "INVALID"}])
        expect(82, "no empty Failed/Successful in the three batch results", ok and "Failed" not in r2 and "Failed" not in r3
               and "Successful" not in r4 and r4.get("Failed"), str((r, r2, r3, r4)))
    if section(83) and not JSON:
        u = new_queue("b83")
        status, body = raw("POST", "/", urllib.parse.urlencode({"Action": "ReceiveMessage", "QueueUrl": u, "Version": "2012-11-05"}).encode(),
                           {"Content-Type": "application/x-www-form-urlencoded"})
        expect(83, "empty Query receive: <ReceiveMessageResult/>", status == 200 and "<ReceiveMessageResult/>" in body, body[:300])
    if section(84) and not JSON:
        u = new_queue("b84")
        sent = ['{"foo": "ba\rr", "foo2": "ba&quot;r&quot;"}', '"{\\"foo\\": \\"ba\\rr\\"}"']
        for b in sent:
            sqs.send_message(QueueUrl=u, MessageBody=b)
        status, body = raw("GET", "/?" + urllib.parse.urlencode({"Action": "ReceiveMessage", "QueueUrl": u, "VisibilityTimeout": "0",
                                                                   "MaxNumberOfMessages": "10", "Version": "2012-11-05"}),
                           headers={"Accept": "application/json"})
        got = []
        try:
            got = [m["Body"] for m in json.loads(body)["ReceiveMessageResponse"]["ReceiveMessageResult"]["messages"]]
        except (ValueError, KeyError, TypeError):
            pass
        expect(84, "Query + Accept: application/json: 'messages', bodies as sent", status == 200 and got == sent, body[:300])

    # ---- O. Attribute values
    if section(85):
        for bad in ("1", "2"):
            expect_error(85, "MessageRetentionPeriod %s refused" % bad, lambda: sqs.create_queue(
                QueueName=name("b85"), Attributes={"MessageRetentionPeriod": bad}), "InvalidAttributeValue")
        u = new_queue("b85", MessageRetentionPeriod=60)
        expect(85, "MessageRetentionPeriod 60 accepted", arn_of(u) is not None)
    if section(86):
        dlq = new_queue("b86dlq")
        u = new_queue("b86", RedrivePolicy=json.dumps({"deadLetterTargetArn": arn_of(dlq), "maxReceiveCount": "1000"}))
        rp = sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["RedrivePolicy"])["Attributes"]["RedrivePolicy"]
        expect(86, "RedrivePolicy is compact JSON with a numeric count",
               rp == '{"deadLetterTargetArn":"%s","maxReceiveCount":1000}' % arn_of(dlq), rp)

    # ---- Q. Tags
    if section(89) or section(90) or section(91):
        u = new_queue("tags")
        expect_error(89, "TagQueue with no tags", lambda: sqs.tag_queue(QueueUrl=u, Tags={}),
                     "MissingParameter", "The request must contain the parameter Tags.")
        expect_error(90, "UntagQueue with no keys", lambda: sqs.untag_queue(QueueUrl=u, TagKeys=[]),
                     "InvalidParameterValue", "Tag keys must be between 1 and 128 characters in length.")
        fifty = {"k%d" % i: "v" for i in range(50)}
        sqs.tag_queue(QueueUrl=u, Tags=fifty)
        expect_error(91, "a 51st tag", lambda: sqs.tag_queue(QueueUrl=u, Tags={"one-more": "v"}),
                     "InvalidParameterValue", "Too many tags added for queue %s." % name("tags"))
        expect(91, "tags unchanged", sqs.list_queue_tags(QueueUrl=u).get("Tags") == fifty)


def arn_of(url):
    return sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]


def md5_attrs(attrs):
    """The standard MessageAttributes MD5 (used to check MD5OfMessageSystemAttributes)."""
    out = b""
    for k in sorted(attrs):
        v = attrs[k]
        enc = lambda b: len(b).to_bytes(4, "big") + b
        out += enc(k.encode()) + enc(v["DataType"].encode())
        if "StringValue" in v:
            out += b"\x01" + enc(v["StringValue"].encode())
        else:
            out += b"\x02" + enc(v["BinaryValue"])
    return hashlib.md5(out).hexdigest()


if __name__ == "__main__":
    try:
        run()
        run_k_to_q()
    finally:
        print("%s: %d checks, %d failed" % (PROTO, len(results), results.count(False)))
    sys.exit(1 if False in results else 0)
