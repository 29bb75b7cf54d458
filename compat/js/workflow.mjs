// AWS SDK for JavaScript v3 compatibility workflow against an SQS endpoint.
// Usage: node workflow.mjs [ENDPOINT]   (defaults to $HIKYAKU_ENDPOINT). Exit code 0 = every assertion held.
// Only the endpoint differs from AWS; the SDK checks body and attribute MD5s itself (middleware-sdk-sqs).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import assert from "node:assert/strict";
import * as sqsLib from "@aws-sdk/client-sqs";

const {
  SQSClient, CreateQueueCommand, GetQueueUrlCommand, GetQueueAttributesCommand, ListQueuesCommand,
  ListDeadLetterSourceQueuesCommand, SendMessageCommand, SendMessageBatchCommand, ReceiveMessageCommand,
  ChangeMessageVisibilityCommand, ChangeMessageVisibilityBatchCommand, DeleteMessageCommand,
  DeleteMessageBatchCommand, StartMessageMoveTaskCommand, ListMessageMoveTasksCommand, TagQueueCommand,
  ListQueueTagsCommand, UntagQueueCommand, DeleteQueueCommand, QueueDoesNotExist, ReceiptHandleIsInvalid,
} = sqsLib;

const endpoint = (process.argv[2] || process.env.HIKYAKU_ENDPOINT || "").replace(/\/$/, "");
if (!endpoint) {
  console.error("usage: node workflow.mjs ENDPOINT (or set HIKYAKU_ENDPOINT)");
  process.exit(2);
}
const sdkVersion = JSON.parse(readFileSync(new URL("./node_modules/@aws-sdk/client-sqs/package.json", import.meta.url)))
  .version;
const client = new SQSClient({
  endpoint, region: "us-east-1",
  credentials: { accessKeyId: process.env.AWS_ACCESS_KEY_ID || "test", secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY || "test" },
});
const send = (command) => client.send(command);
const step = (name) => console.log(`-- ${name}`);

// Record the wire protocol of each request, so the row proves it speaks AWS JSON 1.0.
const contentTypes = new Set();
client.middlewareStack.add((next) => async (args) => {
  contentTypes.add(args.request.headers["content-type"]);
  return next(args);
}, { step: "finalizeRequest", name: "recordContentType" });

const md5 = (data) => createHash("md5").update(data).digest("hex");
function md5OfAttributes(attrs) {
  const hash = createHash("md5");
  const lengthPrefixed = (buf) => { const len = Buffer.alloc(4); len.writeUInt32BE(buf.length); hash.update(len); hash.update(buf); };
  for (const name of Object.keys(attrs).sort()) {
    const { DataType, StringValue, BinaryValue } = attrs[name];
    lengthPrefixed(Buffer.from(name)); lengthPrefixed(Buffer.from(DataType));
    if (DataType.startsWith("Binary")) { hash.update(Buffer.from([2])); lengthPrefixed(Buffer.from(BinaryValue)); }
    else { hash.update(Buffer.from([1])); lengthPrefixed(Buffer.from(StringValue)); }
  }
  return hash.digest("hex");
}
const attrsOf = async (QueueUrl, names = ["All"]) => (await send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: names }))).Attributes;
const receive = async (input) => (await send(new ReceiveMessageCommand({ MessageSystemAttributeNames: ["All"], ...input }))).Messages ?? [];

async function expectError(call, ErrorClass, code, what) {
  try {
    await call();
  } catch (err) {
    assert.ok(err instanceof ErrorClass, `${what}: expected ${ErrorClass.name}, got ${err.name}: ${err.message}`);
    assert.equal(err.Code, code, `${what}: query-compatible error code`);
    assert.equal(err.$metadata.httpStatusCode, 400, `${what}: HTTP status`);
    return err;
  }
  assert.fail(`${what}: expected ${ErrorClass.name}, got success`);
}

async function main() {
  console.log(`@aws-sdk/client-sqs ${sdkVersion} node ${process.version} endpoint ${endpoint}`);
  const suffix = String(Date.now() % 10_000_000);
  const dlqName = `js-dlq-${suffix}`, srcName = `js-src-${suffix}`, fifoName = `js-fifo-${suffix}.fifo`;

  step("create queues (DLQ, standard with RedrivePolicy, FIFO with tags)");
  const dlqUrl = (await send(new CreateQueueCommand({ QueueName: dlqName }))).QueueUrl;
  assert.ok(dlqUrl.endsWith(`/${dlqName}`), `DLQ url ${dlqUrl}`);
  const dlqArn = (await attrsOf(dlqUrl, ["QueueArn"])).QueueArn;
  assert.match(dlqArn, new RegExp(`^arn:aws:sqs:us-east-1:\\d{12}:${dlqName}$`));
  const redrive = JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: "2" });
  const srcUrl = (await send(new CreateQueueCommand({ QueueName: srcName, Attributes: { RedrivePolicy: redrive, VisibilityTimeout: "30" } }))).QueueUrl;
  const fifoUrl = (await send(new CreateQueueCommand({
    QueueName: fifoName, Attributes: { FifoQueue: "true", ContentBasedDeduplication: "true" }, tags: { kind: "fifo" },
  }))).QueueUrl;
  assert.deepEqual([...contentTypes], ["application/x-amz-json-1.0"], "wire protocol is AWS JSON 1.0");
  assert.equal((await send(new GetQueueUrlCommand({ QueueName: srcName }))).QueueUrl, srcUrl, "GetQueueUrl(source)");
  const listed = (await send(new ListQueuesCommand({ QueueNamePrefix: "js-" }))).QueueUrls ?? [];
  for (const url of [dlqUrl, srcUrl, fifoUrl]) assert.ok(listed.includes(url), `ListQueues lists ${url}: ${listed}`);

  step("queue attributes");
  const srcAttrs = await attrsOf(srcUrl);
  assert.equal(srcAttrs.VisibilityTimeout, "30");
  assert.equal(srcAttrs.ApproximateNumberOfMessages, "0");
  const policy = JSON.parse(srcAttrs.RedrivePolicy);
  assert.equal(policy.deadLetterTargetArn, dlqArn, "RedrivePolicy target");
  assert.equal(String(policy.maxReceiveCount), "2", "RedrivePolicy maxReceiveCount");
  assert.equal((await attrsOf(fifoUrl, ["FifoQueue"])).FifoQueue, "true");
  assert.deepEqual((await send(new ListDeadLetterSourceQueuesCommand({ QueueUrl: dlqUrl }))).queueUrls, [srcUrl],
    "ListDeadLetterSourceQueues(DLQ)");

  step("send single message with String, Number and Binary attributes");
  const blob = Uint8Array.from({ length: 256 }, (_, i) => i);
  const singleAttrs = {
    color: { DataType: "String", StringValue: "blue" },
    count: { DataType: "Number", StringValue: "42" },
    blob: { DataType: "Binary", BinaryValue: blob },
  };
  const body = "hello from js \u65e5\u672c";
  const sent = await send(new SendMessageCommand({ QueueUrl: srcUrl, MessageBody: body, MessageAttributes: singleAttrs }));
  assert.equal(sent.MD5OfMessageBody, md5(Buffer.from(body)), "SendMessage MD5OfMessageBody");
  assert.equal(sent.MD5OfMessageAttributes, md5OfAttributes(singleAttrs), "SendMessage MD5OfMessageAttributes");

  step("send batch of 3 with attributes");
  const entries = [0, 1, 2].map((i) => ({
    Id: `m${i}`, MessageBody: `batch-${i}`,
    MessageAttributes: { idx: { DataType: "Number", StringValue: String(i) }, kind: { DataType: "String", StringValue: "batch" } },
  }));
  const batch = await send(new SendMessageBatchCommand({ QueueUrl: srcUrl, Entries: entries }));
  assert.deepEqual(batch.Failed ?? [], [], "SendMessageBatch Failed");
  assert.deepEqual(batch.Successful.map((e) => e.Id).sort(), ["m0", "m1", "m2"]);
  assert.equal((await attrsOf(srcUrl, ["ApproximateNumberOfMessages"])).ApproximateNumberOfMessages, "4");

  step("long-poll receive with All system attributes and selected message attributes");
  const got = new Map();
  for (let i = 0; i < 5 && got.size < 4; i++) {
    for (const m of await receive({ QueueUrl: srcUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 2, MessageAttributeNames: ["color", "count", "kind"] })) {
      got.set(m.Body, m);
    }
  }
  assert.deepEqual([...got.keys()].sort(), ["batch-0", "batch-1", "batch-2", body].sort(), "received bodies");
  const first = got.get(body);
  assert.equal(first.MessageId, sent.MessageId);
  for (const name of ["SenderId", "SentTimestamp", "ApproximateReceiveCount", "ApproximateFirstReceiveTimestamp"]) {
    assert.ok(name in (first.Attributes ?? {}), `system attribute ${name}: ${JSON.stringify(first.Attributes)}`);
  }
  assert.equal(first.Attributes.ApproximateReceiveCount, "1");
  assert.deepEqual(Object.keys(first.MessageAttributes ?? {}).sort(), ["color", "count"], "selected message attributes");
  assert.equal(first.MessageAttributes.count.StringValue, "42");
  for (let i = 0; i < 3; i++) {
    assert.deepEqual(Object.keys(got.get(`batch-${i}`).MessageAttributes ?? {}), ["kind"], `batch-${i} selected attributes`);
  }
  assert.equal((await attrsOf(srcUrl, ["ApproximateNumberOfMessagesNotVisible"])).ApproximateNumberOfMessagesNotVisible, "4");

  step("change visibility (single to 0, batch to 60), receive again with All message attributes");
  await send(new ChangeMessageVisibilityCommand({ QueueUrl: srcUrl, ReceiptHandle: first.ReceiptHandle, VisibilityTimeout: 0 }));
  const cvb = await send(new ChangeMessageVisibilityBatchCommand({
    QueueUrl: srcUrl, Entries: [0, 1, 2].map((i) => ({ Id: `c${i}`, ReceiptHandle: got.get(`batch-${i}`).ReceiptHandle, VisibilityTimeout: 60 })),
  }));
  assert.deepEqual(cvb.Failed ?? [], [], "ChangeMessageVisibilityBatch Failed");
  const again = await receive({ QueueUrl: srcUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 2, MessageAttributeNames: ["All"] });
  assert.deepEqual(again.map((m) => m.Body), [body], "only the released message comes back");
  assert.equal(again[0].Attributes.ApproximateReceiveCount, "2");
  assert.deepEqual(Buffer.from(again[0].MessageAttributes.blob.BinaryValue), Buffer.from(blob), "Binary attribute round trip");
  assert.equal(again[0].MessageAttributes.color.StringValue, "blue");

  step("delete single and batch");
  await send(new DeleteMessageCommand({ QueueUrl: srcUrl, ReceiptHandle: again[0].ReceiptHandle }));
  const del = await send(new DeleteMessageBatchCommand({
    QueueUrl: srcUrl, Entries: [0, 1, 2].map((i) => ({ Id: `d${i}`, ReceiptHandle: got.get(`batch-${i}`).ReceiptHandle })),
  }));
  assert.deepEqual(del.Failed ?? [], [], "DeleteMessageBatch Failed");
  assert.deepEqual(await attrsOf(srcUrl, ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"]),
    { ApproximateNumberOfMessages: "0", ApproximateNumberOfMessagesNotVisible: "0" }, "counts after deletes");

  step("FIFO: ordered delivery and content-based deduplication");
  for (const b of ["f1", "f2"]) await send(new SendMessageCommand({ QueueUrl: fifoUrl, MessageBody: b, MessageGroupId: "g1" }));
  const fb = await send(new SendMessageBatchCommand({ QueueUrl: fifoUrl, Entries: [
    { Id: "e3", MessageBody: "f3", MessageGroupId: "g1" }, { Id: "e4", MessageBody: "f4", MessageGroupId: "g1" }] }));
  assert.deepEqual(fb.Failed ?? [], []);
  assert.ok(fb.Successful.every((e) => e.SequenceNumber), `FIFO batch SequenceNumber: ${JSON.stringify(fb.Successful)}`);
  await send(new SendMessageCommand({ QueueUrl: fifoUrl, MessageBody: "f1", MessageGroupId: "g1" })); // deduplicated
  const fifoBodies = [];
  for (let i = 0; i < 5 && fifoBodies.length < 4; i++) {
    const msgs = await receive({ QueueUrl: fifoUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 });
    for (const m of msgs) {
      fifoBodies.push(m.Body);
      assert.equal(m.Attributes.MessageGroupId, "g1");
      assert.ok(m.Attributes.SequenceNumber, `FIFO SequenceNumber: ${JSON.stringify(m.Attributes)}`);
    }
    if (msgs.length) {
      await send(new DeleteMessageBatchCommand({ QueueUrl: fifoUrl, Entries: msgs.map((m, j) => ({ Id: `x${j}`, ReceiptHandle: m.ReceiptHandle })) }));
    }
  }
  assert.deepEqual(fifoBodies, ["f1", "f2", "f3", "f4"], "FIFO order");
  assert.deepEqual(await receive({ QueueUrl: fifoUrl, WaitTimeSeconds: 1 }), [], "deduplicated FIFO message is not delivered");

  step("poison message reaches the DLQ after maxReceiveCount=2 receives (ChangeMessageVisibility 0)");
  const poisonId = (await send(new SendMessageCommand({ QueueUrl: srcUrl, MessageBody: "poison" }))).MessageId;
  for (let n = 1; n <= 2; n++) {
    const msgs = await receive({ QueueUrl: srcUrl, WaitTimeSeconds: 2 });
    assert.deepEqual(msgs.map((m) => m.MessageId), [poisonId], `poison receive #${n}`);
    assert.equal(msgs[0].Attributes.ApproximateReceiveCount, String(n));
    await send(new ChangeMessageVisibilityCommand({ QueueUrl: srcUrl, ReceiptHandle: msgs[0].ReceiptHandle, VisibilityTimeout: 0 }));
  }
  assert.deepEqual(await receive({ QueueUrl: srcUrl, WaitTimeSeconds: 1 }), [], "poison not delivered a third time");
  const dead = await receive({ QueueUrl: dlqUrl, WaitTimeSeconds: 2, VisibilityTimeout: 0 });
  assert.deepEqual(dead.map((m) => m.MessageId), [poisonId], "poison message is in the DLQ");

  step("redrive with StartMessageMoveTask, poll ListMessageMoveTasks until COMPLETED");
  const srcArn = (await attrsOf(srcUrl, ["QueueArn"])).QueueArn;
  const { TaskHandle } = await send(new StartMessageMoveTaskCommand({ SourceArn: dlqArn, DestinationArn: srcArn }));
  assert.ok(TaskHandle, "TaskHandle");
  let task;
  for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
    task = (await send(new ListMessageMoveTasksCommand({ SourceArn: dlqArn }))).Results?.[0];
    assert.ok(task, "ListMessageMoveTasks returns the task");
    if (["COMPLETED", "FAILED", "CANCELLED"].includes(task.Status)) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  assert.equal(task.Status, "COMPLETED", `move task: ${JSON.stringify(task)}`);
  assert.equal(task.ApproximateNumberOfMessagesMoved, 1);
  const back = await receive({ QueueUrl: srcUrl, WaitTimeSeconds: 2 });
  assert.deepEqual(back.map((m) => m.Body), ["poison"], "redriven message is back in the source");
  await send(new DeleteMessageCommand({ QueueUrl: srcUrl, ReceiptHandle: back[0].ReceiptHandle }));
  assert.equal((await attrsOf(dlqUrl, ["ApproximateNumberOfMessages"])).ApproximateNumberOfMessages, "0");

  step("tags: tag, list, untag");
  assert.deepEqual((await send(new ListQueueTagsCommand({ QueueUrl: fifoUrl }))).Tags, { kind: "fifo" });
  await send(new TagQueueCommand({ QueueUrl: srcUrl, Tags: { team: "compat", env: "ci" } }));
  assert.deepEqual((await send(new ListQueueTagsCommand({ QueueUrl: srcUrl }))).Tags, { team: "compat", env: "ci" });
  await send(new UntagQueueCommand({ QueueUrl: srcUrl, TagKeys: ["env"] }));
  assert.deepEqual((await send(new ListQueueTagsCommand({ QueueUrl: srcUrl }))).Tags, { team: "compat" });

  step("expected errors surface as typed exceptions");
  await expectError(() => send(new GetQueueUrlCommand({ QueueName: `missing-${suffix}` })), QueueDoesNotExist,
    "AWS.SimpleQueueService.NonExistentQueue", "GetQueueUrl of a missing queue");
  await expectError(() => send(new DeleteMessageCommand({ QueueUrl: srcUrl, ReceiptHandle: "garbage" })), ReceiptHandleIsInvalid,
    "ReceiptHandleIsInvalid", "DeleteMessage with a bad handle");

  step("delete queues");
  for (const url of [srcUrl, fifoUrl, dlqUrl]) await send(new DeleteQueueCommand({ QueueUrl: url }));
  await expectError(() => attrsOf(srcUrl), QueueDoesNotExist, "AWS.SimpleQueueService.NonExistentQueue", "GetQueueAttributes of a deleted queue");
  assert.deepEqual([...contentTypes], ["application/x-amz-json-1.0"], "every request used AWS JSON 1.0");
  if (process.env.COMPAT_AUTH === "sigv4") await wrongKeysRefused();
  console.log("OK js workflow passed");
}

// With the server verifying SigV4 (compat/run.sh's sigv4-* rows): the SDK's own signature made with a
// wrong secret, or with a key the server does not know, is refused with AWS's code and status.
async function wrongKeysRefused() {
  step("auth: a wrong secret and an unknown key are refused");
  const refused = async (credentials, code, what) => {
    const bad = new SQSClient({ endpoint, region: "us-east-1", credentials, maxAttempts: 1 });
    try {
      await bad.send(new ListQueuesCommand({}));
    } catch (err) {
      assert.equal(err.name, code, `${what}: error name (${err.message})`);
      assert.equal(err.$metadata.httpStatusCode, 403, `${what}: HTTP status`);
      return;
    } finally {
      bad.destroy();
    }
    assert.fail(`${what}: expected ${code}, got success`);
  };
  await refused({ accessKeyId: process.env.AWS_ACCESS_KEY_ID, secretAccessKey: "wrong-secret" }, "SignatureDoesNotMatch", "wrong secret");
  await refused({ accessKeyId: "AKIANOBODY0000000000", secretAccessKey: "x" }, "InvalidClientTokenId", "unknown key");
}

main().catch((err) => {
  console.error(`FAILED: ${err.stack || err}`);
  process.exit(1);
});
