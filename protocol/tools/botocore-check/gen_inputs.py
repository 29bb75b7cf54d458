import json, urllib.parse
from botocore.model import ServiceModel
from botocore.serialize import QuerySerializer
model = ServiceModel(json.load(open('/usr/lib/python3/dist-packages/botocore/data/sqs/2012-11-05/service-2.json')))
ser = QuerySerializer()
def sample(shape, name, depth=0):
    t = shape.type_name
    if t == 'structure':
        return {k: sample(v, k, depth+1) for k, v in shape.members.items()}
    if t == 'list':
        return [sample(shape.member, name+'i', depth+1), sample(shape.member, name+'j', depth+1)]
    if t == 'map':
        return {name+'K1': sample(shape.value, name+'v1', depth+1), name+'K2': sample(shape.value, name+'v2', depth+1)}
    if t in ('integer', 'long'): return 7
    if t == 'boolean': return True
    if t == 'blob': return b'\x00\x01'
    return name + '-v&=+ ' + '\u00e9'
def textify(v, shape):
    t = shape.type_name
    if t == 'structure': return {k: textify(v[k], shape.members[k]) for k in v}
    if t == 'list': return [textify(x, shape.member) for x in v]
    if t == 'map': return {k: textify(x, shape.value) for k, x in v.items()}
    if t == 'boolean': return 'true' if v else 'false'
    if t == 'blob':
        import base64; return base64.b64encode(v).decode()
    return str(v)
out = []
for op in model.operation_names:
    om = model.operation_model(op)
    params = sample(om.input_shape, op)
    req = ser.serialize_to_request(params, om)
    body = req['body']
    if isinstance(body, dict): body = urllib.parse.urlencode(body)
    out.append({'action': op, 'form': body, 'expected': textify(params, om.input_shape)})
json.dump(out, open('../../src/test/resources/botocore-query-inputs.json', 'w'), indent=1)
print(len(out), out[0]['form'][:300])
