"""Drives Hikyaku's CloudWatch API with whichever boto3 runs this script and prints what it got as JSON.

Usage: cw_client.py ENDPOINT QUEUE EMPTY_QUEUE START END   (START/END: epoch seconds)
Current botocore speaks Smithy RPC v2 CBOR; Debian's older botocore speaks Query.
"""
import datetime
import json
import sys

import boto3
import botocore
from botocore.config import Config

endpoint, queue, empty_queue, start, end = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
start_t = datetime.datetime.fromtimestamp(start, datetime.timezone.utc)
end_t = datetime.datetime.fromtimestamp(end, datetime.timezone.utc)
kw = dict(endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="test")
cw = boto3.client("cloudwatch", **kw)
raw = boto3.client("cloudwatch", config=Config(parameter_validation=False), **kw)
out = {"protocol": cw.meta.service_model.protocol, "botocore": botocore.__version__}


def dims(q):
    return [{"Name": "QueueName", "Value": q}]


def points(resp):
    return sorted(({k: (v.timestamp() if k == "Timestamp" else v) for k, v in p.items()} for p in resp["Datapoints"]),
                  key=lambda p: p["Timestamp"])


def stats(metric, q, period=60, statistics=("Sum",)):
    return points(cw.get_metric_statistics(Namespace="AWS/SQS", MetricName=metric, Dimensions=dims(q), StartTime=start_t,
                                           EndTime=end_t, Period=period, Statistics=list(statistics)))


def error(fn, **args):
    try:
        fn(**args)
        return None
    except botocore.exceptions.ClientError as e:
        return {"code": e.response["Error"]["Code"], "message": e.response["Error"]["Message"],
                "status": e.response["ResponseMetadata"]["HTTPStatusCode"]}


all_stats = ("Sum", "Average", "Minimum", "Maximum", "SampleCount")
out["sent"] = stats("NumberOfMessagesSent", queue)
out["sent120"] = stats("NumberOfMessagesSent", queue, 120, all_stats)
out["size"] = stats("SentMessageSize", queue, 60, all_stats)
out["received"] = stats("NumberOfMessagesReceived", queue)
out["deleted"] = stats("NumberOfMessagesDeleted", queue)
out["visible"] = stats("ApproximateNumberOfMessagesVisible", queue, 60, ("Maximum",))
out["notVisible"] = stats("ApproximateNumberOfMessagesNotVisible", queue, 60, ("Maximum",))
out["emptyReceives"] = stats("NumberOfEmptyReceives", empty_queue)
out["otherNamespace"] = points(cw.get_metric_statistics(Namespace="AWS/EC2", MetricName="NumberOfMessagesSent",
                                                         Dimensions=dims(queue), StartTime=start_t, EndTime=end_t,
                                                         Period=60, Statistics=["Sum"]))
data = cw.get_metric_data(StartTime=start_t, EndTime=end_t, ScanBy="TimestampAscending", MetricDataQueries=[
    {"Id": "sent", "MetricStat": {"Metric": {"Namespace": "AWS/SQS", "MetricName": "NumberOfMessagesSent",
                                             "Dimensions": dims(queue)}, "Period": 60, "Stat": "Sum"}},
    {"Id": "visible", "Label": "backlog", "MetricStat": {"Metric": {"Namespace": "AWS/SQS",
                                                                   "MetricName": "ApproximateNumberOfMessagesVisible",
                                                                   "Dimensions": dims(queue)}, "Period": 60, "Stat": "Average"}},
])
out["data"] = [{"Id": r["Id"], "Label": r["Label"], "Timestamps": [t.timestamp() for t in r["Timestamps"]],
                "Values": r["Values"], "StatusCode": r["StatusCode"]} for r in data["MetricDataResults"]]
listed = cw.list_metrics(Namespace="AWS/SQS", Dimensions=[{"Name": "QueueName", "Value": queue}])
out["listed"] = sorted(m["MetricName"] for m in listed["Metrics"])
out["listedSentQueues"] = sorted(m["Dimensions"][0]["Value"] for m in
                                 cw.list_metrics(Namespace="AWS/SQS", MetricName="NumberOfEmptyReceives")["Metrics"])
out["errPeriod"] = error(cw.get_metric_statistics, Namespace="AWS/SQS", MetricName="NumberOfMessagesSent",
                         Dimensions=dims(queue), StartTime=start_t, EndTime=end_t, Period=90, Statistics=["Sum"])
out["errNoStatistics"] = error(cw.get_metric_statistics, Namespace="AWS/SQS", MetricName="NumberOfMessagesSent",
                               Dimensions=dims(queue), StartTime=start_t, EndTime=end_t, Period=60)
out["errRange"] = error(cw.get_metric_statistics, Namespace="AWS/SQS", MetricName="NumberOfMessagesSent",
                        Dimensions=dims(queue), StartTime=end_t, EndTime=start_t, Period=60, Statistics=["Sum"])
out["errMissing"] = error(raw.get_metric_statistics, Namespace="AWS/SQS", StartTime=start_t, EndTime=end_t, Period=60,
                          Statistics=["Sum"])
out["errExpression"] = error(cw.get_metric_data, StartTime=start_t, EndTime=end_t,
                             MetricDataQueries=[{"Id": "e1", "Expression": "PERCENTILE(METRICS())"}])
print(json.dumps(out))
