import json, base64
from botocore.model import ServiceModel
from botocore.parsers import QueryParser
model = ServiceModel(json.load(open('/usr/lib/python3/dist-packages/botocore/data/sqs/2012-11-05/service-2.json')))
expected = json.load(open('results.json'))
def norm(v, shape):
    t = shape.type_name
    if t == 'structure': return {k: norm(v[k], shape.members[k]) for k in v}
    if t == 'list': return [norm(x, shape.member) for x in v]
    if t == 'map': return {k: norm(x, shape.value) for k, x in v.items()}
    if t == 'blob': return base64.b64decode(v)
    return v
ok = 0
for op, exp in expected.items():
    om = model.operation_model(op)
    body = open(f'xml/{op}.xml', 'rb').read()
    parsed = QueryParser().parse({'body': body, 'headers': {}, 'status_code': 200}, om.output_shape)
    meta = parsed.pop('ResponseMetadata')
    assert meta['RequestId'] == 'rid', meta
    want = norm(exp, om.output_shape)
    if parsed != want:
        print('MISMATCH', op); print(' got ', parsed); print(' want', want)
    else: ok += 1
print('ok', ok, 'of', len(expected))
om = model.operation_model('GetQueueUrl')
print(QueryParser().parse({'body': open('xml/error.xml','rb').read(), 'headers': {}, 'status_code': 400}, om.output_shape))
