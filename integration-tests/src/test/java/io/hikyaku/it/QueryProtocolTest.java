package io.hikyaku.it;

import static io.hikyaku.it.support.RawHttp.form;
import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.it.support.Json;
import io.hikyaku.it.support.RawHttp;
import io.hikyaku.it.support.SqsTestBase;
import io.hikyaku.it.support.Xml;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * The Query (form-encoded request, XML response) protocol, by hand. The AWS SDK for Java v1 at the version this
 * build uses (1.12.797) speaks AWS JSON 1.0 to SQS, like v2, so Query is exercised with raw HTTP here
 * (behaviours 1, 3, 21, 45 and 60 over Query, and 70-73, 75).
 */
class QueryProtocolTest extends SqsTestBase {
    static final String NS = "http://queue.amazonaws.com/doc/2012-11-05/";

    private RawHttp.Response call(String path, String... keysAndValues) {
        String[] all = new String[keysAndValues.length + 2];
        all[0] = "Version";
        all[1] = "2012-11-05";
        System.arraycopy(keysAndValues, 0, all, 2, keysAndValues.length);
        return http.query(path, form(all));
    }

    private Xml ok(RawHttp.Response r, String action) {
        assertThat(r.status()).as("status of %s: %s", action, r.body()).isEqualTo(200);
        assertThat(r.header("content-type")).startsWith("text/xml");
        Xml x = Xml.parse(r.body());
        assertThat(x.rootName()).isEqualTo(action + "Response");
        assertThat(x.rootNamespace()).isEqualTo(NS);
        assertThat(x.first("RequestId")).isNotBlank();
        assertThat(r.header("x-amzn-RequestId")).isEqualTo(x.first("RequestId"));
        return x;
    }

    private Xml error(RawHttp.Response r, int status, String code, String message) {
        assertThat(r.status()).as("status: %s", r.body()).isEqualTo(status);
        Xml x = Xml.parse(r.body());
        assertThat(x.rootName()).isEqualTo("ErrorResponse");
        assertThat(x.first("Type")).isEqualTo("Sender");
        assertThat(x.first("Code")).isEqualTo(code);
        if (message != null) {
            assertThat(x.first("Message")).isEqualTo(message);
        }
        assertThat(x.first("RequestId")).isNotBlank();
        assertThat(x.rootNamespace()).isEqualTo(NS);
        assertThat(r.header("x-amzn-RequestId")).isEqualTo(x.first("RequestId"));
        return x;
    }

    private String queryCreateQueue(String name, String... attributesKv) {
        List<String> kv = new ArrayList<>(List.of("Action", "CreateQueue", "QueueName", name));
        for (int i = 0; i < attributesKv.length; i += 2) {
            int n = i / 2 + 1;
            kv.addAll(List.of("Attribute." + n + ".Name", attributesKv[i], "Attribute." + n + ".Value", attributesKv[i + 1]));
        }
        return ok(call("/", kv.toArray(String[]::new)), "CreateQueue").first("QueueUrl");
    }

    private static Map<String, String> nameValues(Xml x, String element) {
        Map<String, String> out = new HashMap<>();
        for (Element e : x.elements(element)) {
            out.put(Xml.child(e, "Name"), Xml.child(e, "Value"));
        }
        return out;
    }

    private static String path(String url) {
        return url.substring(url.indexOf('/', "http://".length()));
    }

    @Test
    void createGetUrlListAndDeleteQueue() {
        String name = unique("qp");
        String url = queryCreateQueue(name, "VisibilityTimeout", "40", "DelaySeconds", "1");
        assertThat(url).isEqualTo(queueUrl(name));
        assertThat(ok(call("/", "Action", "GetQueueUrl", "QueueName", name), "GetQueueUrl").first("QueueUrl")).isEqualTo(url);
        assertThat(ok(call("/", "Action", "ListQueues", "QueueNamePrefix", name), "ListQueues").all("QueueUrl")).containsExactly(url);
        Xml attrs = ok(call("/", "Action", "GetQueueAttributes", "QueueUrl", url, "AttributeName.1", "All"), "GetQueueAttributes");
        assertThat(nameValues(attrs, "Attribute")).containsEntry("VisibilityTimeout", "40").containsEntry("DelaySeconds", "1")
                .containsEntry("QueueArn", arn(name)).containsEntry("SqsManagedSseEnabled", "true");
        ok(call("/", "Action", "SetQueueAttributes", "QueueUrl", url, "Attribute.1.Name", "DelaySeconds", "Attribute.1.Value", "0"),
                "SetQueueAttributes");
        ok(call("/", "Action", "DeleteQueue", "QueueUrl", url), "DeleteQueue");
        error(call("/", "Action", "GetQueueUrl", "QueueName", name), 400, "AWS.SimpleQueueService.NonExistentQueue",
                "The specified queue does not exist for this wsdl version.");
    }

    @Test
    void b1_nonExistentQueueErrorDocument() {
        Xml x = error(call("/", "Action", "GetQueueAttributes", "QueueUrl", queueUrl("qp-missing"), "AttributeName.1", "All"), 400,
                "AWS.SimpleQueueService.NonExistentQueue", "The specified queue does not exist for this wsdl version.");
        assertThat(x.count("Detail")).isEqualTo(1);
    }

    @Test
    void b3_getOnADeletedQueueUrl() {
        String name = unique("qp-del");
        String url = queryCreateQueue(name);
        ok(call("/", "Action", "DeleteQueue", "QueueUrl", url), "DeleteQueue");
        var r = http.get(path(url) + "?Action=GetQueueAttributes&Version=2012-11-05&AttributeName.1=All");
        assertThat(r.status()).isEqualTo(400);
        Xml x = Xml.parse(r.body());
        assertThat(x.first("Code")).isEqualTo("AWS.SimpleQueueService.NonExistentQueue");
        assertThat(x.first("Message")).startsWith("The specified queue does not exist for this wsdl version");
    }

    @Test
    void b21_unknownAttributeName() {
        String url = queryCreateQueue(unique("qp"));
        error(call("/", "Action", "GetQueueAttributes", "QueueUrl", url, "AttributeName.1", "Foobar"), 400,
                "InvalidAttributeName", "Unknown Attribute Foobar.");
    }

    @Test
    void sendAndReceiveWithAttributes() {
        String url = queryCreateQueue(unique("qp-msg"));
        Xml sent = ok(call("/", "Action", "SendMessage", "QueueUrl", url, "MessageBody", "test",
                "MessageAttribute.1.Name", "Foo", "MessageAttribute.1.Value.DataType", "String",
                "MessageAttribute.1.Value.StringValue", "Bar",
                "MessageAttribute.2.Name", "Bin", "MessageAttribute.2.Value.DataType", "Binary",
                "MessageAttribute.2.Value.BinaryValue", "AAEC/w=="), "SendMessage");
        assertThat(sent.first("MD5OfMessageBody")).isEqualTo("098f6bcd4621d373cade4e832627b4f6");
        assertThat(sent.first("MessageId")).isNotBlank();
        String md5Attrs = sent.first("MD5OfMessageAttributes");
        assertThat(md5Attrs).matches("[0-9a-f]{32}");

        Xml got = ok(call("/", "Action", "ReceiveMessage", "QueueUrl", url, "AttributeName.1", "All",
                "MessageAttributeName.1", "All"), "ReceiveMessage");
        assertThat(got.count("Message")).isEqualTo(1);
        assertThat(got.first("Body")).isEqualTo("test");
        assertThat(got.first("MD5OfBody")).isEqualTo("098f6bcd4621d373cade4e832627b4f6");
        assertThat(got.first("MessageId")).isEqualTo(sent.first("MessageId"));
        assertThat(got.first("MD5OfMessageAttributes")).isEqualTo(md5Attrs);
        assertThat(nameValues(got, "Attribute")).containsKeys("SenderId", "SentTimestamp", "ApproximateReceiveCount",
                "ApproximateFirstReceiveTimestamp");
        Map<String, Element> attrs = new HashMap<>();
        for (Element e : got.elements("MessageAttribute")) {
            attrs.put(Xml.child(e, "Name"), e);
        }
        assertThat(attrs).containsOnlyKeys("Foo", "Bin");
        assertThat(Xml.child(attrs.get("Foo"), "StringValue")).isEqualTo("Bar");
        assertThat(Xml.child(attrs.get("Foo"), "DataType")).isEqualTo("String");
        assertThat(Xml.child(attrs.get("Bin"), "BinaryValue")).isEqualTo("AAEC/w==");

        String handle = got.first("ReceiptHandle");
        ok(call("/", "Action", "ChangeMessageVisibility", "QueueUrl", url, "ReceiptHandle", handle, "VisibilityTimeout", "0"),
                "ChangeMessageVisibility");
        ok(call("/", "Action", "DeleteMessage", "QueueUrl", url, "ReceiptHandle", handle), "DeleteMessage");
        Xml empty = ok(call("/", "Action", "ReceiveMessage", "QueueUrl", url), "ReceiveMessage");
        assertThat(empty.count("Message")).isZero();
    }

    @Test
    void actionsPostedToTheQueueUrlPathNeedNoQueueUrlParameter() {
        String url = queryCreateQueue(unique("qp-path"));
        ok(call(path(url), "Action", "SendMessage", "MessageBody", "by path"), "SendMessage");
        Xml got = ok(call(path(url), "Action", "ReceiveMessage"), "ReceiveMessage");
        assertThat(got.first("Body")).isEqualTo("by path");
    }

    @Test
    void b45_overQueryAttributeNamesKeepsOnlyTheNamedAttribute() {
        String url = queryCreateQueue(unique("qp-sys"));
        ok(call("/", "Action", "SendMessage", "QueueUrl", url, "MessageBody", "x"), "SendMessage");
        Xml got = ok(call("/", "Action", "ReceiveMessage", "QueueUrl", url, "MessageSystemAttributeName.1", "All",
                "AttributeName.1", "SenderId"), "ReceiveMessage");
        assertThat(nameValues(got, "Attribute")).containsOnlyKeys("SenderId");
    }

    @Test
    void batchesWithPartialFailure() {
        String url = queryCreateQueue(unique("qp-batch"), "MaximumMessageSize", "1024");
        Xml r = ok(call("/", "Action", "SendMessageBatch", "QueueUrl", url,
                "SendMessageBatchRequestEntry.1.Id", "ok", "SendMessageBatchRequestEntry.1.MessageBody", "msg",
                "SendMessageBatchRequestEntry.2.Id", "big", "SendMessageBatchRequestEntry.2.MessageBody", "x".repeat(1025)),
                "SendMessageBatch");
        assertThat(r.count("SendMessageBatchResultEntry")).isEqualTo(1);
        assertThat(Xml.child(r.elements("SendMessageBatchResultEntry").get(0), "MD5OfMessageBody"))
                .isEqualTo("6e2baaf3b97dbeef01c0043275f9a0e7");
        Element failed = r.elements("BatchResultErrorEntry").get(0);
        assertThat(Xml.child(failed, "Id")).isEqualTo("big");
        assertThat(Xml.child(failed, "Code")).isEqualTo("InvalidParameterValue");
        assertThat(Xml.child(failed, "SenderFault")).isEqualTo("true");
        assertThat(Xml.child(failed, "Message"))
                .isEqualTo("One or more parameters cannot be validated. Reason: Message must be shorter than 1024 bytes.");

        String handle = ok(call("/", "Action", "ReceiveMessage", "QueueUrl", url), "ReceiveMessage").first("ReceiptHandle");
        Xml cmv = ok(call("/", "Action", "ChangeMessageVisibilityBatch", "QueueUrl", url,
                "ChangeMessageVisibilityBatchRequestEntry.1.Id", "a", "ChangeMessageVisibilityBatchRequestEntry.1.ReceiptHandle", handle,
                "ChangeMessageVisibilityBatchRequestEntry.1.VisibilityTimeout", "5"), "ChangeMessageVisibilityBatch");
        assertThat(cmv.all("Id")).containsExactly("a");
        Xml del = ok(call("/", "Action", "DeleteMessageBatch", "QueueUrl", url,
                "DeleteMessageBatchRequestEntry.1.Id", "a", "DeleteMessageBatchRequestEntry.1.ReceiptHandle", handle,
                "DeleteMessageBatchRequestEntry.2.Id", "b", "DeleteMessageBatchRequestEntry.2.ReceiptHandle", "garbage"),
                "DeleteMessageBatch");
        assertThat(del.count("DeleteMessageBatchResultEntry")).isEqualTo(1);
        assertThat(Xml.child(del.elements("BatchResultErrorEntry").get(0), "Code")).isEqualTo("ReceiptHandleIsInvalid");
        error(call("/", "Action", "SendMessageBatch", "QueueUrl", url), 400, "AWS.SimpleQueueService.EmptyBatchRequest",
                "There should be at least one SendMessageBatchRequestEntry in the request.");
    }

    @Test
    void b60_purgeInProgressIs403() {
        String name = unique("qp-purge");
        String url = queryCreateQueue(name);
        ok(call("/", "Action", "PurgeQueue", "QueueUrl", url), "PurgeQueue");
        error(call("/", "Action", "PurgeQueue", "QueueUrl", url), 403, "AWS.SimpleQueueService.PurgeQueueInProgress",
                "Only one PurgeQueue operation on " + name + " is allowed every 60 seconds.");
        advance(Duration.ofSeconds(60));
    }

    @Test
    void tagsPermissionsAndDeadLetterSources() {
        String dlqName = unique("qp-dlq");
        String dlq = queryCreateQueue(dlqName);
        String src = queryCreateQueue(unique("qp-src"), "RedrivePolicy", redrivePolicy(arn(dlqName), 2));
        assertThat(ok(call("/", "Action", "ListDeadLetterSourceQueues", "QueueUrl", dlq), "ListDeadLetterSourceQueues")
                .all("QueueUrl")).containsExactly(src);
        ok(call("/", "Action", "TagQueue", "QueueUrl", src, "Tag.1.Key", "team", "Tag.1.Value", "core"), "TagQueue");
        Xml tags = ok(call("/", "Action", "ListQueueTags", "QueueUrl", src), "ListQueueTags");
        assertThat(tags.elements("Tag")).singleElement().satisfies(t -> {
            assertThat(Xml.child(t, "Key")).isEqualTo("team");
            assertThat(Xml.child(t, "Value")).isEqualTo("core");
        });
        ok(call("/", "Action", "UntagQueue", "QueueUrl", src, "TagKey.1", "team"), "UntagQueue");
        assertThat(ok(call("/", "Action", "ListQueueTags", "QueueUrl", src), "ListQueueTags").count("Tag")).isZero();
        ok(call("/", "Action", "AddPermission", "QueueUrl", src, "Label", "qp", "AWSAccountId.1", "111111111111",
                "ActionName.1", "SendMessage"), "AddPermission");
        error(call("/", "Action", "AddPermission", "QueueUrl", src, "Label", "qp", "AWSAccountId.1", "111111111111",
                "ActionName.1", "SendMessage"), 400, "InvalidParameterValue",
                "Value qp for parameter Label is invalid. Reason: Already exists.");
        ok(call("/", "Action", "RemovePermission", "QueueUrl", src, "Label", "qp"), "RemovePermission");
    }

    @Test
    void b70_unknownAction() {
        error(call("/", "Action", "FooBar"), 400, "InvalidAction", "The action FooBar is not valid for this endpoint.");
    }

    @Test
    void b71_queueLevelGetWithAServiceLevelAction() {
        String url = queryCreateQueue(unique("qp-get"));
        var r = http.get(path(url) + "?Action=CreateQueue&Version=2012-11-05&QueueName=x");
        assertThat(r.status()).isEqualTo(400);
        Xml x = Xml.parse(r.body());
        assertThat(x.first("Code")).isEqualTo("InvalidAction");
        assertThat(x.first("Message")).isEqualTo("The action CreateQueue is not valid for this endpoint.");
        var json = http.get(path(url) + "?Action=ListQueues&Version=2012-11-05", "Accept", "application/json");
        assertThat(json.status()).isEqualTo(400);
        var body = Json.parse(json.body());
        assertThat(body.path("Error").path("Code").asText()).isEqualTo("InvalidAction");
        assertThat(body.path("Error").path("Message").asText()).isEqualTo("The action ListQueues is not valid for this endpoint.");
    }

    @Test
    void b72_getSendMessageWithoutBody() {
        String url = queryCreateQueue(unique("qp-get"));
        var r = http.get(path(url) + "?Action=SendMessage&Version=2012-11-05");
        assertThat(r.status()).isEqualTo(400);
        Xml x = Xml.parse(r.body());
        assertThat(x.first("Code")).isEqualTo("MissingParameter");
        assertThat(x.first("Message")).isEqualTo("The request must contain the parameter MessageBody.");
    }

    @Test
    void b73_getOnAQueueUrlWithoutAction() {
        String url = queryCreateQueue(unique("qp-get"));
        for (String accept : new String[] {"text/xml", "application/json"}) {
            var r = http.get(path(url), "Accept", accept);
            assertThat(r.status()).as("Accept %s", accept).isEqualTo(404);
            assertThat(r.body()).contains("<UnknownOperationException/>");
        }
    }

    @Test
    void b75_getListQueuesWithQueryStringSignature() {
        String name = unique("qp-sig");
        String url = queryCreateQueue(name);
        String date = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC).format(java.time.Instant.now());
        String signed = "/?Action=ListQueues&Version=2012-11-05&QueueNamePrefix=" + name
                + "&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=" + RawHttp.enc("test/" + date.substring(0, 8)
                + "/us-east-1/sqs/aws4_request") + "&X-Amz-Date=" + date + "&X-Amz-Expires=300&X-Amz-SignedHeaders=host"
                + "&X-Amz-Signature=" + "0".repeat(64);
        var xml = http.get(signed);
        assertThat(xml.status()).isEqualTo(200);
        assertThat(xml.body()).contains("<ListQueuesResponse");
        assertThat(Xml.parse(xml.body()).all("QueueUrl")).containsExactly(url);
        var json = http.get(signed, "Accept", "application/json");
        assertThat(json.status()).isEqualTo(200);
        var body = Json.parse(json.body());
        assertThat(body.fieldNames().next()).isEqualTo("ListQueuesResponse");
        assertThat(body.path("ListQueuesResponse").toString()).contains(name);
    }

    @Test
    void bodyWithXmlSpecialCharactersAndCarriageReturnsRoundTrips() {
        String url = queryCreateQueue(unique("qp-xml"));
        String body = "a\r\nb\rc <tag> & \"quoted\" 'single' ]]> \u00e9\u4e16 \uD83D\uDE00\t";
        Xml sent = ok(call("/", "Action", "SendMessage", "QueueUrl", url, "MessageBody", body), "SendMessage");
        assertThat(sent.first("MD5OfMessageBody")).isEqualTo(SendReceiveTest.md5Hex(body));
        Xml got = ok(call("/", "Action", "ReceiveMessage", "QueueUrl", url), "ReceiveMessage");
        // an XML parser turns a raw CR into LF: the server must escape it for the body to survive
        assertThat(got.first("Body")).isEqualTo(body);
        assertThat(got.first("MD5OfBody")).isEqualTo(SendReceiveTest.md5Hex(body));
    }

    @Test
    void aOneMiBBodyFitsEvenPercentEncoded() {
        String url = queryCreateQueue(unique("qp-big"));
        String body = "\u00e9".repeat(524288); // 1 MiB of UTF-8, about 3 MiB once percent-encoded
        Xml sent = ok(call("/", "Action", "SendMessage", "QueueUrl", url, "MessageBody", body), "SendMessage");
        assertThat(sent.first("MD5OfMessageBody")).isEqualTo(SendReceiveTest.md5Hex(body));
        error(call("/", "Action", "SendMessage", "QueueUrl", url, "MessageBody", body + "x"), 400, "InvalidParameterValue",
                "One or more parameters are invalid. Reason: Message must be shorter than 1048576 bytes.");
    }

    @Test
    void longPollOverQueryWakesOnSend() throws Exception {
        String url = queryCreateQueue(unique("qp-lp"));
        var pool = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            var parked = pool.submit(() -> call("/", "Action", "ReceiveMessage", "QueueUrl", url, "WaitTimeSeconds", "2"));
            sleep(300);
            long sentAt = System.nanoTime();
            ok(call("/", "Action", "SendMessage", "QueueUrl", url, "MessageBody", "wake"), "SendMessage");
            Xml got = ok(parked.get(10, java.util.concurrent.TimeUnit.SECONDS), "ReceiveMessage");
            assertThat(got.first("Body")).isEqualTo("wake");
            assertThat((System.nanoTime() - sentAt) / 1_000_000).isLessThan(LongPollTest.WOKEN_WITHIN_MILLIS);
        } finally {
            advance(Duration.ofSeconds(3));
            pool.shutdownNow();
        }
    }

    @Test
    void errorDocumentOfAnInvalidParameterOverQuery() {
        String url = queryCreateQueue(unique("qp-err"));
        Xml x = error(call("/", "Action", "ReceiveMessage", "QueueUrl", url, "MaxNumberOfMessages", "11"), 400,
                "InvalidParameterValue",
                "Value 11 for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided.");
        assertThat(x.rootNamespace()).isEqualTo(NS);
    }

    @Test
    void moveTaskActionsOverQuery() {
        String dlqName = unique("qp-mdlq");
        String dlq = queryCreateQueue(dlqName);
        String srcName = unique("qp-msrc");
        queryCreateQueue(srcName, "RedrivePolicy", redrivePolicy(arn(dlqName), 1));
        ok(call("/", "Action", "SendMessage", "QueueUrl", dlq, "MessageBody", "parked"), "SendMessage");
        Xml started = ok(call("/", "Action", "StartMessageMoveTask", "SourceArn", arn(dlqName), "DestinationArn", arn(srcName),
                "MaxNumberOfMessagesPerSecond", "1"), "StartMessageMoveTask");
        String handle = started.first("TaskHandle");
        assertThat(handle).isNotBlank();
        Xml listed = ok(call("/", "Action", "ListMessageMoveTasks", "SourceArn", arn(dlqName), "MaxResults", "10"),
                "ListMessageMoveTasks");
        assertThat(listed.all("Status")).containsExactly("RUNNING");
        assertThat(listed.first("TaskHandle")).isEqualTo(handle);
        assertThat(listed.first("SourceArn")).isEqualTo(arn(dlqName));
        Xml cancelled = ok(call("/", "Action", "CancelMessageMoveTask", "TaskHandle", handle), "CancelMessageMoveTask");
        assertThat(cancelled.first("ApproximateNumberOfMessagesMoved")).matches("\\d+");
        error(call("/", "Action", "CancelMessageMoveTask", "TaskHandle", "not a handle"), 400, "InvalidParameterValue",
                "Value for parameter TaskHandle is invalid.");
    }
}
