"""SNS fan-out against a Hikyaku endpoint with boto3's sns and sqs clients; prints 'ok' or fails."""
import json
import sys
import uuid

import boto3

endpoint = sys.argv[1]
kw = dict(endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="000000000000", aws_secret_access_key="test")
sns = boto3.client("sns", **kw)
sqs = boto3.client("sqs", **kw)
suffix = uuid.uuid4().hex[:8]


def queue(name, fifo=False):
    attrs = {"FifoQueue": "true"} if fifo else {}
    url = sqs.create_queue(QueueName=name, Attributes=attrs)["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    return url, arn


def receive(url):
    out = []
    for _ in range(3):
        out += sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, MessageAttributeNames=["All"],
                                   AttributeNames=["All"]).get("Messages", [])
    return out


topic = sns.create_topic(Name="py-" + suffix)["TopicArn"]
all_url, all_arn = queue("py-all-" + suffix)
blue_url, blue_arn = queue("py-blue-" + suffix)
raw_url, raw_arn = queue("py-raw-" + suffix)
sns.subscribe(TopicArn=topic, Protocol="sqs", Endpoint=all_arn, ReturnSubscriptionArn=True)
sns.subscribe(TopicArn=topic, Protocol="sqs", Endpoint=blue_arn,
              Attributes={"FilterPolicy": json.dumps({"color": ["blue"]})}, ReturnSubscriptionArn=True)
sns.subscribe(TopicArn=topic, Protocol="sqs", Endpoint=raw_arn, Attributes={"RawMessageDelivery": "true"})
for color in ("red", "blue"):
    sns.publish(TopicArn=topic, Message="paint " + color,
                MessageAttributes={"color": {"DataType": "String", "StringValue": color}})
got = sorted(json.loads(m["Body"])["Message"] for m in receive(all_url))
assert got == ["paint blue", "paint red"], got
blue = [json.loads(m["Body"])["Message"] for m in receive(blue_url)]
assert blue == ["paint blue"], blue
raw = receive(raw_url)
assert sorted(m["Body"] for m in raw) == ["paint blue", "paint red"], raw
assert all(m["MessageAttributes"]["color"]["DataType"] == "String" for m in raw), raw

fifo_topic = sns.create_topic(Name="py-" + suffix + ".fifo",
                              Attributes={"FifoTopic": "true", "ContentBasedDeduplication": "true"})["TopicArn"]
fifo_url, fifo_arn = queue("py-q-" + suffix + ".fifo", fifo=True)
sns.subscribe(TopicArn=fifo_topic, Protocol="sqs", Endpoint=fifo_arn)
for i in range(5):
    sns.publish(TopicArn=fifo_topic, Message="m%d" % i, MessageGroupId="g")
order = [json.loads(m["Body"])["Message"] for m in receive(fifo_url)]
assert order == ["m0", "m1", "m2", "m3", "m4"], order

try:
    sns.get_topic_attributes(TopicArn=topic + "-missing")
    raise AssertionError("a missing topic answered")
except sns.exceptions.NotFoundException as e:
    assert e.response["Error"]["Message"] == "Topic does not exist", e.response
print("ok: boto3", boto3.__version__)
