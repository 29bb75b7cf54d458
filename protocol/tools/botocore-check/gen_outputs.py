import json, base64
from botocore.model import ServiceModel
model = ServiceModel(json.load(open('/usr/lib/python3/dist-packages/botocore/data/sqs/2012-11-05/service-2.json')))
def sample(shape, name):
    t = shape.type_name
    if t == 'structure':
        return {k: sample(v, k) for k, v in shape.members.items()}
    if t == 'list':
        return [sample(shape.member, name+'i'), sample(shape.member, name+'j')]
    if t == 'map':
        return {name+'K1': sample(shape.value, name+'v1'), name+'K2': sample(shape.value, name+'v2')}
    if t in ('integer', 'long'): return 7
    if t == 'boolean': return True
    if t == 'blob': return base64.b64encode(b'\x00\x01').decode()
    return name + '-v<&>"\r\n\t ' + '\u00e9\U0001F600'
out = {}
for op in model.operation_names:
    om = model.operation_model(op)
    if om.output_shape is not None:
        out[op] = sample(om.output_shape, op)
json.dump(out, open('results.json', 'w'), indent=1)
print(len(out))
