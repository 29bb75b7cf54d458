#!/usr/bin/env python3
"""Raw-HTTP wire audit of a running Hikyaku: headers, error envelopes, behaviours 70-75, and bad
input (wrong JSON types, nulls, bad UTF-8, truncated/oversized bodies, unknown accounts). Every bad
request must give an exact SQS error (never a 500 or a hang) and change nothing.

Usage: python3 wire.py PORT   (needs the current botocore for SigV4 signing)
"""
import hashlib
import http.client
import json
import sys
import time
import urllib.parse
import uuid

from botocore.auth import SigV4Auth, SigV4QueryAuth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

PORT = int(sys.argv[1])
HOST = "127.0.0.1:%d" % PORT
BASE = "http://" + HOST
ACCOUNT = "000000000000"
RUN = uuid.uuid4().hex[:6]
results = []


def report(ok, tag, what, detail=""):
    results.append(bool(ok))
    print("%s %s %s%s" % ("PASS" if ok else "FAIL", tag, what, ("  -- " + str(detail)[:400]) if detail and not ok else ""))


def send(method, path, body=b"", headers=None, timeout=15):
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=timeout)
    h = {"Host": HOST}
    h.update(headers or {})
    if isinstance(body, str):
        body = body.encode()
    conn.request(method, path, body=body if body or method == "POST" else None, headers=h)
    r = conn.getresponse()
    data = r.read()
    hdrs = {k.lower(): v for k, v in r.getheaders()}
    conn.close()
    return r.status, hdrs, data


def signed_headers(method, url, body, headers, key="test"):
    req = AWSRequest(method=method, url=url, data=body, headers=headers)
    SigV4Auth(Credentials(key, "secret"), "sqs", "us-east-1").add_auth(req)
    return dict(req.headers.items())


def jcall(action, payload, raw=None, key="test", path="/", extra=None):
    body = raw if raw is not None else json.dumps(payload).encode()
    headers = {"X-Amz-Target": "AmazonSQS." + action, "Content-Type": "application/x-amz-json-1.0"}
    headers.update(extra or {})
    headers = signed_headers("POST", BASE + path, body, headers, key)
    s, h, d = send("POST", path, body, headers)
    try:
        j = json.loads(d) if d else {}
    except ValueError:
        j = {"_raw": d[:200]}
    return s, h, j


def qcall(params, method="POST", path="/", key="test", accept=None, raw=None):
    body = raw if raw is not None else urllib.parse.urlencode(params).encode()
    headers = {"Content-Type": "application/x-www-form-urlencoded; charset=utf-8"}
    if accept:
        headers["Accept"] = accept
    if method == "GET":
        qs = urllib.parse.urlencode(params)
        s, h, d = send("GET", path + "?" + qs, b"", {"Accept": accept} if accept else {})
    else:
        headers = signed_headers("POST", BASE + path, body, headers, key)
        s, h, d = send("POST", path, body, headers)
    return s, h, d.decode("utf-8", "replace")


def jerr(tag, what, resp, status, jtype, qcode=None, message=None):
    s, h, j = resp
    problems = []
    if s != status:
        problems.append("status %s" % s)
    if j.get("__type") != jtype:
        problems.append("__type %r" % j.get("__type"))
    if qcode is not None and h.get("x-amzn-query-error") != qcode + ";Sender":
        problems.append("x-amzn-query-error %r" % h.get("x-amzn-query-error"))
    if message is not None and j.get("message") != message:
        problems.append("message %r" % j.get("message"))
    if h.get("content-type") != "application/x-amz-json-1.0":
        problems.append("content-type %r" % h.get("content-type"))
    if not h.get("x-amzn-requestid"):
        problems.append("no x-amzn-RequestId")
    report(not problems, tag, what, "; ".join(problems) + " body=" + json.dumps(j))


def qerr(tag, what, resp, status, code, message=None):
    s, h, d = resp
    problems = []
    if s != status:
        problems.append("status %s" % s)
    if "<Code>%s</Code>" % code not in d:
        problems.append("code")
    if message is not None and "<Message>%s</Message>" % message not in d:
        problems.append("message")
    if "<Type>Sender</Type>" not in d or "<Detail/>" not in d or "<ErrorResponse" not in d:
        problems.append("envelope")
    if not h.get("content-type", "").startswith("text/xml"):
        problems.append("content-type %r" % h.get("content-type"))
    report(not problems, tag, what, "; ".join(problems) + " body=" + d)


SER = "com.amazon.coral.service#SerializationException"
SQS = "com.amazonaws.sqs#"


def main():
    q = "w%s-canary" % RUN
    s, h, j = jcall("CreateQueue", {"QueueName": q})
    url = j["QueueUrl"]
    path = urllib.parse.urlparse(url).path
    report(s == 200 and h.get("content-type") == "application/x-amz-json-1.0" and h.get("x-amzn-requestid"),
           "W1", "JSON success: 200, content-type, x-amzn-RequestId", (s, h))
    jcall("SendMessage", {"QueueUrl": url, "MessageBody": "canary"})

    def snapshot():
        a = jcall("GetQueueAttributes", {"QueueUrl": url, "AttributeNames": ["All"]})[2]["Attributes"]
        ql = jcall("ListQueues", {"QueueNamePrefix": "w" + RUN})[2].get("QueueUrls", [])
        return {k: v for k, v in a.items()}, sorted(ql)

    before = snapshot()

    # ---- JSON error envelope (behaviour 1 on the wire)
    jerr("W2", "JSON unknown queue envelope", jcall("GetQueueUrl", {"QueueName": "w%s-nope" % RUN}), 400,
         SQS + "QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue", "The specified queue does not exist.")

    # ---- wrong JSON types
    for what, action, payload, msg in [
        ("string for int", "ReceiveMessage", {"QueueUrl": url, "MaxNumberOfMessages": "5"}, "STRING_VALUE can not be converted to an Integer"),
        ("bool for int", "ReceiveMessage", {"QueueUrl": url, "WaitTimeSeconds": True}, None),
        ("float for int", "ReceiveMessage", {"QueueUrl": url, "VisibilityTimeout": 1.5}, None),
        ("int for string", "SendMessage", {"QueueUrl": url, "MessageBody": 5}, None),
        ("list for map", "SetQueueAttributes", {"QueueUrl": url, "Attributes": ["DelaySeconds", "1"]}, None),
        ("map for list", "GetQueueAttributes", {"QueueUrl": url, "AttributeNames": {"a": "b"}}, None),
        ("string for list", "GetQueueAttributes", {"QueueUrl": url, "AttributeNames": "All"}, None),
        ("int in map value", "SetQueueAttributes", {"QueueUrl": url, "Attributes": {"DelaySeconds": 1}}, None),
        ("object for string", "SendMessage", {"QueueUrl": url, "MessageBody": {"a": 1}}, None),
        ("string for struct list", "SendMessageBatch", {"QueueUrl": url, "Entries": "x"}, None),
        ("string for attr value struct", "SendMessage", {"QueueUrl": url, "MessageBody": "b", "MessageAttributes": {"a": "b"}}, None),
        ("bool for string (QueueUrl)", "PurgeQueue", {"QueueUrl": True}, None),
    ]:
        jerr("W3", "JSON " + what, jcall(action, payload), 400, SER, None, msg)
    # nulls count as absent
    s, h, j = jcall("ReceiveMessage", {"QueueUrl": url, "MaxNumberOfMessages": None, "VisibilityTimeout": 0,
                                       "WaitTimeSeconds": None, "AttributeNames": None})
    report(s == 200, "W4", "JSON null optional members are absent", (s, j))
    jerr("W4", "JSON null required member", jcall("SendMessage", {"QueueUrl": url, "MessageBody": None}), 400,
         SQS + "MissingRequiredParameterException", "MissingParameter", "The request must contain the parameter MessageBody.")
    jerr("W4", "JSON null QueueUrl", jcall("PurgeQueue", {"QueueUrl": None}), 400,
         SQS + "MissingRequiredParameterException", "MissingParameter", "The request must contain the parameter QueueUrl.")
    s, h, j = jcall("SendMessage", {"QueueUrl": url, "MessageBody": "x", "MessageAttributes": None, "DelaySeconds": None})
    report(s == 200, "W4", "JSON null map is absent", (s, j))
    jcall("DeleteMessage", {"QueueUrl": url, "ReceiptHandle": "x"})  # harmless

    # ---- numbers
    for v, name in [(-1, "negative"), (2 ** 40, "huge"), (10 ** 30, "beyond long")]:
        s, h, j = jcall("ReceiveMessage", {"QueueUrl": url, "MaxNumberOfMessages": v})
        report(s == 400 and j.get("__type") in (SQS + "InvalidParameterValueException", SER), "W5",
               "MaxNumberOfMessages %s -> 400" % name, (s, j))
    jerr("W5", "DelaySeconds 901", jcall("SendMessage", {"QueueUrl": url, "MessageBody": "x", "DelaySeconds": 901}), 400,
         SQS + "InvalidParameterValueException", "InvalidParameterValue",
         "Value 901 for parameter DelaySeconds is invalid. Reason: DelaySeconds must be >= 0 and <= 900.")
    handle = jcall("ReceiveMessage", {"QueueUrl": url, "VisibilityTimeout": 0})[2]["Messages"][0]["ReceiptHandle"]
    jerr("W5", "ChangeMessageVisibility 43201", jcall("ChangeMessageVisibility", {"QueueUrl": url, "ReceiptHandle": handle, "VisibilityTimeout": 43201}),
         400, SQS + "InvalidParameterValueException", "InvalidParameterValue")  # AWS wording for a single call over 43200 not recorded
    for attr, val in [("DelaySeconds", "-1"), ("DelaySeconds", "901"), ("MaximumMessageSize", "1023"), ("MaximumMessageSize", "1048577"),
                      ("MessageRetentionPeriod", "59"), ("MessageRetentionPeriod", "1209601"), ("ReceiveMessageWaitTimeSeconds", "21"),
                      ("VisibilityTimeout", "43201"), ("KmsDataKeyReusePeriodSeconds", "59"), ("KmsDataKeyReusePeriodSeconds", "86401"),
                      ("DelaySeconds", "abc"), ("DelaySeconds", ""), ("DelaySeconds", "1.5"), ("SqsManagedSseEnabled", "maybe")]:
        jerr("W5", "SetQueueAttributes %s=%r" % (attr, val), jcall("SetQueueAttributes", {"QueueUrl": url, "Attributes": {attr: val}}),
             400, SQS + "InvalidAttributeValue", "InvalidAttributeValue",
             "Invalid value for the parameter %s." % attr)
    jerr("W5", "SetQueueAttributes unknown name", jcall("SetQueueAttributes", {"QueueUrl": url, "Attributes": {"Bogus": "1"}}),
         400, SQS + "InvalidAttributeName", "InvalidAttributeName", "Unknown Attribute Bogus.")
    jerr("W5", "SetQueueAttributes read-only name", jcall("SetQueueAttributes", {"QueueUrl": url, "Attributes": {"QueueArn": "x"}}),
         400, SQS + "InvalidAttributeName", "InvalidAttributeName", "Unknown Attribute QueueArn.")
    jerr("W5", "CreateQueue unknown attribute", jcall("CreateQueue", {"QueueName": "w%s-bad" % RUN, "Attributes": {"Bogus": "1"}}),
         400, SQS + "InvalidAttributeName", "InvalidAttributeName", "Unknown Attribute Bogus.")
    jerr("W5", "ReceiveMessage VisibilityTimeout -1", jcall("ReceiveMessage", {"QueueUrl": url, "VisibilityTimeout": -1}),
         400, SQS + "InvalidParameterValueException", "InvalidParameterValue")
    jerr("W5", "ListQueues MaxResults 0", jcall("ListQueues", {"MaxResults": 0}), 400, SQS + "InvalidParameterValueException",
         "InvalidParameterValue", "Value 0 for parameter MaxResults is invalid. Reason: MaxResults must be an integer between 1 and 1000.")
    jerr("W5", "ListQueues MaxResults 1001", jcall("ListQueues", {"MaxResults": 1001}), 400, SQS + "InvalidParameterValueException", "InvalidParameterValue")

    # ---- missing required parameters
    for action, payload, param in [("CreateQueue", {}, "QueueName"), ("GetQueueUrl", {}, "QueueName"), ("SendMessage", {"QueueUrl": url}, "MessageBody"),
                                   ("DeleteMessage", {"QueueUrl": url}, "ReceiptHandle"), ("ReceiveMessage", {}, "QueueUrl"),
                                   ("ChangeMessageVisibility", {"QueueUrl": url, "ReceiptHandle": "x"}, "VisibilityTimeout"),
                                   ("TagQueue", {"QueueUrl": url}, "Tags"), ("UntagQueue", {"QueueUrl": url}, "TagKeys"),
                                   ("AddPermission", {"QueueUrl": url, "AWSAccountIds": ["111111111111"], "Actions": ["SendMessage"]}, "Label"),
                                   ("RemovePermission", {"QueueUrl": url}, "Label"), ("StartMessageMoveTask", {}, "SourceArn"),
                                   ("CancelMessageMoveTask", {}, "TaskHandle"), ("ListMessageMoveTasks", {}, "SourceArn"),
                                   ("SetQueueAttributes", {"QueueUrl": url}, "Attributes")]:
        jerr("W6", "%s without %s" % (action, param), jcall(action, payload), 400, SQS + "MissingRequiredParameterException",
             "MissingParameter", "The request must contain the parameter %s." % param)

    # ---- malformed bodies
    jerr("W7", "JSON invalid UTF-8", jcall("ListQueues", None, raw=b'{"QueueNamePrefix":"\xff\xfe"}'), 400, SER)
    jerr("W7", "JSON truncated", jcall("ListQueues", None, raw=b'{"QueueNamePrefix":"a'), 400, SER)
    jerr("W7", "JSON array body", jcall("ListQueues", None, raw=b'[1,2]'), 400, SER)
    jerr("W7", "JSON trailing garbage", jcall("ListQueues", None, raw=b'{} {}'), 400, SER)
    jerr("W7", "JSON deep nesting", jcall("ListQueues", None, raw=b'{"a":' * 500 + b'1' + b'}' * 500), 400, SER)
    s, h, j = jcall("ListQueues", None, raw=b'')
    report(s == 200, "W7", "JSON empty body is {}", (s, j))
    s, h, j = jcall("ListQueues", {"QueueNamePrefix": "w" + RUN, "Unknown": 1})
    report(s == 200, "W7", "JSON unknown member ignored", (s, j))
    jerr("W7", "JSON unknown target", jcall("FooBar", {}), 400, "com.amazon.coral.service#UnknownOperationException")
    big = json.dumps({"QueueUrl": url, "MessageBody": "x" * (5 * 1024 * 1024)}).encode()
    try:
        s, h, j = jcall("SendMessage", None, raw=big)
        report(s in (400, 413) and s != 500, "W7", "5 MiB JSON body refused (no 500/hang)", (s, j))
    except OSError:  # the server answers 413 and closes before the body is sent; it must survive
        s = jcall("ListQueues", {})[0]
        report(s == 200, "W7", "5 MiB JSON body refused with the connection closed; server still serves", s)
    s, h, j = jcall("SendMessage", {"QueueUrl": url, "MessageBody": "x" * 1048577})
    report(s == 400 and j.get("__type") == SQS + "InvalidParameterValueException", "W7", "1 MiB+1 body -> InvalidParameterValue", (s, j))
    # lone surrogate via JSON escape
    s, h, j = jcall("SendMessage", None, raw=json.dumps({"QueueUrl": url, "MessageBody": "a"}).replace('"a"', '"\\ud800"').encode())
    report(s == 400 and j.get("__type") == SQS + "InvalidMessageContents", "W7", "lone surrogate body -> InvalidMessageContents", (s, j))

    # ---- Query protocol wire
    s, h, d = qcall({"Action": "GetQueueUrl", "QueueName": "w%s-nope" % RUN, "Version": "2012-11-05"})
    qerr("W8", "Query unknown queue envelope", (s, h, d), 400, "AWS.SimpleQueueService.NonExistentQueue",
         "The specified queue does not exist for this wsdl version.")
    report("<RequestId>" in d and h.get("x-amzn-requestid"), "W8", "Query error has RequestId element + header", d)
    qerr("W8", "Query invalid UTF-8 (%FF)", qcall(None, raw=b"Action=ListQueues&QueueNamePrefix=%FF"), 400, "MalformedQueryString")
    qerr("W8", "Query bad percent escape", qcall(None, raw=b"Action=ListQueues&QueueNamePrefix=%G1"), 400, "MalformedQueryString")
    qerr("W8", "Query missing Action", qcall({"Version": "2012-11-05"}), 400, "MissingAction")
    qerr("W8", "Query string for int", qcall({"Action": "ReceiveMessage", "QueueUrl": url, "MaxNumberOfMessages": "five"}), 400,
         "InvalidParameterValue")
    qerr("W8", "Query DelaySeconds 1.5", qcall({"Action": "SendMessage", "QueueUrl": url, "MessageBody": "x", "DelaySeconds": "1.5"}), 400,
         "InvalidParameterValue")
    qerr("W8", "Query unknown attribute", qcall({"Action": "SetQueueAttributes", "QueueUrl": url, "Attribute.1.Name": "Bogus", "Attribute.1.Value": "1"}),
         400, "InvalidAttributeName", "Unknown Attribute Bogus.")
    qerr("W8", "Query missing MessageBody", qcall({"Action": "SendMessage", "QueueUrl": url}), 400, "MissingParameter",
         "The request must contain the parameter MessageBody.")
    s, h, d = qcall({"Action": "ListQueues", "QueueNamePrefix": "w" + RUN})
    report(s == 200 and h.get("content-type", "").startswith("text/xml") and "<QueueUrl>%s</QueueUrl>" % url in d
           and d.startswith("<?xml"), "W8", "Query ListQueues XML", d)
    s, h, d = qcall({"Action": "SendMessage", "QueueUrl": url, "MessageBody": "test"})
    report("<MD5OfMessageBody>098f6bcd4621d373cade4e832627b4f6</MD5OfMessageBody>" in d and "<MessageId>" in d, "W8", "Query SendMessage XML", d)
    qerr("W8", "Query body with chr(0) (%00)", qcall(None, raw=("Action=SendMessage&QueueUrl=%s&MessageBody=a%%00" % urllib.parse.quote(url, safe="")).encode()),
         400, "InvalidMessageContents")
    s, h, d = qcall({"Action": "ReceiveMessage", "QueueUrl": url, "VisibilityTimeout": "0", "MaxNumberOfMessages": "10",
                     "AttributeName.1": "All", "MessageAttributeName.1": "All"})
    report(s == 200 and "<ReceiveMessageResult><Message><MessageId>" in d and "<Attribute><Name>SenderId</Name><Value>" in d,
           "W8", "Query ReceiveMessage XML element names", d[:600])

    # ---- behaviours 70-75
    qerr("70", "Action=FooBar", qcall({"Action": "FooBar"}), 400, "InvalidAction", "The action FooBar is not valid for this endpoint.")
    qerr("71", "GET queue URL Action=CreateQueue", qcall({"Action": "CreateQueue", "QueueName": "x"}, method="GET", path=path), 400,
         "InvalidAction", "The action CreateQueue is not valid for this endpoint.")
    s, h, d = qcall({"Action": "ListQueues"}, method="GET", path=path, accept="application/json")
    j = json.loads(d) if d.startswith("{") else {}
    report(s == 400 and j == {"Error": {"Code": "InvalidAction", "Message": "The action ListQueues is not valid for this endpoint."}},
           "71", "Accept json InvalidAction: exactly the recorded body", d)
    qerr("72", "GET queue URL SendMessage no body", qcall({"Action": "SendMessage"}, method="GET", path=path), 400, "MissingParameter",
         "The request must contain the parameter MessageBody.")
    for accept in (None, "application/json"):
        s, h, d = qcall({}, method="GET", path=path, accept=accept)
        report(s == 404 and "<UnknownOperationException/>" in d, "73", "GET queue URL without Action (accept %s)" % accept, (s, d))
    s, h, j = jcall("GetQueueAttributes", {"QueueUrl": url, "AttributeNames": ["QueueArn"]}, path=path)
    report(s == 200 and h.get("content-type") == "application/x-amz-json-1.0" and "Attributes" in j, "74", "JSON POSTed to queue path", (s, h, j))
    for accept in (None, "application/json"):
        req = AWSRequest(method="GET", url=BASE + "/?Action=ListQueues&Version=2012-11-05", headers={"Accept": accept} if accept else {})
        SigV4QueryAuth(Credentials("test", "secret"), "sqs", "us-east-1", expires=300).add_auth(req)
        u = urllib.parse.urlparse(req.url)
        s, h, d = send("GET", u.path + "?" + u.query, b"", {"Accept": accept} if accept else {})
        d = d.decode()
        ok = s == 200 and ("<ListQueuesResponse" in d if not accept else list(json.loads(d)) == ["ListQueuesResponse"])
        report(ok, "75", "query-string SigV4 GET ListQueues (accept %s)" % accept, (s, d[:300]))

    # ---- nothing changed by the bad requests: same configuration, same queues, and only the three
    # messages sent by the valid calls above (canary, the null-members send, the Query send)
    mid = snapshot()
    conf = lambda a: {k: v for k, v in a.items() if not k.startswith("Approximate") and k != "LastModifiedTimestamp"}
    visible = int(mid[0]["ApproximateNumberOfMessages"]) + int(mid[0]["ApproximateNumberOfMessagesNotVisible"])
    report(conf(before[0]) == conf(mid[0]) and before[1] == mid[1] and visible == 3, "W11",
           "bad requests changed nothing (config, queue list, message count)", (before, mid))

    # ---- behaviour 3, 45 (Query half), 65/68 over Query
    s, h, j = jcall("CreateQueue", {"QueueName": "w%s-gone" % RUN})
    gone = j["QueueUrl"]
    jcall("DeleteQueue", {"QueueUrl": gone})
    qerr("3", "Query GET on deleted queue URL", qcall({"Action": "GetQueueAttributes", "AttributeName.1": "All"}, method="GET",
         path=urllib.parse.urlparse(gone).path), 400, "AWS.SimpleQueueService.NonExistentQueue",
         "The specified queue does not exist for this wsdl version.")
    s, h, j = jcall("CreateQueue", {"QueueName": "w%s-q45" % RUN})
    q45 = j["QueueUrl"]
    jcall("SendMessage", {"QueueUrl": q45, "MessageBody": "x"})
    s, h, d = qcall({"Action": "ReceiveMessage", "QueueUrl": q45, "AttributeName.1": "SenderId", "MessageSystemAttributeName.1": "All",
                     "VisibilityTimeout": "0"})
    report(s == 200 and d.count("<Attribute>") == 1 and "<Name>SenderId</Name>" in d, "45", "Query: AttributeNames wins (only SenderId)", d)
    s, h, j = jcall("ReceiveMessage", {"QueueUrl": q45, "AttributeNames": ["SenderId"], "MessageSystemAttributeNames": ["All"]})
    report(s == 200 and len(j["Messages"][0]["Attributes"]) == 4, "45", "JSON: MessageSystemAttributeNames wins (raw)", j)
    jcall("DeleteQueue", {"QueueUrl": q45})
    qerr("65", "Query StartMessageMoveTask on non-DLQ", qcall({"Action": "StartMessageMoveTask",
         "SourceArn": "arn:aws:sqs:us-east-1:%s:%s" % (ACCOUNT, q)}), 400, "InvalidParameterValue",
         "Source queue must be configured as a Dead Letter Queue.")
    qerr("68", "Query CancelMessageMoveTask bad handle", qcall({"Action": "CancelMessageMoveTask", "TaskHandle": "zz"}), 400,
         "InvalidParameterValue", "Value for parameter TaskHandle is invalid.")
    qerr("69", "Query CancelMessageMoveTask unknown source -> 404", qcall({"Action": "CancelMessageMoveTask", "TaskHandle":
         __import__("base64").b64encode(json.dumps({"taskId": "t", "sourceArn": "arn:aws:sqs:us-east-1:%s:w%s-none" % (ACCOUNT, RUN)}).encode()).decode()}),
         404, "ResourceNotFoundException", "The resource that you specified for the SourceArn parameter doesn't exist.")
    # ListMessageMoveTasks XML: entries are <ListMessageMoveTasksResultEntry> (Smithy xmlName, as the AWS SDKs parse it)
    dl = jcall("CreateQueue", {"QueueName": "w%s-mdlq" % RUN})[2]["QueueUrl"]
    src = jcall("CreateQueue", {"QueueName": "w%s-msrc" % RUN, "Attributes": {"RedrivePolicy": json.dumps(
        {"deadLetterTargetArn": "arn:aws:sqs:us-east-1:%s:w%s-mdlq" % (ACCOUNT, RUN), "maxReceiveCount": 1})}})[2]["QueueUrl"]
    dl_arn = "arn:aws:sqs:us-east-1:%s:w%s-mdlq" % (ACCOUNT, RUN)
    jcall("StartMessageMoveTask", {"SourceArn": dl_arn})
    s, h, d = qcall({"Action": "ListMessageMoveTasks", "SourceArn": dl_arn, "MaxResults": "10"})
    report(s == 200 and "<ListMessageMoveTasksResult><ListMessageMoveTasksResultEntry>" in d and "<Status>" in d, "W12",
           "Query ListMessageMoveTasks entry element", d)
    jcall("DeleteQueue", {"QueueUrl": src})
    jcall("DeleteQueue", {"QueueUrl": dl})
    qerr("60", "Query second PurgeQueue -> 403", (lambda: (qcall({"Action": "PurgeQueue", "QueueUrl": url}), qcall({"Action": "PurgeQueue", "QueueUrl": url}))[1])(),
         403, "AWS.SimpleQueueService.PurgeQueueInProgress")
    jerr("60", "JSON PurgeQueue in progress -> 403", jcall("PurgeQueue", {"QueueUrl": url}), 403, SQS + "PurgeQueueInProgress",
         "AWS.SimpleQueueService.PurgeQueueInProgress")
    jcall("SendMessage", {"QueueUrl": url, "MessageBody": "canary"})

    # ---- accounts selected by a 12-digit access key
    other = "123456789012"
    s, h, j = jcall("CreateQueue", {"QueueName": "w%s-acct" % RUN}, key=other)
    report(s == 200 and "/%s/" % other in j.get("QueueUrl", ""), "W9", "12-digit key selects account in CreateQueue", j)
    ourl = j.get("QueueUrl", "")
    s, h, j = jcall("ListQueues", {"QueueNamePrefix": "w" + RUN}, key=other)
    report(s == 200 and j.get("QueueUrls") == [ourl], "W9", "ListQueues shows only that account's queues", j)
    s, h, j = jcall("GetQueueUrl", {"QueueName": q}, key=other)
    jerr("W9", "other account cannot GetQueueUrl default account's queue by name", (s, h, j), 400, SQS + "QueueDoesNotExist",
         "AWS.SimpleQueueService.NonExistentQueue")
    s, h, j = jcall("GetQueueUrl", {"QueueName": q, "QueueOwnerAWSAccountId": ACCOUNT}, key=other)
    report(s == 200 and j.get("QueueUrl") == url, "W9", "GetQueueUrl with QueueOwnerAWSAccountId", (s, j))
    s, h, j = jcall("GetQueueAttributes", {"QueueUrl": BASE + "/999999999999/" + q, "AttributeNames": ["All"]})
    jerr("W9", "queue URL under unknown account", (s, h, j), 400, SQS + "QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue",
         "The specified queue does not exist.")
    s, h, j = jcall("GetQueueAttributes", {"QueueUrl": BASE + "/" + q, "AttributeNames": ["All"]})
    # sqs-behaviours 77: no /{account}/{name} path names no queue (never InvalidAddress 404)
    jerr("W9", "queue URL without account -> 400 NonExistentQueue", (s, h, j), 400, SQS + "QueueDoesNotExist",
         "AWS.SimpleQueueService.NonExistentQueue", "The specified queue does not exist.")
    req = AWSRequest(method="GET", url=BASE + "/?Action=ListQueues&QueueNamePrefix=w" + RUN)
    SigV4QueryAuth(Credentials(other, "secret"), "sqs", "us-east-1", expires=300).add_auth(req)
    pu = urllib.parse.urlparse(req.url)
    s, h, d = send("GET", pu.path + "?" + pu.query)
    report(s == 200 and ourl in d.decode() and url not in d.decode(), "W9", "presigned GET with 12-digit key selects account", d[:300])
    for auth in ("garbage", "AWS4-HMAC-SHA256 Credential=", "AWS4-HMAC-SHA256 Credential=12345678901/x", "AWS4-HMAC-SHA256 Credential=1234567890123/x"):
        hs = {"X-Amz-Target": "AmazonSQS.ListQueues", "Content-Type": "application/x-amz-json-1.0", "Authorization": auth}
        s, h, d = send("POST", "/", b'{"QueueNamePrefix":"w%s"}' % RUN.encode(), hs)
        j = json.loads(d)
        report(s == 200 and ourl not in j.get("QueueUrls", []), "W9", "odd Authorization %r -> default account" % auth[:30], (s, j))
    jcall("DeleteQueue", {"QueueUrl": ourl}, key=other)

    # ---- MD5s on receive over JSON
    u2 = jcall("CreateQueue", {"QueueName": "w%s-md5" % RUN})[2]["QueueUrl"]
    trace = "Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1"
    s, h, j = jcall("SendMessage", {"QueueUrl": u2, "MessageBody": "test", "MessageAttributes": {
        "Foo": {"DataType": "String", "StringValue": "Bar"}, "Bin": {"DataType": "Binary", "BinaryValue": "AAEC"},
        "Num": {"DataType": "Number.int", "StringValue": "42"}},
        "MessageSystemAttributes": {"AWSTraceHeader": {"DataType": "String", "StringValue": trace}}})
    want_sys = md5_attrs({"AWSTraceHeader": ("String", trace.encode(), 1)})
    want_attrs = md5_attrs({"Foo": ("String", b"Bar", 1), "Bin": ("Binary", b"\x00\x01\x02", 2), "Num": ("Number.int", b"42", 1)})
    report(j.get("MD5OfMessageSystemAttributes") == want_sys and j.get("MD5OfMessageAttributes") == want_attrs
           and j.get("MD5OfMessageBody") == "098f6bcd4621d373cade4e832627b4f6", "W10", "send MD5s (body, attrs incl. Binary, system)", j)
    s, h, j = jcall("ReceiveMessage", {"QueueUrl": u2, "MessageAttributeNames": ["All"], "MessageSystemAttributeNames": ["All"]})
    m = j["Messages"][0]
    report(m.get("MD5OfBody") == "098f6bcd4621d373cade4e832627b4f6" and m.get("MD5OfMessageAttributes") == want_attrs
           and m["Attributes"].get("AWSTraceHeader") == trace and m["MessageAttributes"]["Bin"]["BinaryValue"] == "AAEC",
           "W10", "receive MD5s, AWSTraceHeader, Binary round trip", m)
    jcall("DeleteQueue", {"QueueUrl": u2})

    jcall("DeleteQueue", {"QueueUrl": url})


def md5_attrs(attrs):
    out = b""
    enc = lambda b: len(b).to_bytes(4, "big") + b
    for k in sorted(attrs):
        dt, val, tag = attrs[k]
        out += enc(k.encode()) + enc(dt.encode()) + bytes([tag]) + enc(val)
    return hashlib.md5(out).hexdigest()


if __name__ == "__main__":
    try:
        main()
    finally:
        print("wire: %d checks, %d failed" % (len(results), results.count(False)))
    sys.exit(1 if False in results else 0)
