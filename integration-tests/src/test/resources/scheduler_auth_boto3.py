"""Scheduler with --auth sigv4 through boto3: argv endpoint, account, root key, root secret, user key, user secret."""
import sys

import boto3
import botocore.exceptions

endpoint, account, rk, rs, uk, us = sys.argv[1:7]


def client(service, key, secret):
    return boto3.client(service, endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id=key,
                        aws_secret_access_key=secret)


root, alice, sqs = client("scheduler", rk, rs), client("scheduler", uk, us), client("sqs", rk, rs)
url = sqs.create_queue(QueueName="sched-auth")["QueueUrl"]
arn = "arn:aws:sqs:us-east-1:%s:sched-auth" % account
target = {"Arn": arn, "RoleArn": "arn:aws:iam::%s:role/scheduler" % account}
created = root.create_schedule(Name="s", ScheduleExpression="rate(1 day)", FlexibleTimeWindow={"Mode": "OFF"}, Target=target)
assert created["ScheduleArn"] == "arn:aws:scheduler:us-east-1:%s:schedule/default/s" % account, created
try:
    alice.get_schedule(Name="s")
    raise AssertionError("a user without scheduler rights read a schedule")
except botocore.exceptions.ClientError as e:
    assert e.response["Error"]["Code"] == "AccessDeniedException", e.response
    assert e.response["ResponseMetadata"]["HTTPStatusCode"] == 403, e.response
    assert "scheduler:GetSchedule" in e.response["Error"]["Message"], e.response
try:
    root.create_schedule(Name="t", ScheduleExpression="rate(1 day)", FlexibleTimeWindow={"Mode": "OFF"},
                         Target={"Arn": arn, "RoleArn": "arn:aws:iam::999999999999:role/x"})
    raise AssertionError("a role of another account was accepted")
except botocore.exceptions.ClientError as e:
    assert e.response["Error"]["Code"] == "ValidationException", e.response
print("ok: auth")
