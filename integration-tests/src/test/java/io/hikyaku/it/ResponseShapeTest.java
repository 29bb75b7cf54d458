package io.hikyaku.it;

import static io.hikyaku.it.support.SqsErrors.assertV2Error;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.hikyaku.it.support.Json;
import io.hikyaku.it.support.RawHttp;
import io.hikyaku.it.support.SqsTestBase;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** Response shapes (sqs-behaviours 82-84) and attribute values (85, 86). */
class ResponseShapeTest extends SqsTestBase {

    private JsonNode json(String action, String body) {
        RawHttp.Response r = http.json(action, body);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return Json.parse(r.body());
    }

    @Test
    void b82_jsonBatchResultsLeaveOutAnEmptyList() {
        String url = createQueue(unique("b82"));
        JsonNode sent = json("SendMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":["
                + "{\"Id\":\"a\",\"MessageBody\":\"1\"},{\"Id\":\"b\",\"MessageBody\":\"2\"}]}");
        assertThat(sent.has("Failed")).isFalse();
        assertThat(sent.path("Successful")).hasSize(2);
        JsonNode received = json("ReceiveMessage", "{\"QueueUrl\":\"" + url + "\",\"MaxNumberOfMessages\":10}");
        String h1 = received.path("Messages").get(0).path("ReceiptHandle").asText();
        String h2 = received.path("Messages").get(1).path("ReceiptHandle").asText();
        JsonNode changed = json("ChangeMessageVisibilityBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":["
                + "{\"Id\":\"a\",\"ReceiptHandle\":\"" + h1 + "\",\"VisibilityTimeout\":60}]}");
        assertThat(changed.has("Failed")).isFalse();
        assertThat(changed.path("Successful")).hasSize(1);
        JsonNode deleted = json("DeleteMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":["
                + "{\"Id\":\"a\",\"ReceiptHandle\":\"" + h1 + "\"},{\"Id\":\"b\",\"ReceiptHandle\":\"" + h2 + "\"}]}");
        assertThat(deleted.has("Failed")).isFalse();
        assertThat(deleted.path("Successful")).hasSize(2);
        // all entries failing: no Successful
        JsonNode failed = json("DeleteMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":["
                + "{\"Id\":\"x\",\"ReceiptHandle\":\"INVALID\"}]}");
        assertThat(failed.has("Successful")).isFalse();
        assertThat(failed.path("Failed").get(0).path("Code").asText()).isEqualTo("ReceiptHandleIsInvalid");
        // the SDKs read an absent list as empty
        assertThat(sqs.sendMessageBatch(b -> b.queueUrl(url).entries(e -> e.id("c").messageBody("3"))).failed()).isEmpty();
    }

    @Test
    void b83_anEmptyQueryReceiveHasASelfClosingResult() {
        String url = createQueue(unique("b83"));
        RawHttp.Response r = http.query("/", RawHttp.form("Action", "ReceiveMessage", "QueueUrl", url, "Version", "2012-11-05"));
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body()).contains("<ReceiveMessageResponse").contains("<ReceiveMessageResult/>");
    }

    @Test
    void b84_queryWithAcceptJsonListsMessagesUnderLowerCaseMessagesWithBodiesAsSent() {
        String name = unique("b84");
        String url = createQueue(name);
        String first = "{\"foo\": \"ba\rr\", \"foo2\": \"ba&quot;r&quot;\"}";
        String second = "\"{\\\"foo\\\": \\\"ba\\rr\\\"}\"";
        for (String body : new String[] {first, second}) {
            RawHttp.Response sent = http.query("/", RawHttp.form("Action", "SendMessage", "QueueUrl", url,
                    "MessageBody", body, "Version", "2012-11-05"));
            assertThat(sent.status()).isEqualTo(200);
        }
        RawHttp.Response r = http.get("/?Action=ReceiveMessage&QueueUrl=" + URLEncoder.encode(url, StandardCharsets.UTF_8)
                + "&VisibilityTimeout=0&MaxNumberOfMessages=10&Version=2012-11-05", "Accept", "application/json");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Content-Type")).startsWith("application/json");
        JsonNode messages = Json.parse(r.body()).path("ReceiveMessageResponse").path("ReceiveMessageResult").path("messages");
        assertThat(messages).hasSize(2);
        assertThat(messages.get(0).path("Body").asText()).isEqualTo(first);
        assertThat(messages.get(1).path("Body").asText()).isEqualTo(second);
        // and the same bodies through JSON ReceiveMessage
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages())
                .extracting(m -> m.body()).containsExactly(first, second);
    }

    @Test
    void b85_messageRetentionPeriodIs60To1209600() {
        for (String bad : new String[] {"1", "2", "59", "1209601"}) {
            assertV2Error(() -> createQueue(unique("b85"), Map.of(QueueAttributeName.MESSAGE_RETENTION_PERIOD, bad)),
                    "InvalidAttributeValue", null);
        }
        String url = createQueue(unique("b85"), Map.of(QueueAttributeName.MESSAGE_RETENTION_PERIOD, "60"));
        assertV2Error(() -> sqs.setQueueAttributes(b -> b.queueUrl(url)
                .attributes(Map.of(QueueAttributeName.MESSAGE_RETENTION_PERIOD, "2"))), "InvalidAttributeValue", null);
        sqs.setQueueAttributes(b -> b.queueUrl(url).attributes(Map.of(QueueAttributeName.MESSAGE_RETENTION_PERIOD, "1209600")));
        assertThat(attribute(url, QueueAttributeName.MESSAGE_RETENTION_PERIOD)).isEqualTo("1209600");
    }

    @Test
    void b86_aRedrivePolicyReadsBackAsCompactJsonWithANumericCount() {
        String dlq = unique("b86-dlq");
        createQueue(dlq);
        String spaced = "{ \"deadLetterTargetArn\" : \"" + arn(dlq) + "\", \"maxReceiveCount\" : \"1000\" }";
        String url = createQueue(unique("b86"), Map.of(QueueAttributeName.REDRIVE_POLICY, spaced));
        assertThat(attribute(url, QueueAttributeName.REDRIVE_POLICY))
                .isEqualTo("{\"deadLetterTargetArn\":\"" + arn(dlq) + "\",\"maxReceiveCount\":1000}");
    }
}
