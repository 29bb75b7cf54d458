# Writes a Scheduler command log of N PutSchedule commands (rate(1 day) from 2100: nothing fires), 100,000 per account.
# usage: generate-schedule-log.py N FILE
import json, sys
n = int(sys.argv[1]); out = sys.argv[2]
target = json.dumps({"Arn": "arn:aws:sqs:us-east-1:000000000000:q", "RoleArn": "arn:aws:iam::000000000000:role/r", "Input": "x"})
with open(out, "w") as f:
    for i in range(n):
        acct = "%012d" % (i // 100000)
        d = {"group": "default", "name": "s%d" % i, "expression": "rate(1 day)", "timezone": "UTC", "startDate": 4102444800000,
             "endDate": None, "state": "ENABLED", "description": None, "flexibleWindowMinutes": 0, "actionAfterCompletion": "NONE",
             "kmsKeyArn": None, "targetJson": target.replace("000000000000", acct), "clientToken": None}
        f.write(json.dumps({"type": "PutSchedule", "account": acct, "region": None, "create": True, "definition": d, "atMillis": 1796083200000}, separators=(",", ":")) + "\n")
