#!/usr/bin/env python3
"""Slow check (about 65 s): MessageRetentionPeriod=60 expires a stored message, and a new queue's
LastModifiedTimestamp moves on SetQueueAttributes. Usage: retention.py PORT"""
import sys
import time
import uuid

import boto3

s = boto3.client("sqs", endpoint_url="http://127.0.0.1:%s" % sys.argv[1], region_name="us-east-1",
                 aws_access_key_id="t", aws_secret_access_key="t")
u = s.create_queue(QueueName="r%s" % uuid.uuid4().hex[:6], Attributes={"MessageRetentionPeriod": "60"})["QueueUrl"]
s.send_message(QueueUrl=u, MessageBody="short-lived")
created = s.get_queue_attributes(QueueUrl=u, AttributeNames=["LastModifiedTimestamp"])["Attributes"]["LastModifiedTimestamp"]
time.sleep(62)
a = s.get_queue_attributes(QueueUrl=u, AttributeNames=["All"])["Attributes"]
gone = a["ApproximateNumberOfMessages"] == "0" and "Messages" not in s.receive_message(QueueUrl=u)
print("%s retention: message expired after MessageRetentionPeriod=60" % ("PASS" if gone else "FAIL"), a)
s.set_queue_attributes(QueueUrl=u, Attributes={"VisibilityTimeout": "5"})
moved = s.get_queue_attributes(QueueUrl=u, AttributeNames=["LastModifiedTimestamp"])["Attributes"]["LastModifiedTimestamp"]
print("%s LastModifiedTimestamp moves on SetQueueAttributes" % ("PASS" if int(moved) > int(created) else "FAIL"), created, moved)
s.delete_queue(QueueUrl=u)
sys.exit(0 if gone and int(moved) > int(created) else 1)
