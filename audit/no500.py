#!/usr/bin/env python3
"""Sends a bounded set of odd requests (methods, headers, Query index shapes, JSON oddities) and
checks each gets a 4xx SQS answer quickly, never a 5xx or a hang. Usage: no500.py PORT"""
import http.client
import json
import sys
import urllib.parse

PORT = int(sys.argv[1])
QURL = "http://127.0.0.1:%d/000000000000/no500" % PORT
fails = 0
count = 0


def send(method, path, body=b"", headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
    conn.request(method, path, body=body, headers=headers or {})
    r = conn.getresponse()
    data = r.read()
    conn.close()
    return r.status, data


def check(what, method, path, body=b"", headers=None, want=None):
    global fails, count
    count += 1
    try:
        s, d = send(method, path, body, headers)
    except Exception as e:
        s, d = -1, repr(e).encode()
    ok = 0 < s < 500 and (want is None or s == want)
    if not ok:
        fails += 1
    print("%s %s -> %s %s" % ("PASS" if ok else "FAIL", what, s, d[:160].decode("utf-8", "replace") if not ok else ""))


J = {"Content-Type": "application/x-amz-json-1.0"}
F = {"Content-Type": "application/x-www-form-urlencoded"}


def jt(action):
    return dict(J, **{"X-Amz-Target": "AmazonSQS." + action})


def main():
    send("POST", "/", json.dumps({"QueueName": "no500"}).encode(), jt("CreateQueue"))
    for m in ("PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"):
        check("method " + m, m, "/?Action=ListQueues")
    check("GET root, no params (the service page)", "GET", "/", want=200)
    check("GET root with a query but no Action", "GET", "/?x=1", want=400)
    check("POST root, empty form", "POST", "/", b"", F, want=400)
    check("form index 0", "POST", "/", b"Action=GetQueueAttributes&QueueUrl=" + QURL.encode() + b"&AttributeName.0=All", F)
    check("form huge index", "POST", "/", b"Action=GetQueueAttributes&QueueUrl=" + QURL.encode() + b"&AttributeName.99999999999999=All", F)
    check("form negative index", "POST", "/", b"Action=GetQueueAttributes&QueueUrl=" + QURL.encode() + b"&AttributeName.-1=All", F)
    check("form map entry without Name", "POST", "/", b"Action=SetQueueAttributes&QueueUrl=" + QURL.encode() + b"&Attribute.1.Value=3", F, want=400)
    check("form map entry without Value", "POST", "/", b"Action=SetQueueAttributes&QueueUrl=" + QURL.encode() + b"&Attribute.1.Name=DelaySeconds", F, want=400)
    check("form '=' only", "POST", "/", b"=&&=&Action=ListQueues", F, want=200)
    check("form lone %", "POST", "/", b"Action=ListQueues&QueueNamePrefix=%", F, want=400)
    check("form overlong UTF-8", "POST", "/", b"Action=ListQueues&QueueNamePrefix=%C0%AF", F, want=400)
    check("form surrogate UTF-8", "POST", "/", b"Action=ListQueues&QueueNamePrefix=%ED%A0%80", F, want=400)
    check("form MessageAttribute without DataType", "POST", "/", b"Action=SendMessage&QueueUrl=" + QURL.encode()
          + b"&MessageBody=x&MessageAttribute.1.Name=a&MessageAttribute.1.Value.StringValue=v", F, want=400)
    check("form batch entries with gaps", "POST", "/", b"Action=SendMessageBatch&QueueUrl=" + QURL.encode()
          + b"&SendMessageBatchRequestEntry.3.Id=a&SendMessageBatchRequestEntry.3.MessageBody=x", F, want=200)
    check("JSON content-type, no target", "POST", "/", b"{}", J, want=400)
    check("target without prefix", "POST", "/", b"{}", dict(J, **{"X-Amz-Target": "ListQueues"}), want=400)
    check("target other service", "POST", "/", b"{}", dict(J, **{"X-Amz-Target": "DynamoDB_20120810.ListTables"}), want=400)
    check("JSON 1.1 content type", "POST", "/", b"{}", dict(jt("ListQueues"), **{"Content-Type": "application/x-amz-json-1.1"}), want=200)
    check("JSON number overflow", "POST", "/", b'{"QueueUrl":"' + QURL.encode() + b'","MaxNumberOfMessages":1e999}', jt("ReceiveMessage"), want=400)
    check("JSON huge int literal", "POST", "/", b'{"QueueUrl":"' + QURL.encode() + b'","MaxNumberOfMessages":' + b"9" * 2000 + b"}", jt("ReceiveMessage"), want=400)
    check("JSON duplicate keys", "POST", "/", b'{"QueueName":"a","QueueName":"no500"}', jt("GetQueueUrl"))
    check("JSON BOM", "POST", "/", b'\xef\xbb\xbf{}', jt("ListQueues"))
    check("JSON NUL byte", "POST", "/", b'{"QueueName":"\x00"}', jt("GetQueueUrl"), want=400)
    check("JSON escaped NUL in queue name", "POST", "/", b'{"QueueName":"\\u0000"}', jt("GetQueueUrl"), want=400)
    check("JSON entries with null item", "POST", "/", b'{"QueueUrl":"' + QURL.encode() + b'","Entries":[null]}', jt("SendMessageBatch"), want=400)
    check("JSON attributes with null value", "POST", "/", b'{"QueueUrl":"' + QURL.encode() + b'","Attributes":{"DelaySeconds":null}}', jt("SetQueueAttributes"), want=400)
    check("JSON message attribute value null", "POST", "/", b'{"QueueUrl":"' + QURL.encode() + b'","MessageBody":"x","MessageAttributes":{"a":null}}', jt("SendMessage"), want=400)
    check("JSON binary attr not base64", "POST", "/", b'{"QueueUrl":"' + QURL.encode() + b'","MessageBody":"x","MessageAttributes":{"a":{"DataType":"Binary","BinaryValue":"!!"}}}', jt("SendMessage"), want=400)
    check("JSON Number attr not numeric", "POST", "/", b'{"QueueUrl":"' + QURL.encode() + b'","MessageBody":"x","MessageAttributes":{"a":{"DataType":"Number","StringValue":"abc"}}}', jt("SendMessage"), want=400)
    check("JSON 11 message attributes", "POST", "/", json.dumps({"QueueUrl": QURL, "MessageBody": "x", "MessageAttributes": {
        "a%d" % i: {"DataType": "String", "StringValue": "v"} for i in range(11)}}).encode(), jt("SendMessage"), want=400)
    check("JSON unknown system attribute", "POST", "/", json.dumps({"QueueUrl": QURL, "MessageBody": "x", "MessageSystemAttributes": {
        "Foo": {"DataType": "String", "StringValue": "v"}}}).encode(), jt("SendMessage"), want=400)
    check("JSON QueueUrl not a URL (a bare name: NonExistentQueue 400)", "POST", "/", b'{"QueueUrl":"::::"}', jt("PurgeQueue"), want=400)
    check("JSON QueueUrl with query", "POST", "/", json.dumps({"QueueUrl": QURL + "?x=1"}).encode(), jt("PurgeQueue"))
    check("JSON QueueUrl deep path", "POST", "/", json.dumps({"QueueUrl": QURL + "/extra"}).encode(), jt("PurgeQueue"), want=400)
    check("path traversal queue path", "GET", "/../000000000000/no500?Action=GetQueueAttributes")
    check("very long URL", "GET", "/?Action=ListQueues&QueueNamePrefix=" + "a" * 20000)
    check("many headers", "POST", "/", b"{}", dict(jt("ListQueues"), **{"X-H%d" % i: "v" for i in range(200)}))
    send("POST", "/", json.dumps({"QueueUrl": QURL}).encode(), jt("DeleteQueue"))
    print("no500: %d checks, %d failed" % (count, fails))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
