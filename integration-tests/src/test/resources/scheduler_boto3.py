"""EventBridge Scheduler against a Hikyaku endpoint with boto3's scheduler and sqs clients; prints 'ok' or fails.

Modes: all (CRUD, paging, errors, fires), create-durable / check-durable (a schedule kept across a restart)."""
import datetime
import json
import sys
import time
import urllib.request
import uuid

import boto3
import botocore.exceptions

endpoint, mode = sys.argv[1], sys.argv[2]
kw = dict(endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="000000000000", aws_secret_access_key="test")
sch = boto3.client("scheduler", **kw)
sqs = boto3.client("sqs", **kw)
suffix = uuid.uuid4().hex[:8]
ROLE = "arn:aws:iam::000000000000:role/scheduler"
OFF = {"Mode": "OFF"}


def queue(name, fifo=False):
    attrs = {"FifoQueue": "true", "ContentBasedDeduplication": "true"} if fifo else {}
    url = sqs.create_queue(QueueName=name, Attributes=attrs)["QueueUrl"]
    return url, sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]


def error(call, code, status, message=None):
    try:
        call()
    except botocore.exceptions.ClientError as e:
        assert e.response["Error"]["Code"] == code, e.response
        assert e.response["ResponseMetadata"]["HTTPStatusCode"] == status, e.response
        if message is not None:
            assert e.response["Error"]["Message"] == message, e.response
        return
    raise AssertionError("expected " + code)


def at_in(seconds):
    t = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0) + datetime.timedelta(seconds=seconds)
    return t, "at(" + t.strftime("%Y-%m-%dT%H:%M:%S") + ")"


def wait_message(url, deadline_s):
    start = time.time()
    while time.time() - start < deadline_s:
        got = sqs.receive_message(QueueUrl=url, WaitTimeSeconds=1, AttributeNames=["All"]).get("Messages", [])
        if got:
            return got[0], time.time()
    raise AssertionError("no message within %s s" % deadline_s)


if mode == "all":
    url, arn = queue("sch-" + suffix)
    furl, farn = queue("sch-" + suffix + ".fifo", fifo=True)
    target = {"Arn": arn, "RoleArn": ROLE, "Input": "hi"}
    # groups
    g = "grp-" + suffix
    garn = sch.create_schedule_group(Name=g, Tags=[{"Key": "team", "Value": "a"}])["ScheduleGroupArn"]
    assert garn == "arn:aws:scheduler:us-east-1:000000000000:schedule-group/" + g, garn
    assert sch.get_schedule_group(Name=g)["State"] == "ACTIVE"
    assert {"Key": "team", "Value": "a"} in sch.list_tags_for_resource(ResourceArn=garn)["Tags"]
    sch.tag_resource(ResourceArn=garn, Tags=[{"Key": "env", "Value": "dev"}])
    sch.untag_resource(ResourceArn=garn, TagKeys=["team"])
    assert sch.list_tags_for_resource(ResourceArn=garn)["Tags"] == [{"Key": "env", "Value": "dev"}]
    names = [x["Name"] for x in sch.list_schedule_groups()["ScheduleGroups"]]
    assert "default" in names and g in names, names
    error(lambda: sch.create_schedule_group(Name=g), "ConflictException", 409)
    error(lambda: sch.get_schedule_group(Name="nope-" + suffix), "ResourceNotFoundException", 404)
    # schedules: CRUD and paging
    for i in range(5):
        sch.create_schedule(Name="p%d-%s" % (i, suffix), GroupName=g, ScheduleExpression="rate(1 day)",
                            StartDate=datetime.datetime(2099, 1, 1, tzinfo=datetime.timezone.utc),
                            FlexibleTimeWindow=OFF, Target=target)
    got = sch.get_schedule(Name="p0-" + suffix, GroupName=g)
    assert got["ScheduleExpression"] == "rate(1 day)" and got["Target"]["Arn"] == arn, got
    assert got["StartDate"].year == 2099, got
    sch.update_schedule(Name="p0-" + suffix, GroupName=g, ScheduleExpression="cron(0 9 ? * MON *)",
                        ScheduleExpressionTimezone="Europe/Berlin", FlexibleTimeWindow={"Mode": "FLEXIBLE", "MaximumWindowInMinutes": 15},
                        Target=target, State="DISABLED")
    got = sch.get_schedule(Name="p0-" + suffix, GroupName=g)
    assert got["State"] == "DISABLED" and got["FlexibleTimeWindow"]["MaximumWindowInMinutes"] == 15, got
    seen, token = [], None
    while True:
        args = dict(GroupName=g, MaxResults=2)
        if token:
            args["NextToken"] = token
        page = sch.list_schedules(**args)
        assert len(page["Schedules"]) <= 2
        seen += [s["Name"] for s in page["Schedules"]]
        token = page.get("NextToken")
        if not token:
            break
    assert sorted(seen) == sorted("p%d-%s" % (i, suffix) for i in range(5)), seen
    assert [s["Name"] for s in sch.list_schedules(GroupName=g, State="DISABLED")["Schedules"]] == ["p0-" + suffix]
    assert len(sch.list_schedules(NamePrefix="p1-" + suffix)["Schedules"]) == 1
    # validation and errors
    for bad in ("rate(10 seconds)", "at(2021-12-31)", "cron(0 1 * * * *)"):
        error(lambda: sch.create_schedule(Name="bad-" + suffix, ScheduleExpression=bad, FlexibleTimeWindow=OFF,
                                          Target=target), "ValidationException", 400, "Invalid Schedule Expression " + bad + ".")
    error(lambda: sch.create_schedule(Name="p1-" + suffix, GroupName=g, ScheduleExpression="rate(1 day)",
                                      FlexibleTimeWindow=OFF, Target=target), "ConflictException", 409)
    error(lambda: sch.get_schedule(Name="missing-" + suffix), "ResourceNotFoundException", 404)
    error(lambda: sch.create_schedule(Name="tz-" + suffix, ScheduleExpression="rate(1 day)", ScheduleExpressionTimezone="Mars/Olympus",
                                      FlexibleTimeWindow=OFF, Target=target), "ValidationException", 400)
    error(lambda: sch.create_schedule(Name="fx-" + suffix, ScheduleExpression="rate(1 day)",
                                      FlexibleTimeWindow={"Mode": "FLEXIBLE", "MaximumWindowInMinutes": 1441}, Target=target),
          "ValidationException", 400)
    error(lambda: sch.create_schedule(Name="ff-" + suffix, ScheduleExpression="rate(1 day)", FlexibleTimeWindow=OFF,
                                      Target={"Arn": farn, "RoleArn": ROLE}), "ValidationException", 400)
    error(lambda: sch.create_schedule(Name="ln-" + suffix, ScheduleExpression="rate(1 day)", FlexibleTimeWindow=OFF,
                                      Target={"Arn": "arn:aws:lambda:us-east-1:000000000000:function:f", "RoleArn": ROLE}),
          "ValidationException", 400)
    error(lambda: sch.create_schedule(Name="ro-" + suffix, ScheduleExpression="rate(1 day)", FlexibleTimeWindow=OFF,
                                      Target={"Arn": arn, "RoleArn": "arn:aws:iam::111111111111:role/x"}), "ValidationException", 400)
    # idempotency: the same ClientToken twice is one schedule
    a1 = sch.create_schedule(Name="idem-" + suffix, ScheduleExpression="rate(1 day)", FlexibleTimeWindow=OFF,
                             StartDate=datetime.datetime(2099, 1, 1, tzinfo=datetime.timezone.utc), Target=target, ClientToken="tok-" + suffix)
    a2 = sch.create_schedule(Name="idem-" + suffix, ScheduleExpression="rate(1 day)", FlexibleTimeWindow=OFF,
                             StartDate=datetime.datetime(2099, 1, 1, tzinfo=datetime.timezone.utc), Target=target, ClientToken="tok-" + suffix)
    assert a1["ScheduleArn"] == a2["ScheduleArn"]
    # a FIFO target needs content-based deduplication (the Scheduler sends no deduplication id)
    nurl = sqs.create_queue(QueueName="sch-nodedup-" + suffix + ".fifo", Attributes={"FifoQueue": "true"})["QueueUrl"]
    narn = sqs.get_queue_attributes(QueueUrl=nurl, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    error(lambda: sch.create_schedule(Name="nodedup-" + suffix, ScheduleExpression="rate(1 day)", FlexibleTimeWindow=OFF,
                                      Target={"Arn": narn, "RoleArn": ROLE, "SqsParameters": {"MessageGroupId": "g"}}),
          "ValidationException", 400, "Invalid target Arn " + narn + ": a FIFO queue target must have ContentBasedDeduplication enabled.")
    # fires: a standard and a FIFO queue, at() 2 s ahead, DELETE after completion
    due, expr = at_in(2)
    sch.create_schedule(Name="fire-" + suffix, ScheduleExpression=expr, FlexibleTimeWindow=OFF, ActionAfterCompletion="DELETE",
                        Target={"Arn": arn, "RoleArn": ROLE, "Input": "at <aws.scheduler.scheduled-time>"})
    sch.create_schedule(Name="ffire-" + suffix, ScheduleExpression=expr, FlexibleTimeWindow=OFF,
                        Target={"Arn": farn, "RoleArn": ROLE, "Input": "fifo", "SqsParameters": {"MessageGroupId": "g1"}})
    m, arrived = wait_message(url, 3.5)
    assert m["Body"] == "at " + due.strftime("%Y-%m-%dT%H:%M:%SZ"), m["Body"]
    late = arrived - due.timestamp()
    assert late < 1.5, "arrived %.3f s after its due time" % late
    fm, _ = wait_message(furl, 3)
    assert fm["Body"] == "fifo" and fm["Attributes"]["MessageGroupId"] == "g1", fm
    time.sleep(0.5)
    error(lambda: sch.get_schedule(Name="fire-" + suffix), "ResourceNotFoundException", 404)
    assert sch.get_schedule(Name="ffire-" + suffix)["Name"] == "ffire-" + suffix  # NONE: kept after completion
    # delete, and a group's deletion deletes its schedules
    sch.delete_schedule(Name="idem-" + suffix)
    error(lambda: sch.delete_schedule(Name="idem-" + suffix), "ResourceNotFoundException", 404)
    sch.delete_schedule_group(Name=g)
    error(lambda: sch.get_schedule(Name="p1-" + suffix, GroupName=g), "ResourceNotFoundException", 404)
    # an operation no table describes
    req = urllib.request.Request(endpoint + "/schedules/x/y", method="PATCH")
    try:
        urllib.request.urlopen(req)
        raise AssertionError("unknown path answered 200")
    except urllib.error.HTTPError as e:
        assert e.code == 404 and e.headers["x-amzn-ErrorType"] == "UnknownOperationException", (e.code, dict(e.headers))
    print("ok: boto3 %s, fire %.3f s after due" % (boto3.__version__, late))
elif mode == "create-durable":
    url, arn = queue("durable-sch")
    sch.create_schedule_group(Name="durable")
    sch.create_schedule(Name="kept", GroupName="durable", ScheduleExpression="cron(0 9 3 1 ? 2099)",
                        ScheduleExpressionTimezone="Europe/Berlin", FlexibleTimeWindow=OFF, Target={"Arn": arn, "RoleArn": ROLE})
    print("ok: created")
elif mode == "check-durable":
    got = sch.get_schedule(Name="kept", GroupName="durable")
    assert got["ScheduleExpression"] == "cron(0 9 3 1 ? 2099)" and got["ScheduleExpressionTimezone"] == "Europe/Berlin", got
    print("ok: kept")
