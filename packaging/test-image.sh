#!/usr/bin/env bash
# The image's end-to-end test (run by ./test): builds the image (the cached root file system and runtime
# make a rebuild cheap), loads the archive into a private podman storage, runs it with a named volume
# and a loopback port, drives it with boto3 (create, send, receive, delete), stops it with SIGTERM
# (exit 143 within a few seconds), starts a second container on the same volume and receives a message
# sent before the stop, runs the HEALTHCHECK, checks the server runs as uid 10001 and the image size;
# then runs packaging/examples/kubernetes.yaml with `podman kube play` the same way (twice, on its volume),
# packaging/examples/compose.yaml with podman-compose (its application sends a message by the service name,
# boto3 receives it), the StatefulSet example (kubernetes-cluster.yaml) as three containers with KEDA's call
# (keda-scaledobject.yaml), and the Testcontainers module's container tests (testcontainers/: HikyakuContainerTest and
# LocalStackDropInTest, Testcontainers' own LocalStackContainer) through podman's Docker-compatible socket.
# Everything it made (containers, volumes, networks, storage, the socket's service) is removed at the end.
# Env: HIKYAKU_IMAGE_TEST_PORT (default 9861, loopback), HIKYAKU_IMAGE_MAX_MB (default 100).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PORT="${HIKYAKU_IMAGE_TEST_PORT:-9861}"
MAX_MB="${HIKYAKU_IMAGE_MAX_MB:-100}"
log() { echo "test-image: $*" >&2; }
fail() { log "FAILED: $*"; exit 1; }
for tool in podman runc python3 podman-compose mvn; do
  command -v "$tool" >/dev/null || fail "$tool is missing (.ci/run installs podman runc catatonit buildah umoci skopeo mmdebstrap podman-compose)"
done
python3 -c 'import boto3' 2>/dev/null || fail "python3 boto3 is missing"

T0=$(date +%s)
D="$(mktemp -d "${TMPDIR:-/tmp}/hikyaku-image-test.XXXXXX")"
PODMAN=(podman --root "$D/storage" --runroot "$D/run" --tmpdir "$D/libpod" --runtime runc
        --cgroup-manager cgroupfs --events-backend file)
# This machine's root lacks CAP_SYS_RESOURCE: podman's default rlimits cannot be set (docs/operations.md).
NOFILE="$(ulimit -Hn)"; [[ "$NOFILE" = unlimited || "$NOFILE" -gt 65536 ]] && NOFILE=65536
RUN_OPTS=(--ulimit "nofile=$NOFILE:$NOFILE" --ulimit nproc=32768:32768)
NAME="hikyaku-image-test-$$"
VOLUME="$NAME-data"
SOCKET_PID=""
# The same storage and run settings for what takes no flags (podman-compose, the socket's service).
cat > "$D/storage.conf" <<EOF
[storage]
driver = "overlay"
graphroot = "$D/storage"
runroot = "$D/run"
EOF
cat > "$D/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=$NOFILE:$NOFILE", "nproc=32768:32768"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
tmp_dir = "$D/libpod"
EOF
cleanup() {
  [[ -n "$SOCKET_PID" ]] && kill "$SOCKET_PID" >/dev/null 2>&1 || true
  "${PODMAN[@]}" rm -f -t 0 "$NAME-1" "$NAME-2" >/dev/null 2>&1 || true
  "${PODMAN[@]}" pod rm -a -f >/dev/null 2>&1 || true
  "${PODMAN[@]}" rm -a -f -t 0 >/dev/null 2>&1 || true
  "${PODMAN[@]}" volume prune -f >/dev/null 2>&1 || true
  "${PODMAN[@]}" network rm -f "$NAME-k8s" >/dev/null 2>&1 || true
  "${PODMAN[@]}" volume rm -f "$VOLUME" >/dev/null 2>&1 || true
  "${PODMAN[@]}" rmi -a -f >/dev/null 2>&1 || true
  "${PODMAN[@]}" system reset -f >/dev/null 2>&1 || true
  umount -R "$D/storage" >/dev/null 2>&1 || true
  rm -rf "$D"
}
trap cleanup EXIT

VERSION="$(unzip -p "$ROOT/server/target/hikyaku.jar" io/hikyaku/server/version.properties 2>/dev/null | sed -n 's/^version=//p' || true)"
ARCHIVE="$D/hikyaku.tar"
B0=$(date +%s)
"$ROOT/packaging/build-image.sh" --output "$ARCHIVE"
BUILD_S=$(( $(date +%s) - B0 ))
VERSION="${VERSION:-$(tar -xOf "$ARCHIVE" manifest.json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["RepoTags"][0].split(":")[1])')}"

"${PODMAN[@]}" load -q -i "$ARCHIVE" >/dev/null
TAGS="$("${PODMAN[@]}" images --format '{{.Repository}}:{{.Tag}}' | sort | tr '\n' ' ')"
[[ "$TAGS" == *"hikyaku:$VERSION"* && "$TAGS" == *"hikyaku:latest"* ]] || fail "tags after load: $TAGS"
SIZE_B="$("${PODMAN[@]}" image inspect hikyaku:latest --format '{{.Size}}')"
SIZE_MB=$(( SIZE_B / 1000000 ))
[[ "$SIZE_MB" -le "$MAX_MB" ]] || fail "image is $SIZE_MB MB, over $MAX_MB MB"
INSPECT="$("${PODMAN[@]}" image inspect hikyaku:latest --format '{{.Config.User}} {{json .Config.Volumes}} {{json .Config.ExposedPorts}}')"
[[ "$INSPECT" == 10001:10001*'"/data"'*'"9324'* ]] || fail "image config: $INSPECT"

start() {  # start <container>: run on the volume, wait until /health/ready answers 200
  # (podman logs that it cannot reach systemd to time health checks: harmless, the test runs them itself)
  "${PODMAN[@]}" run -d --name "$1" "${RUN_OPTS[@]}" -v "$VOLUME:/data" -p "127.0.0.1:$PORT:9324" hikyaku:latest 2>&1 >/dev/null \
    | { grep -v 'unable to get systemd connection' >&2 || true; }
  for _ in $(seq 1 120); do
    if python3 - "$PORT" <<'EOF' 2>/dev/null; then return 0; fi
import sys, urllib.request
urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/health/ready", timeout=1).read()
EOF
    [[ "$("${PODMAN[@]}" inspect -f '{{.State.Running}}' "$1")" = true ]] || break
    sleep 0.5
  done
  "${PODMAN[@]}" logs "$1" >&2 || true
  fail "$1 did not become ready on 127.0.0.1:$PORT"
}
client() {  # client <phase>: boto3 against the container
  python3 - "$PORT" "$1" <<'EOF'
import json, sys, boto3
port, phase = sys.argv[1], sys.argv[2]
sqs = boto3.client("sqs", endpoint_url=f"http://127.0.0.1:{port}", region_name="us-east-1",
                   aws_access_key_id="test", aws_secret_access_key="test")
def receive(url):
    got = sqs.receive_message(QueueUrl=url, WaitTimeSeconds=2, MaxNumberOfMessages=10).get("Messages", [])
    return got
if phase == "first":
    url = sqs.create_queue(QueueName="image-test")["QueueUrl"]
    sqs.send_message(QueueUrl=url, MessageBody="hello")
    got = receive(url)
    assert [m["Body"] for m in got] == ["hello"], got
    sqs.delete_message(QueueUrl=url, ReceiptHandle=got[0]["ReceiptHandle"])
    assert receive(url) == [], "deleted message came back"
    sqs.send_message(QueueUrl=url, MessageBody="kept across containers")
    # the other services inside the jlink'd runtime: SNS (RSA signatures), KMS and SSE-KMS (AES-GCM),
    # the Scheduler (time zones), CloudWatch
    kw = dict(endpoint_url=f"http://127.0.0.1:{port}", region_name="us-east-1",
              aws_access_key_id="test", aws_secret_access_key="test")
    sns, kms = boto3.client("sns", **kw), boto3.client("kms", **kw)
    fan = sqs.create_queue(QueueName="image-fanout")["QueueUrl"]
    fan_arn = sqs.get_queue_attributes(QueueUrl=fan, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    topic = sns.create_topic(Name="image-topic")["TopicArn"]
    sns.subscribe(TopicArn=topic, Protocol="sqs", Endpoint=fan_arn)
    sns.publish(TopicArn=topic, Message="fanned out")
    got = receive(fan)
    envelope = json.loads(got[0]["Body"]) if len(got) == 1 else {}
    assert envelope.get("Message") == "fanned out" and envelope.get("Signature"), got
    key = kms.create_key()["KeyMetadata"]["KeyId"]
    blob = kms.encrypt(KeyId=key, Plaintext=b"secret")["CiphertextBlob"]
    assert kms.decrypt(CiphertextBlob=blob)["Plaintext"] == b"secret"
    sse = sqs.create_queue(QueueName="image-sse-kms", Attributes={"KmsMasterKeyId": key})["QueueUrl"]
    sqs.send_message(QueueUrl=sse, MessageBody="sealed")
    assert [m["Body"] for m in receive(sse)] == ["sealed"]
    sched = boto3.client("scheduler", **kw)
    sched.create_schedule(Name="image-berlin", ScheduleExpression="cron(0 9 3 1 ? *)",
                          ScheduleExpressionTimezone="Europe/Berlin", FlexibleTimeWindow={"Mode": "OFF"},
                          Target={"Arn": fan_arn, "RoleArn": "arn:aws:iam::000000000000:role/scheduler", "Input": "x"})
    assert sched.get_schedule(Name="image-berlin")["ScheduleExpressionTimezone"] == "Europe/Berlin"
    cw = boto3.client("cloudwatch", **kw)
    cw.put_metric_data(Namespace="Image/Test", MetricData=[{"MetricName": "Workers", "Value": 3}])
    assert [m["MetricName"] for m in cw.list_metrics(Namespace="Image/Test")["Metrics"]] == ["Workers"]
else:
    url = sqs.get_queue_url(QueueName="image-test")["QueueUrl"]
    got = receive(url)
    assert [m["Body"] for m in got] == ["kept across containers"], got
    sqs.delete_message(QueueUrl=url, ReceiptHandle=got[0]["ReceiptHandle"])
    # durable on the volume too: the topic, the key and the schedule
    kw = dict(endpoint_url=f"http://127.0.0.1:{port}", region_name="us-east-1",
              aws_access_key_id="test", aws_secret_access_key="test")
    assert any(t["TopicArn"].endswith(":image-topic") for t in boto3.client("sns", **kw).list_topics()["Topics"])
    assert len(boto3.client("kms", **kw).list_keys()["Keys"]) >= 1
    assert boto3.client("scheduler", **kw).get_schedule(Name="image-berlin")["Name"] == "image-berlin"
print(f"test-image: boto3 {phase} container OK", file=sys.stderr)
EOF
}

start "$NAME-1"
client first
HEALTH="$("${PODMAN[@]}" healthcheck run "$NAME-1" 2>&1)" || fail "healthcheck failed: $HEALTH"
STATUS="$("${PODMAN[@]}" inspect -f '{{.State.Health.Status}}' "$NAME-1" 2>/dev/null || "${PODMAN[@]}" inspect -f '{{.State.Healthcheck.Status}}' "$NAME-1")"
[[ "$STATUS" = healthy ]] || fail "health status after the check is '$STATUS' ($HEALTH)"
UIDS="$("${PODMAN[@]}" top "$NAME-1" huser | tail -n +2 | sort -u | tr -d ' ')"
[[ "$UIDS" = 10001 ]] || fail "processes run as '$UIDS', not 10001"
PID1="$("${PODMAN[@]}" exec "$NAME-1" cat /proc/1/cmdline | tr '\0' ' ')"
[[ "$PID1" == /opt/hikyaku/jre/bin/java* ]] || fail "PID 1 is '$PID1', not the JVM"
S0=$(date +%s%N)
"${PODMAN[@]}" stop -t 10 "$NAME-1" >/dev/null
STOP_MS=$(( ($(date +%s%N) - S0) / 1000000 ))
EXIT="$("${PODMAN[@]}" inspect -f '{{.State.ExitCode}}' "$NAME-1")"
[[ "$EXIT" = 143 ]] || { "${PODMAN[@]}" logs "$NAME-1" >&2; fail "exit code after SIGTERM is $EXIT, not 143"; }
[[ "$STOP_MS" -lt 5000 ]] || fail "SIGTERM took $STOP_MS ms"
"${PODMAN[@]}" logs "$NAME-1" 2>&1 | grep -q '^hikyaku stopped' || fail "no 'hikyaku stopped' line after SIGTERM"
"${PODMAN[@]}" rm "$NAME-1" >/dev/null

start "$NAME-2"
client second
"${PODMAN[@]}" stop -t 10 "$NAME-2" >/dev/null
EXIT="$("${PODMAN[@]}" inspect -f '{{.State.ExitCode}}' "$NAME-2")"
[[ "$EXIT" = 143 ]] || fail "second container's exit code is $EXIT"
"${PODMAN[@]}" rm "$NAME-2" >/dev/null

# The Kubernetes example (packaging/examples/kubernetes.yaml) as `podman kube play` runs it: the file as
# shipped plus a loopback hostPort (kube play publishes only host ports); podman's default rlimits
# cannot be set here, so a containers.conf of the test gives the same ulimits as above.
python3 - "$ROOT/packaging/examples/kubernetes.yaml" "$D/kubernetes.yaml" "$PORT" <<'EOF'
import sys
src, dst, port = sys.argv[1:]
text = open(src).read()
anchor = "              containerPort: 9324\n"
assert text.count(anchor) == 1, "the example's container port line changed"
text = text.replace(anchor, anchor + f"              hostPort: {port}\n              hostIP: 127.0.0.1\n")
open(dst, "w").write(text)
# podman 4.3 refuses to play a claim whose volume exists: the second pod is played without it
docs = text.split("\n---\n")
assert "kind: PersistentVolumeClaim" in docs[0]
open(dst.replace(".yaml", "-again.yaml"), "w").write("\n---\n".join(docs[1:]))
EOF
# (run from $D: kube play would build an image from a directory named like it in the working directory)
kube() {
  local out
  out="$(cd "$D" && CONTAINERS_CONF="$D/containers.conf" "${PODMAN[@]}" kube "$@" 2>&1)" \
    || fail "podman kube $*: $(echo "$out" | grep -v 'unable to get systemd connection')"
}
wait_ready() {
  for _ in $(seq 1 120); do
    if python3 - "$PORT" <<'EOF' 2>/dev/null; then return 0; fi
import sys, urllib.request
urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/health/ready", timeout=1).read()
EOF
    sleep 0.5
  done
  "${PODMAN[@]}" ps -a >&2; fail "the Kubernetes example did not become ready on 127.0.0.1:$PORT"
}
kube play "$D/kubernetes.yaml"
wait_ready
client first
K_TOP="$("${PODMAN[@]}" top hikyaku-pod-0-hikyaku huser 2>&1)" || { "${PODMAN[@]}" ps -a >&2; fail "podman top: $K_TOP"; }
K_UIDS="$(echo "$K_TOP" | tail -n +2 | sort -u | tr -d ' ')"
[[ "$K_UIDS" = 10001 ]] || fail "the Kubernetes example runs as '$K_UIDS', not 10001"
kube down "$D/kubernetes.yaml"
kube play "$D/kubernetes-again.yaml"   # the claim's volume outlives the pod
wait_ready
client second
kube down "$D/kubernetes-again.yaml"
log "OK: Kubernetes example (kube play, volume kept across pods)"

# The compose example as shipped, on a loopback host port: the application container sends a message to
# http://hikyaku:9324 (the service name, resolved by aardvark-dns), boto3 on the host receives it.
COMPOSE=(env CONTAINERS_CONF="$D/containers.conf" CONTAINERS_STORAGE_CONF="$D/storage.conf" HIKYAKU_HOST_PORT="$PORT"
         podman-compose -p "$NAME-compose" -f "$ROOT/packaging/examples/compose.yaml")
"${COMPOSE[@]}" up -d > "$D/compose-up.log" 2>&1 || { cat "$D/compose-up.log" >&2; fail "podman-compose up"; }
wait_ready
APP_EXIT=""
for _ in $(seq 1 120); do
  APP_EXIT="$("${PODMAN[@]}" inspect -f '{{.State.Status}} {{.State.ExitCode}}' "$NAME-compose_app_1" 2>/dev/null || true)"
  [[ "$APP_EXIT" == exited* || "$APP_EXIT" == stopped* ]] && break   # podman 4.3 says either
  sleep 0.5
done
[[ "$APP_EXIT" = "exited 0" || "$APP_EXIT" = "stopped 0" ]] || { "${PODMAN[@]}" logs "$NAME-compose_app_1" >&2 || true; fail "the compose example's app: $APP_EXIT"; }
python3 - "$PORT" <<'EOF'
import sys, boto3
sqs = boto3.client("sqs", endpoint_url=f"http://127.0.0.1:{sys.argv[1]}", region_name="us-east-1",
                   aws_access_key_id="test", aws_secret_access_key="test")
url = sqs.get_queue_url(QueueName="orders")["QueueUrl"]
got = sqs.receive_message(QueueUrl=url, WaitTimeSeconds=5).get("Messages", [])
assert [m["Body"] for m in got] == ["order 1 from the app"], got
attrs = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["RedrivePolicy", "VisibilityTimeout"])["Attributes"]
assert "orders-dlq" in attrs["RedrivePolicy"] and attrs["VisibilityTimeout"] == "30", attrs
EOF
"${COMPOSE[@]}" down -v > "$D/compose-down.log" 2>&1 || { cat "$D/compose-down.log" >&2; fail "podman-compose down"; }
log "OK: compose example (the app reached hikyaku by its service name; config file queues)"

# The StatefulSet example (kubernetes-cluster.yaml) as the kubelet would run its three pods, as far as podman can
# without Kubernetes: each pod a container with the template's image, user, env (metadata.name filled in), data
# volume and master-key Secret, on a network where the headless Service's names hikyaku-N.<serviceName> resolve
# (aardvark-dns); then the readiness probe on each, the SQS API through every node, SNS and KMS on the cluster,
# KEDA's call (keda-scaledobject.yaml: GetQueueAttributes of its queueURL) and a SIGKILL of the leader.
python3 - "$ROOT/packaging/examples/kubernetes-cluster.yaml" "$ROOT/packaging/examples/keda-scaledobject.yaml" > "$D/sts.sh" <<'EOF'
import shlex, sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
sts = next(d for d in docs if d["kind"] == "StatefulSet")
headless = next(d for d in docs if d["kind"] == "Service" and d["spec"].get("clusterIP") == "None")
assert sts["spec"]["serviceName"] == headless["metadata"]["name"], "serviceName is not the headless Service"
pod = sts["spec"]["template"]["spec"]
c = pod["containers"][0]
env = []
for e in c["env"]:
    if "value" in e:
        env.append(f'{e["name"]}={e["value"]}')
    else:
        assert e["valueFrom"]["fieldRef"]["fieldPath"] == "metadata.name", e
        env.append(f'{e["name"]}=@POD@')
mounts = {m["name"]: m["mountPath"] for m in c["volumeMounts"]}
secret = next(v for v in pod["volumes"] if "secret" in v)
claim = sts["spec"]["volumeClaimTemplates"][0]["metadata"]["name"]
keda = next(d for d in yaml.safe_load_all(open(sys.argv[2])) if d and d["kind"] == "ScaledObject")
trigger = keda["spec"]["triggers"][0]
assert trigger["type"] == "aws-sqs-queue", trigger
sqs_service = next(d for d in docs if d["kind"] == "Service" and d["spec"].get("clusterIP") != "None")
print(f'STS_NAME={shlex.quote(sts["metadata"]["name"])}')
print(f'STS_REPLICAS={int(sts["spec"]["replicas"])}')
print(f'STS_SERVICE={shlex.quote(headless["metadata"]["name"])}')
print(f'STS_SQS_SERVICE={shlex.quote(sqs_service["metadata"]["name"])}')
print(f'STS_USER={pod["securityContext"]["runAsUser"]}:{pod["securityContext"]["runAsGroup"]}')
print("STS_ENV=(" + " ".join(shlex.quote(x) for x in env) + ")")
print(f'STS_DATA={shlex.quote(mounts[claim])}')
print(f'STS_SECRET_DIR={shlex.quote(mounts[secret["name"]])}')
print(f'STS_READY={shlex.quote(c["readinessProbe"]["httpGet"]["path"])}')
print(f'STS_PORT={int(c["readinessProbe"]["httpGet"]["port"])}')
print(f'KEDA_QUEUE_URL={shlex.quote(trigger["metadata"]["queueURL"])}')
print(f'KEDA_ENDPOINT={shlex.quote(trigger["metadata"]["awsEndpoint"])}')
print(f'KEDA_QUEUE_LENGTH={int(trigger["metadata"]["queueLength"])}')
EOF
# shellcheck disable=SC1091
source "$D/sts.sh"
[[ "$KEDA_ENDPOINT" == "http://$STS_SQS_SERVICE:$STS_PORT" ]] || fail "KEDA's awsEndpoint $KEDA_ENDPOINT is not the Service $STS_SQS_SERVICE:$STS_PORT"
mkdir -p "$D/k8s-secret"
python3 -c 'import secrets; print(secrets.token_hex(32))' > "$D/k8s-secret/master.key"   # the Secret (see the file's comment)
chmod 0755 "$D/k8s-secret"; chmod 0644 "$D/k8s-secret/master.key"                      # a Secret volume's default modes
K8S_NET="$NAME-k8s"
"${PODMAN[@]}" network create "$K8S_NET" >/dev/null
K8S_PORTS=()
for i in $(seq 0 $(( STS_REPLICAS - 1 ))); do
  pod="$STS_NAME-$i"
  args=()
  for e in "${STS_ENV[@]}"; do args+=(-e "${e//@POD@/$pod}"); done
  K8S_PORTS+=($(( PORT + 1 + i )))
  "${PODMAN[@]}" run -d --name "$NAME-$pod" --hostname "$pod" --network "$K8S_NET" \
      --network-alias "$pod.$STS_SERVICE" --network-alias "$STS_SQS_SERVICE" --user "$STS_USER" "${RUN_OPTS[@]}" \
      "${args[@]}" -v "$NAME-$pod-data:$STS_DATA" -v "$D/k8s-secret:$STS_SECRET_DIR:ro" \
      -p "127.0.0.1:${K8S_PORTS[$i]}:$STS_PORT" hikyaku:latest 2>&1 >/dev/null \
    | { grep -v 'unable to get systemd connection' >&2 || true; }
done
k8s_logs() { for i in $(seq 0 $(( STS_REPLICAS - 1 ))); do echo "--- $STS_NAME-$i" >&2; "${PODMAN[@]}" logs "$NAME-$STS_NAME-$i" 2>&1 | tail -n 30 >&2; done; }
python3 - "$STS_READY" "$KEDA_QUEUE_URL" "$KEDA_QUEUE_LENGTH" "${K8S_PORTS[@]}" > "$D/k8s-leader" <<'EOF' || { k8s_logs; fail "the StatefulSet example"; }
import json, math, sys, time, urllib.request, boto3
ready, queue_url, per_worker, ports = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
def get(port, path):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2) as r:
        return r.status, r.read()
deadline = time.time() + 180
for port in ports:   # the readiness probe: a node is ready once the group has a leader
    while True:
        try:
            if get(port, ready)[0] == 200:
                break
        except Exception:
            pass
        assert time.time() < deadline, f"node on {port} never ready"
        time.sleep(0.5)
kw = dict(region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="test")
sqs = [boto3.client("sqs", endpoint_url=f"http://127.0.0.1:{p}", **kw) for p in ports]
name = queue_url.rsplit("/", 1)[1]
url = sqs[1 % len(sqs)].create_queue(QueueName=name)["QueueUrl"]
assert url == queue_url, (url, queue_url)   # HIKYAKU_ADVERTISED_URL is the Service's name, as in KEDA's queueURL
for b in range(3):
    sqs[2 % len(sqs)].send_message_batch(QueueUrl=url, Entries=[{"Id": str(i), "MessageBody": f"order {b}-{i}"} for i in range(10)])
a = sqs[0].get_queue_attributes(QueueUrl=queue_url, AttributeNames=[   # the aws-sqs-queue scaler's call
    "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"])["Attributes"]
depth = int(a["ApproximateNumberOfMessages"]) + int(a["ApproximateNumberOfMessagesNotVisible"])  # scaleOnInFlight
assert depth == 30 and math.ceil(depth / per_worker) == 3, a
kw0 = dict(endpoint_url=f"http://127.0.0.1:{ports[0]}", **kw)
boto3.client("sns", **kw0).create_topic(Name="k8s-cluster-topic")
kms = boto3.client("kms", **kw0)
key = kms.create_key()["KeyMetadata"]["KeyId"]
assert kms.decrypt(CiphertextBlob=kms.encrypt(KeyId=key, Plaintext=b"k8s")["CiphertextBlob"])["Plaintext"] == b"k8s"
leader = json.loads(get(ports[0], "/health")[1])["cluster"]["groups"][0]["leader"]
print(leader)
print(f"test-image: StatefulSet pods ready, 30 messages through three nodes, KEDA depth 30 -> 3 workers, leader {leader}",
      file=sys.stderr)
EOF
LEADER="$(cat "$D/k8s-leader")"
"${PODMAN[@]}" kill "$NAME-$LEADER" >/dev/null   # SIGKILL
SURVIVORS=()
for i in $(seq 0 $(( STS_REPLICAS - 1 ))); do [[ "$STS_NAME-$i" == "$LEADER" ]] || SURVIVORS+=("${K8S_PORTS[$i]}"); done
python3 - "$KEDA_QUEUE_URL" "$LEADER" "${SURVIVORS[@]}" <<'EOF' || { k8s_logs; fail "the StatefulSet example after its leader's SIGKILL"; }
import json, sys, time, urllib.request, boto3
queue_url, dead, ports = sys.argv[1], sys.argv[2], sys.argv[3:]
kw = dict(region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="test")
deadline = time.time() + 120
while True:
    try:
        for p in ports:
            sqs = boto3.client("sqs", endpoint_url=f"http://127.0.0.1:{p}", **kw)
            a = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["ApproximateNumberOfMessages"])["Attributes"]
            assert a["ApproximateNumberOfMessages"] == "30", a
        sns = boto3.client("sns", endpoint_url=f"http://127.0.0.1:{ports[0]}", **kw)
        assert any(t["TopicArn"].endswith(":k8s-cluster-topic") for t in sns.list_topics()["Topics"])
        with urllib.request.urlopen(f"http://127.0.0.1:{ports[0]}/health", timeout=2) as r:
            leader = json.loads(r.read())["cluster"]["groups"][0]["leader"]
        assert leader and leader != dead, leader
        break
    except Exception:
        if time.time() > deadline:
            raise
        time.sleep(0.5)
print(f"test-image: after the SIGKILL of {dead}: leader {leader}, 30 messages and the topic on the survivors", file=sys.stderr)
EOF
for i in $(seq 0 $(( STS_REPLICAS - 1 ))); do
  "${PODMAN[@]}" rm -f -t 0 "$NAME-$STS_NAME-$i" >/dev/null 2>&1 || true
  "${PODMAN[@]}" volume rm -f "$NAME-$STS_NAME-$i-data" >/dev/null 2>&1 || true
done
"${PODMAN[@]}" network rm -f "$K8S_NET" >/dev/null 2>&1 || true
log "OK: StatefulSet example as three containers (readiness, SQS through every node, SNS and KMS, KEDA's depth, leader SIGKILL)"

# The Testcontainers module's container tests, through podman's Docker-compatible socket on this storage
# (docs: ../shared/reference/containers-here.md): Ryuk would need a registry; /.dockerenv makes
# Testcontainers take the bridge gateway for the host, hence the override.
SOCKET="$D/podman.sock"
CONTAINERS_CONF="$D/containers.conf" CONTAINERS_STORAGE_CONF="$D/storage.conf" \
  setsid podman system service --time=0 "unix://$SOCKET" > "$D/socket.log" 2>&1 &
SOCKET_PID=$!
for _ in $(seq 1 50); do [[ -S "$SOCKET" ]] && break; sleep 0.2; done
[[ -S "$SOCKET" ]] || { cat "$D/socket.log" >&2; fail "podman's socket did not start"; }
TC0=$(date +%s)
(cd "$ROOT" && DOCKER_HOST="unix://$SOCKET" TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1 \
  mvn -B -q -ntp -pl testcontainers test -Dhikyaku.skipImageTests=false) > "$D/testcontainers.log" 2>&1 \
  || { tail -n 80 "$D/testcontainers.log" >&2; fail "the Testcontainers module's container tests"; }
for t in HikyakuContainerTest LocalStackDropInTest; do
  grep -q 'tests="1" errors="0" skipped="0" failures="0"' "$ROOT/testcontainers/target/surefire-reports/TEST-io.hikyaku.testcontainers.$t.xml" \
    || fail "$t did not run and pass (see testcontainers/target/surefire-reports)"
done
kill "$SOCKET_PID" && wait "$SOCKET_PID" 2>/dev/null || true
SOCKET_PID=""
log "OK: Testcontainers HikyakuContainerTest and LocalStackDropInTest (LocalStackContainer on hikyaku:latest) in $(( $(date +%s) - TC0 )) s"

log "OK: image $SIZE_MB MB, build ${BUILD_S} s, SIGTERM exit 143 in $STOP_MS ms, total $(( $(date +%s) - T0 )) s"
