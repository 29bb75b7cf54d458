#!/usr/bin/env python3
"""Measures push delivery: messages per second from a queue to push_endpoint.py (a Python http.server).

Usage: push_throughput.py ENDPOINT FUNCTION_NAME MESSAGES BATCH_SIZE MAX_CONCURRENCY
The server must declare FUNCTION_NAME (pointing at a running push_endpoint.py). Sends MESSAGES messages,
creates a mapping, and reports how long the queue took to drain.
"""
import sys
import time
import uuid

import boto3

endpoint, function, count, batch, concurrency = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
kw = dict(endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="test")
sqs, lam = boto3.client("sqs", **kw), boto3.client("lambda", **kw)
name = "throughput-" + uuid.uuid4().hex[:8]
url = sqs.create_queue(QueueName=name)["QueueUrl"]
arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
for i in range(0, count, 10):
    sqs.send_message_batch(QueueUrl=url, Entries=[{"Id": str(j), "MessageBody": "m%d" % (i + j)} for j in range(10)])
params = dict(FunctionName=function, EventSourceArn=arn, BatchSize=batch, ScalingConfig={"MaximumConcurrency": concurrency})
if batch > 10:
    params["MaximumBatchingWindowInSeconds"] = 1
start = time.time()
uuid_ = lam.create_event_source_mapping(**params)["UUID"]
while True:
    a = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"])["Attributes"]
    if int(a["ApproximateNumberOfMessages"]) + int(a["ApproximateNumberOfMessagesNotVisible"]) == 0:
        break
    time.sleep(0.05)
elapsed = time.time() - start
lam.delete_event_source_mapping(UUID=uuid_)
print("%d messages, BatchSize %d, MaximumConcurrency %d: drained in %.2f s = %.0f messages/s"
      % (count, batch, concurrency, elapsed, count / elapsed))
