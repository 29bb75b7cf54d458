package io.hikyaku.itq;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.sqs.model.ChangeMessageVisibilityRequest;
import com.amazonaws.services.sqs.model.CreateQueueRequest;
import com.amazonaws.services.sqs.model.Message;
import com.amazonaws.services.sqs.model.ReceiveMessageRequest;
import com.amazonaws.services.sqs.model.SendMessageBatchRequestEntry;
import com.amazonaws.services.sqs.model.SendMessageRequest;
import com.amazonaws.services.sqs.model.SetQueueAttributesRequest;
import com.amazonaws.services.sqs.AmazonSQS;
import io.hikyaku.itq.support.QueryTestBase;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * sqs-behaviours 76-86 and 89-91 over Query/XML with the SDK v1 Query client (and raw Query requests
 * where the SDK would not send the input). The clock moves a little between calls, as between real calls.
 */
class BehavioursKToQOverQueryTest extends QueryTestBase {

    private static final Duration STEP = Duration.ofMillis(5);
    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> rawQuery(String form) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(endpoint + "/"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private String fifo(Map<String, String> extra) {
        Map<String, String> a = new HashMap<>(extra);
        a.put("FifoQueue", "true");
        return sqs.createQueue(new CreateQueueRequest(unique("k2q") + ".fifo").withAttributes(a)).getQueueUrl();
    }

    private void send(String url, String body, String group) {
        sqs.sendMessage(new SendMessageRequest(url, body).withMessageGroupId(group).withMessageDeduplicationId(body));
        advance(STEP);
    }

    private List<String> receive(String url, int max, Integer visibility) {
        List<Message> ms = sqs.receiveMessage(new ReceiveMessageRequest(url).withMaxNumberOfMessages(max)
                .withVisibilityTimeout(visibility)).getMessages();
        advance(STEP);
        return ms.stream().map(Message::getBody).toList();
    }

    @Test
    void b76_aBareQueueNameWorksWhereverAQueueUrlIsExpected() {
        String name = unique("dl-queue");
        sqs.createQueue(name);
        assertThat(sqs.sendMessage(name, "Using name instead of URL").getMD5OfMessageBody())
                .isEqualTo("86a83f96652a1bfad3891e7d523750cb");
        sqs.setQueueAttributes(name, Map.of("RedrivePolicy", ""));
        assertThat(sqs.getQueueAttributes(name, List.of("All")).getAttributes())
                .containsEntry("ApproximateNumberOfMessages", "1");
        String fifoName = unique("moto_ab12cd") + ".fifo";
        sqs.createQueue(new CreateQueueRequest(fifoName).withAttributes(Map.of("FifoQueue", "true")));
        assertError(() -> sqs.sendMessage(new SendMessageRequest(fifoName, "m").withMessageGroupId("g")
                        .withMessageDeduplicationId("d").withDelaySeconds(5)), "InvalidParameterValue", 400,
                "Value 5 for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid for this queue type.");
    }

    @Test
    void b76_aBareNameInTheFormBody() throws Exception {
        String name = unique("posting");
        sqs.createQueue(name);
        HttpResponse<String> r = rawQuery("Action=SendMessage&Version=2012-11-05&QueueUrl=" + enc(name)
                + "&MessageBody=" + enc("Using name instead of URL"));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("<MD5OfMessageBody>86a83f96652a1bfad3891e7d523750cb</MD5OfMessageBody>");
    }

    @Test
    void b77_aQueueUrlWithoutAnAccountAndNameIsNonExistentQueue() throws Exception {
        HttpResponse<String> r = rawQuery("Action=GetQueueAttributes&Version=2012-11-05&AttributeName.1=All&QueueUrl="
                + enc("http://whatever-incorrect-queue-address"));
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("<Code>AWS.SimpleQueueService.NonExistentQueue</Code>")
                .contains("<Message>The specified queue does not exist for this wsdl version.</Message>");
    }

    @Test
    void elasticMqQueueUrlsNameTheDefaultAccountsQueue() {
        String name = unique("emq");
        String url = sqs.createQueue(name).getQueueUrl();
        String emqUrl = endpoint + "/queue/" + name;
        sqs.sendMessage(emqUrl, "via /queue/");
        AmazonSQS other = client("111111111111");
        try {
            assertThat(other.receiveMessage(emqUrl).getMessages()).extracting(Message::getBody).containsExactly("via /queue/");
        } finally {
            other.shutdown();
        }
        assertThat(sqs.getQueueAttributes(url, List.of("ApproximateNumberOfMessagesNotVisible")).getAttributes())
                .containsEntry("ApproximateNumberOfMessagesNotVisible", "1");
    }

    @Test
    void b78_aGroupDeliversUpToItsFirstInFlightMessage() {
        String url = fifo(Map.of("VisibilityTimeout", "30"));
        send(url, "g1-m1", "g1");
        send(url, "g1-m2", "g1");
        send(url, "g2-m1", "g2");
        List<Message> got = sqs.receiveMessage(new ReceiveMessageRequest(url).withMaxNumberOfMessages(2)).getMessages();
        assertThat(got).extracting(Message::getBody).containsExactly("g1-m1", "g1-m2");
        advance(STEP);
        sqs.changeMessageVisibility(url, got.get(0).getReceiptHandle(), 0);
        advance(STEP);
        assertThat(receive(url, 3, null)).containsExactly("g2-m1", "g1-m1");
    }

    @Test
    void b79_theThreeRecordedOrderings() {
        String vt0 = fifo(Map.of());
        send(vt0, "g1-m1", "g1");
        send(vt0, "g2-m1", "g2");
        send(vt0, "g2-m2", "g2");
        send(vt0, "g3-m1", "g3");
        send(vt0, "g1-m2", "g1");
        assertThat(receive(vt0, 3, 0)).containsExactly("g1-m1", "g1-m2", "g2-m1");
        assertThat(receive(vt0, 10, 0)).containsExactly("g3-m1", "g1-m1", "g1-m2", "g2-m1", "g2-m2");

        String shared = fifo(Map.of("VisibilityTimeout", "1"));
        for (int i = 1; i <= 4; i++) {
            send(shared, "g1-m" + i, "g1");
        }
        send(shared, "g2-m1", "g2");
        send(shared, "g3-m1", "g3");
        assertThat(receive(shared, 2, null)).containsExactly("g1-m1", "g1-m2");
        assertThat(receive(shared, 1, null)).containsExactly("g2-m1");
        advance(Duration.ofSeconds(2));
        assertThat(receive(shared, 10, 0)).containsExactly("g3-m1", "g1-m1", "g1-m2", "g1-m3", "g1-m4", "g2-m1");

        String del = fifo(Map.of("ContentBasedDeduplication", "true"));
        for (String[] s : new String[][] {{"g1-m1", "g1"}, {"g2-m1", "g2"}, {"g1-m2", "g1"}, {"g2-m2", "g2"},
                {"g1-m2", "g1"}, {"g1-m3", "g1"}, {"g1-m4", "g1"}, {"g3-m1", "g3"}}) {
            sqs.sendMessage(new SendMessageRequest(del, s[0]).withMessageGroupId(s[1]));
            advance(STEP);
        }
        List<Message> got = sqs.receiveMessage(new ReceiveMessageRequest(del).withMaxNumberOfMessages(2)).getMessages();
        assertThat(got).extracting(Message::getBody).containsExactly("g1-m1", "g1-m2");
        got.forEach(m -> sqs.deleteMessage(del, m.getReceiptHandle()));
        advance(STEP);
        assertThat(receive(del, 10, null)).containsExactly("g2-m1", "g2-m2", "g1-m3", "g1-m4", "g3-m1");
    }

    @Test
    void b80_deduplicationStaysQueueWideRightAfterTheScopeChanges() {
        String url = fifo(Map.of("DeduplicationScope", "queue", "ContentBasedDeduplication", "false"));
        sqs.sendMessage(new SendMessageRequest(url, "m1").withMessageGroupId("group1").withMessageDeduplicationId("dedup_1"));
        sqs.setQueueAttributes(new SetQueueAttributesRequest(url, Map.of("DeduplicationScope", "messageGroup",
                "FifoThroughputLimit", "perMessageGroupId")));
        assertThat(sqs.getQueueAttributes(url, List.of("All")).getAttributes())
                .containsEntry("DeduplicationScope", "messageGroup").containsEntry("FifoThroughputLimit", "perMessageGroupId");
        sqs.receiveMessage(url).getMessages().forEach(m -> sqs.deleteMessage(url, m.getReceiptHandle()));
        sqs.sendMessage(new SendMessageRequest(url, "m2").withMessageGroupId("group3").withMessageDeduplicationId("dedup_1"));
        assertThat(sqs.receiveMessage(url).getMessages()).isEmpty();
        sqs.sendMessage(new SendMessageRequest(url, "m3").withMessageGroupId("group4").withMessageDeduplicationId("dedup_2"));
        List<Message> got = sqs.receiveMessage(url).getMessages();
        assertThat(got).extracting(Message::getBody).containsExactly("m3");
        sqs.deleteMessage(url, got.get(0).getReceiptHandle());
        sqs.sendMessage(new SendMessageRequest(url, "m4").withMessageGroupId("group5").withMessageDeduplicationId("dedup_2"));
        assertThat(sqs.receiveMessage(url).getMessages()).isEmpty();
    }

    @Test
    void b81_changeVisibilityAfterExpiryOnAStandardQueue() {
        String url = sqs.createQueue(unique("b81")).getQueueUrl();
        sqs.sendMessage(url, "m");
        Message m = sqs.receiveMessage(new ReceiveMessageRequest(url).withVisibilityTimeout(1)).getMessages().get(0);
        advance(Duration.ofSeconds(2));
        sqs.changeMessageVisibility(new ChangeMessageVisibilityRequest(url, m.getReceiptHandle(), 2));
        assertThat(sqs.receiveMessage(url).getMessages()).isEmpty();
        advance(Duration.ofSeconds(2));
        assertThat(sqs.receiveMessage(url).getMessages()).extracting(Message::getMessageId).containsExactly(m.getMessageId());
    }

    @Test
    void b82_b83_batchesAndAnEmptyReceive() throws Exception {
        String url = sqs.createQueue(unique("b82")).getQueueUrl();
        assertThat(sqs.sendMessageBatch(url, List.of(new SendMessageBatchRequestEntry("a", "1"))).getFailed()).isEmpty();
        List<Message> got = sqs.receiveMessage(url).getMessages();
        assertThat(sqs.deleteMessageBatch(url, List.of(new com.amazonaws.services.sqs.model.DeleteMessageBatchRequestEntry(
                "a", got.get(0).getReceiptHandle()))).getFailed()).isEmpty();
        assertThat(sqs.receiveMessage(url).getMessages()).isEmpty();
        HttpResponse<String> r = rawQuery("Action=ReceiveMessage&Version=2012-11-05&QueueUrl=" + enc(url));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("<ReceiveMessageResult/>");
    }

    @Test
    void b84_acceptJsonGivesMessagesWithBodiesAsSent() throws Exception {
        String url = sqs.createQueue(unique("b84")).getQueueUrl();
        String body = "{\"foo\": \"ba\rr\", \"foo2\": \"ba&quot;r&quot;\"}";
        sqs.sendMessage(url, body);
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(endpoint + "/?Action=ReceiveMessage&QueueUrl="
                + enc(url) + "&VisibilityTimeout=0&Version=2012-11-05")).header("Accept", "application/json").GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        var tree = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.body());
        assertThat(tree.path("ReceiveMessageResponse").path("ReceiveMessageResult").path("messages").get(0)
                .path("Body").asText()).isEqualTo(body);
        assertThat(sqs.receiveMessage(url).getMessages()).extracting(Message::getBody).containsExactly(body);
    }

    @Test
    void b85_b86_retentionRangeAndCompactRedrivePolicy() {
        assertError(() -> sqs.createQueue(new CreateQueueRequest(unique("b85")).withAttributes(
                Map.of("MessageRetentionPeriod", "1"))), "InvalidAttributeValue", 400, null);
        String dlq = unique("b86-dlq");
        sqs.createQueue(dlq);
        String url = sqs.createQueue(new CreateQueueRequest(unique("b86")).withAttributes(Map.of("RedrivePolicy",
                "{\"deadLetterTargetArn\": \"" + arn(dlq) + "\", \"maxReceiveCount\": \"1000\"}"))).getQueueUrl();
        assertThat(sqs.getQueueAttributes(url, List.of("RedrivePolicy")).getAttributes().get("RedrivePolicy"))
                .isEqualTo("{\"deadLetterTargetArn\":\"" + arn(dlq) + "\",\"maxReceiveCount\":1000}");
    }

    @Test
    void b89_b90_b91_tagEdgeCases() {
        String name = unique("tags");
        String url = sqs.createQueue(name).getQueueUrl();
        assertError(() -> sqs.tagQueue(url, Map.of()), "MissingParameter", 400, "The request must contain the parameter Tags.");
        assertError(() -> sqs.untagQueue(url, List.of()), "InvalidParameterValue", 400,
                "Tag keys must be between 1 and 128 characters in length.");
        Map<String, String> fifty = new HashMap<>();
        for (int i = 0; i < 50; i++) {
            fifty.put("k" + i, "v");
        }
        sqs.tagQueue(url, fifty);
        assertError(() -> sqs.tagQueue(url, Map.of("one-more", "v")), "InvalidParameterValue", 400,
                "Too many tags added for queue " + name + ".");
        assertThat(sqs.listQueueTags(url).getTags()).isEqualTo(fifty);
    }
}
