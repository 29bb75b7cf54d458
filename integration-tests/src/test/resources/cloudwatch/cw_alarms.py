"""Drives Hikyaku's custom metrics, metric math and alarms with whichever boto3 runs this script; prints what it got as JSON.

Usage: cw_alarms.py ENDPOINT PREFIX NOW   (NOW: the server clock, epoch seconds; PREFIX makes names unique per run)
Current botocore speaks Smithy RPC v2 CBOR; Debian's older botocore speaks Query.
"""
import datetime
import json
import sys
import time

import boto3
import botocore

endpoint, prefix, now = sys.argv[1], sys.argv[2], int(sys.argv[3])
minute = now - now % 60
kw = dict(endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="test")
cw = boto3.client("cloudwatch", **kw)
out = {"protocol": cw.meta.service_model.protocol}


def t(seconds):
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)


def error(fn, **args):
    try:
        fn(**args)
        return None
    except botocore.exceptions.ClientError as e:
        return {"code": e.response["Error"]["Code"], "message": e.response["Error"]["Message"],
                "status": e.response["ResponseMetadata"]["HTTPStatusCode"]}


ns = prefix + "/Workers"
pool = [{"Name": "Service", "Value": "pool"}]
cw.put_metric_data(Namespace=ns, MetricData=[
    {"MetricName": "RunningWorkers", "Dimensions": pool, "Value": 4, "Unit": "Count", "Timestamp": t(minute + 1)},
    {"MetricName": "Backlog", "Dimensions": pool, "Values": [10, 30], "Counts": [1, 1], "Timestamp": t(minute + 2)},
    {"MetricName": "Latency", "StatisticValues": {"SampleCount": 2, "Sum": 3, "Minimum": 1, "Maximum": 2},
     "Unit": "Seconds", "StorageResolution": 1, "Timestamp": t(minute + 3)}])
stats = cw.get_metric_statistics(Namespace=ns, MetricName="Backlog", Dimensions=pool, StartTime=t(minute),
                                 EndTime=t(minute + 60), Period=60, Statistics=["Sum", "SampleCount", "Maximum"])
out["backlog"] = [{k: v for k, v in p.items() if k != "Timestamp"} for p in stats["Datapoints"]]
out["listed"] = sorted(m["MetricName"] for m in cw.list_metrics(Namespace=ns)["Metrics"])


def stat(i, name, rd=False):
    return {"Id": i, "ReturnData": rd, "MetricStat": {"Metric": {"Namespace": ns, "MetricName": name, "Dimensions": pool},
                                                      "Period": 60, "Stat": "Average"}}


data = cw.get_metric_data(StartTime=t(minute), EndTime=t(minute + 60), MetricDataQueries=[
    stat("m1", "Backlog"), stat("m2", "RunningWorkers"),
    {"Id": "e1", "Expression": "m1 / m2", "Label": "per worker"},
    {"Id": "e2", "Expression": "IF(m2 > 3, SUM(METRICS()), 0)"}])
out["math"] = [{"Id": r["Id"], "Label": r["Label"], "Values": r["Values"]} for r in data["MetricDataResults"]]
out["errFunction"] = error(cw.get_metric_data, StartTime=t(minute), EndTime=t(minute + 60),
                           MetricDataQueries=[{"Id": "e1", "Expression": "RATE(m1)"}])
out["errNamespace"] = error(cw.put_metric_data, Namespace="AWS/SQS", MetricData=[{"MetricName": "x", "Value": 1}])
out["errBoth"] = error(cw.put_metric_data, Namespace=ns, MetricData=[
    {"MetricName": "x", "Value": 1, "StatisticValues": {"SampleCount": 1, "Sum": 1, "Minimum": 1, "Maximum": 1}}])

name = prefix + "-backlog"
cw.put_metric_alarm(AlarmName=name, AlarmDescription="backlog per worker", EvaluationPeriods=2, DatapointsToAlarm=1,
                    Threshold=5, ComparisonOperator="GreaterThanThreshold", TreatMissingData="notBreaching",
                    AlarmActions=["arn:aws:sns:us-east-1:000000000000:nowhere"],
                    Metrics=[stat("m1", "Backlog"), stat("m2", "RunningWorkers"),
                             {"Id": "e1", "Expression": "m1 / m2", "Label": "per worker", "ReturnData": True}],
                    Tags=[{"Key": "team", "Value": "jobs"}])
cw.put_metric_alarm(AlarmName=prefix + "-workers", Namespace=ns, MetricName="RunningWorkers", Dimensions=pool,
                    Statistic="Minimum", Period=60, EvaluationPeriods=1, Threshold=1, ComparisonOperator="LessThanThreshold")
described = cw.describe_alarms(AlarmNamePrefix=prefix + "-")["MetricAlarms"]
out["alarms"] = [{k: a.get(k) for k in ("AlarmName", "StateValue", "StateReason", "EvaluationPeriods", "DatapointsToAlarm",
                                         "Threshold", "ComparisonOperator", "TreatMissingData", "ActionsEnabled",
                                         "AlarmActions", "Statistic", "Period")}
                 | {"Metrics": len(a.get("Metrics", [])), "AlarmArn": a["AlarmArn"]} for a in described]
page = cw.describe_alarms(AlarmNamePrefix=prefix + "-", MaxRecords=1)
out["paged"] = [len(page["MetricAlarms"]), "NextToken" in page]
out["forMetric"] = [a["AlarmName"] for a in cw.describe_alarms_for_metric(Namespace=ns, MetricName="RunningWorkers",
                                                                          Dimensions=pool)["MetricAlarms"]]
cw.set_alarm_state(AlarmName=name, StateValue="ALARM", StateReason="drill")
cw.disable_alarm_actions(AlarmNames=[name])
after = cw.describe_alarms(AlarmNames=[name], StateValue="ALARM")["MetricAlarms"]
out["afterSet"] = [after[0]["StateValue"], after[0]["StateReason"], after[0]["ActionsEnabled"]] if after else None
cw.enable_alarm_actions(AlarmNames=[name])
# the action's outcome is recorded after set_alarm_state answers (the action runs on its own thread): wait for it
deadline = time.monotonic() + 10
while True:
    hist = cw.describe_alarm_history(AlarmName=name)["AlarmHistoryItems"]
    if any(h["HistoryItemType"] == "Action" for h in hist) or time.monotonic() > deadline:
        break
    time.sleep(0.05)
out["history"] = [h["HistoryItemType"] + ": " + h["HistorySummary"] for h in hist]
arn = described[0]["AlarmArn"]
cw.tag_resource(ResourceARN=arn, Tags=[{"Key": "env", "Value": "test"}])
cw.untag_resource(ResourceARN=arn, TagKeys=["team"])
out["tags"] = cw.list_tags_for_resource(ResourceARN=arn)["Tags"]
out["errBand"] = error(cw.put_metric_alarm, AlarmName=prefix + "-band", Namespace=ns, MetricName="Backlog", Statistic="Sum",
                       Period=60, EvaluationPeriods=1, Threshold=1, ComparisonOperator="LessThanLowerOrGreaterThanUpperThreshold")
out["errState"] = error(cw.set_alarm_state, AlarmName=prefix + "-nope", StateValue="OK", StateReason="x")
cw.delete_alarms(AlarmNames=[name, prefix + "-workers"])
out["left"] = len(cw.describe_alarms(AlarmNamePrefix=prefix + "-")["MetricAlarms"])
print(json.dumps(out, default=str))
