import json, gzip, os
import botocore
from botocore.model import ServiceModel
from botocore.parsers import create_parser
from botocore.awsrequest import HeadersDict
path = os.path.join(os.path.dirname(botocore.__file__), 'data/sqs/2012-11-05/service-2.json.gz')
model = ServiceModel(json.load(gzip.open(path)))
om = model.operation_model('GetQueueUrl')
p = create_parser('json')
for e in json.load(open('jsonerrors.json')):
    r = p.parse({'body': e['body'].encode(), 'headers': HeadersDict(e['headers']), 'status_code': e['status']}, om.output_shape)
    print(e['status'], r['Error'])
