#!/usr/bin/env python3
"""Drives Hikyaku's event source mapping API with boto3's own `lambda` client and checks every answer.

Usage: lambda_api_boto3.py ENDPOINT QUEUE_ARN SECOND_QUEUE_ARN FIFO_ARN SHORT_VISIBILITY_ARN
Exits non-zero on the first failed check; prints {"checks": [...]} naming every check that passed.
"""
import datetime
import json
import sys
import urllib.error
import urllib.request

import boto3
from botocore.exceptions import ClientError

endpoint, queue, queue2, fifo, short = sys.argv[1:6]
lam = boto3.client("lambda", endpoint_url=endpoint, region_name="us-east-1",
                   aws_access_key_id="test", aws_secret_access_key="test")
checks = []
# Debian's boto3 (1.26) predates ScalingConfig (January 2023): with it, calls that need ScalingConfig are
# sent as raw REST-JSON requests instead, and checked the same way.
SCALING = "ScalingConfig" in lam.meta.service_model.operation_model("CreateEventSourceMapping").input_shape.members


def year_of(timestamp):
    """boto3 parses REST-JSON timestamps (epoch seconds) into datetimes; a raw answer has the number."""
    return timestamp.year if hasattr(timestamp, "year") else datetime.datetime.fromtimestamp(timestamp).year


def raw(method, path, body):
    req = urllib.request.Request(endpoint + path, method=method, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, None, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("x-amzn-ErrorType"), json.loads(e.read() or b"{}")


def check(name, condition, detail=None):
    if not condition:
        raise AssertionError("%s failed: %s" % (name, detail))
    checks.append(name)


def error_of(call, **kwargs):
    try:
        call(**kwargs)
    except ClientError as e:
        return e.response["Error"]["Code"], e.response["Error"]["Message"], e.response["ResponseMetadata"]["HTTPStatusCode"]
    raise AssertionError("expected an error from %s %s" % (call.__name__, kwargs))


pattern = json.dumps({"body": {"kind": ["order"]}})
params = dict(FunctionName="fn-a", EventSourceArn=queue, BatchSize=5, Enabled=True,
              FunctionResponseTypes=["ReportBatchItemFailures"], ScalingConfig={"MaximumConcurrency": 4},
              FilterCriteria={"Filters": [{"Pattern": pattern}]})
if SCALING:
    created = lam.create_event_source_mapping(**params)
    status = created["ResponseMetadata"]["HTTPStatusCode"]
else:
    status, _, created = raw("POST", "/2015-03-31/event-source-mappings/", params)
uuid = created["UUID"]
check("create answers 202 Creating", status == 202 and created["State"] == "Creating", created)
check("create echoes the settings", created["BatchSize"] == 5 and created["MaximumBatchingWindowInSeconds"] == 0
      and created["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
      and created["ScalingConfig"] == {"MaximumConcurrency": 4}
      and created["FilterCriteria"] == {"Filters": [{"Pattern": pattern}]}
      and created["FunctionArn"] == "arn:aws:lambda:us-east-1:000000000000:function:fn-a"
      and created["EventSourceArn"] == queue
      and created["EventSourceMappingArn"] == "arn:aws:lambda:us-east-1:000000000000:event-source-mapping:" + uuid
      and year_of(created["LastModified"]) >= 2024, created)

got = lam.get_event_source_mapping(UUID=uuid)
check("get shows Enabled", got["State"] == "Enabled" and got["StateTransitionReason"] == "USER_INITIATED", got)

listed = lam.list_event_source_mappings(FunctionName="fn-a")["EventSourceMappings"]
check("list by function name", [m["UUID"] for m in listed] == [uuid], listed)
listed = lam.list_event_source_mappings(FunctionName="arn:aws:lambda:us-east-1:000000000000:function:fn-a", EventSourceArn=queue)
check("list by function ARN and queue", [m["UUID"] for m in listed["EventSourceMappings"]] == [uuid], listed)

updated = lam.update_event_source_mapping(UUID=uuid, Enabled=False)
check("disable answers Disabling", updated["ResponseMetadata"]["HTTPStatusCode"] == 202 and updated["State"] == "Disabling", updated)
check("then Disabled", lam.get_event_source_mapping(UUID=uuid)["State"] == "Disabled")
updated = lam.update_event_source_mapping(UUID=uuid, Enabled=True)
check("enable answers Enabling", updated["State"] == "Enabling", updated)

code, message, status = error_of(lam.update_event_source_mapping, UUID=uuid, BatchSize=20)
check("batch over 10 needs a window", code == "InvalidParameterValueException" and status == 400 and message ==
      "Maximum batch window in seconds must be greater than 0 if maximum batch size is greater than 10", message)
if SCALING:
    updated = lam.update_event_source_mapping(UUID=uuid, BatchSize=100, MaximumBatchingWindowInSeconds=5, ScalingConfig={},
                                              FilterCriteria={})
else:
    updated = raw("PUT", "/2015-03-31/event-source-mappings/" + uuid,
                  dict(BatchSize=100, MaximumBatchingWindowInSeconds=5, ScalingConfig={}, FilterCriteria={}))[2]
check("update with a window, clearing scaling and filters", updated["State"] == "Updating" and updated["BatchSize"] == 100
      and updated["MaximumBatchingWindowInSeconds"] == 5 and "ScalingConfig" not in updated and "FilterCriteria" not in updated,
      updated)

code, message, status = error_of(lam.create_event_source_mapping, FunctionName="fn-a", EventSourceArn=queue)
check("a second mapping of the same function and queue conflicts", code == "ResourceConflictException" and status == 409
      and message.endswith("Please update or delete the existing mapping with UUID " + uuid), message)
code, message, status = error_of(lam.create_event_source_mapping, FunctionName="nope", EventSourceArn=queue2)
check("unknown function", code == "ResourceNotFoundException" and status == 404
      and message == "Function not found: arn:aws:lambda:us-east-1:000000000000:function:nope", message)
code, message, status = error_of(lam.create_event_source_mapping, FunctionName="fn-a", EventSourceArn=short)
check("visibility shorter than the function timeout", code == "InvalidParameterValueException"
      and message == "Queue visibility timeout: 2 seconds is less than Function timeout: 5 seconds", message)
code, message, status = error_of(lam.create_event_source_mapping, FunctionName="fn-a", EventSourceArn=fifo,
                                 MaximumBatchingWindowInSeconds=5)
check("no batching window on FIFO", code == "InvalidParameterValueException" and message == "Batching window is not supported for FIFO queues", message)
if SCALING:
    code, message, status = error_of(lam.create_event_source_mapping, FunctionName="fn-a", EventSourceArn=queue2,
                                     ScalingConfig={"MaximumConcurrency": 1001})
else:
    status, code, body = raw("POST", "/2015-03-31/event-source-mappings/",
                             dict(FunctionName="fn-a", EventSourceArn=queue2, ScalingConfig={"MaximumConcurrency": 1001}))
    message = body["message"]
check("maximum concurrency over 1000", code == "ValidationException" and "scalingConfig.maximumConcurrency" in message, message)
code, message, status = error_of(lam.create_event_source_mapping, FunctionName="fn-a", EventSourceArn=queue2,
                                 FilterCriteria={"Filters": [{"Pattern": "{\"body\": \"not a list\"}"}]})
check("invalid filter pattern", code == "InvalidParameterValueException" and message == "Invalid filter pattern definition.", message)
code, message, status = error_of(lam.get_event_source_mapping, UUID="00000000-0000-0000-0000-000000000000")
check("unknown UUID", code == "ResourceNotFoundException" and status == 404 and message == "The resource you requested does not exist.", message)

second = lam.create_event_source_mapping(FunctionName="fn-a", EventSourceArn=queue2, Enabled=False)["UUID"]
third = lam.create_event_source_mapping(FunctionName="fn-b", EventSourceArn=queue2, Enabled=False)["UUID"]
page = lam.list_event_source_mappings(MaxItems=2)
check("paging: first page", len(page["EventSourceMappings"]) == 2 and "NextMarker" in page, page)
rest = lam.list_event_source_mappings(MaxItems=2, Marker=page["NextMarker"])
check("paging: second page", len(rest["EventSourceMappings"]) == 1 and "NextMarker" not in rest, rest)
check("paging covers all", {m["UUID"] for m in page["EventSourceMappings"] + rest["EventSourceMappings"]} == {uuid, second, third})

for u in (uuid, second, third):
    deleted = lam.delete_event_source_mapping(UUID=u)
    check("delete answers 202 Deleting", deleted["ResponseMetadata"]["HTTPStatusCode"] == 202 and deleted["State"] == "Deleting", deleted)
code, message, status = error_of(lam.get_event_source_mapping, UUID=uuid)
check("gone after delete", code == "ResourceNotFoundException", message)

print(json.dumps({"checks": checks}))
