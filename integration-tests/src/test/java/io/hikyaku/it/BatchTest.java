package io.hikyaku.it;

import static io.hikyaku.it.support.SqsErrors.assertV1Error;
import static io.hikyaku.it.support.SqsErrors.assertV2Error;
import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;
import com.amazonaws.services.sqs.model.DeleteMessageBatchRequestEntry;
import io.hikyaku.it.support.Json;
import io.hikyaku.it.support.SqsTestBase;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchResponse;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResultEntry;

/** SendMessageBatch, DeleteMessageBatch, ChangeMessageVisibilityBatch (behaviours 51-59). */
class BatchTest extends SqsTestBase {

    private static SendMessageBatchRequestEntry entry(String id, String body) {
        return SendMessageBatchRequestEntry.builder().id(id).messageBody(body).build();
    }

    private static List<SendMessageBatchRequestEntry> entries(int n) {
        return IntStream.range(0, n).mapToObj(i -> entry("e" + i, "body" + i)).toList();
    }

    private List<Message> receiveAll(String url) {
        List<Message> out = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages();
            if (got.isEmpty()) {
                break;
            }
            out.addAll(got);
        }
        return out;
    }

    @Test
    void sendBatchDeliversEveryEntry_v2() {
        String url = createQueue(unique("bt"));
        var attrs = Map.of("Foo", MessageAttributeValue.builder().dataType("String").stringValue("Bar").build());
        SendMessageBatchResponse r = sqs.sendMessageBatch(b -> b.queueUrl(url).entries(
                entry("a", "test"),
                SendMessageBatchRequestEntry.builder().id("b").messageBody("msg").messageAttributes(attrs).build(),
                SendMessageBatchRequestEntry.builder().id("c").messageBody("late").delaySeconds(30).build()));
        assertThat(r.failed()).isEmpty();
        assertThat(r.successful()).extracting(SendMessageBatchResultEntry::id).containsExactlyInAnyOrder("a", "b", "c");
        SendMessageBatchResultEntry a = r.successful().stream().filter(e -> e.id().equals("a")).findFirst().orElseThrow();
        SendMessageBatchResultEntry bEntry = r.successful().stream().filter(e -> e.id().equals("b")).findFirst().orElseThrow();
        assertThat(a.md5OfMessageBody()).isEqualTo("098f6bcd4621d373cade4e832627b4f6");
        assertThat(a.md5OfMessageAttributes()).isNull();
        assertThat(bEntry.md5OfMessageBody()).isEqualTo("6e2baaf3b97dbeef01c0043275f9a0e7");
        assertThat(bEntry.md5OfMessageAttributes()).isEqualTo("ae7155c6026991b6d54b11589678bf9c");
        assertThat(receiveAll(url)).extracting(Message::body).containsExactlyInAnyOrder("test", "msg");
        advance(Duration.ofSeconds(30));
        assertThat(receiveAll(url)).extracting(Message::body).contains("late");
    }

    @Test
    void b51_moreThanTenEntries() {
        String url = createQueue(unique("bt"));
        assertV2Error(() -> sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entries(20))),
                "AWS.SimpleQueueService.TooManyEntriesInBatchRequest", "Maximum number of entries per request are 10. You have sent 20.");
        assertV2Error(() -> sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entries(11))),
                "AWS.SimpleQueueService.TooManyEntriesInBatchRequest", "Maximum number of entries per request are 10. You have sent 11.");
        assertV2Error(() -> sqs.deleteMessageBatch(b -> b.queueUrl(url).entries(IntStream.range(0, 20)
                        .mapToObj(i -> software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry.builder()
                                .id("d" + i).receiptHandle("h").build()).toList())),
                "AWS.SimpleQueueService.TooManyEntriesInBatchRequest", "Maximum number of entries per request are 10. You have sent 20.");
        assertV2Error(() -> sqs.changeMessageVisibilityBatch(b -> b.queueUrl(url).entries(IntStream.range(0, 20)
                        .mapToObj(i -> software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry.builder()
                                .id("c" + i).receiptHandle("h").visibilityTimeout(1).build()).toList())),
                "AWS.SimpleQueueService.TooManyEntriesInBatchRequest", "Maximum number of entries per request are 10. You have sent 20.");
        List<com.amazonaws.services.sqs.model.SendMessageBatchRequestEntry> v1Entries = IntStream.range(0, 20)
                .mapToObj(i -> new com.amazonaws.services.sqs.model.SendMessageBatchRequestEntry("e" + i, "b")).toList();
        assertV1Error(() -> sqsV1.sendMessageBatch(url, v1Entries),
                "AWS.SimpleQueueService.TooManyEntriesInBatchRequest", "Maximum number of entries per request are 10. You have sent 20.");
    }

    @Test
    void b52_invalidBatchEntryIds() {
        String url = createQueue(unique("bt"));
        for (String bad : new String[] {"", "invalid:id", "i".repeat(81), ".!@#$%^&*()+="}) {
            assertV2Error(() -> sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entry(bad, "x"))),
                    "AWS.SimpleQueueService.InvalidBatchEntryId",
                    "A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.");
        }
        assertV2Error(() -> sqs.deleteMessageBatch(b -> b.queueUrl(url).entries(e -> e.id("bad:id").receiptHandle("h"))),
                "AWS.SimpleQueueService.InvalidBatchEntryId",
                "A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.");
        // the longest legal id
        assertThat(sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entry("I-_9".repeat(20), "x"))).successful()).hasSize(1);
    }

    @Test
    void b53_emptyBatch() {
        String url = createQueue(unique("bt"));
        assertV2Error(() -> sqs.sendMessageBatch(b -> b.queueUrl(url).entries(List.of())), "AWS.SimpleQueueService.EmptyBatchRequest",
                "There should be at least one SendMessageBatchRequestEntry in the request.");
        assertV2Error(() -> sqs.deleteMessageBatch(b -> b.queueUrl(url).entries(List.of())), "AWS.SimpleQueueService.EmptyBatchRequest",
                "There should be at least one DeleteMessageBatchRequestEntry in the request.");
        assertV2Error(() -> sqs.changeMessageVisibilityBatch(b -> b.queueUrl(url).entries(List.of())),
                "AWS.SimpleQueueService.EmptyBatchRequest",
                "There should be at least one ChangeMessageVisibilityBatchRequestEntry in the request.");
        var raw = http.json("SendMessageBatch", "{\"QueueUrl\":\"" + url + "\",\"Entries\":[]}");
        assertThat(raw.status()).isEqualTo(400);
        assertThat(raw.header("x-amzn-query-error")).isEqualTo("AWS.SimpleQueueService.EmptyBatchRequest;Sender");
        assertThat(Json.parse(raw.body()).path("__type").asText()).endsWith("EmptyBatchRequest");
    }

    @Test
    void b54_duplicateEntryIds() {
        String url = createQueue(unique("bt"));
        assertV2Error(() -> sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entry("id_1", "a"), entry("id_2", "b"),
                        entry("id_2", "c"), entry("id_1", "d"))),
                "AWS.SimpleQueueService.BatchEntryIdsNotDistinct", "Id id_2 repeated.");
        assertThat(receiveAll(url)).as("nothing of the refused batch was sent").isEmpty();
    }

    @Test
    void b55_batchPayloadOver1MiB() {
        String url = createQueue(unique("bt-big"));
        assertV2Error(() -> sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entry("a", "a".repeat(524288)),
                        entry("b", "b".repeat(524289)))),
                "AWS.SimpleQueueService.BatchRequestTooLong",
                "Batch requests cannot be longer than 1048576 bytes. You have sent 1048577 bytes.");
        // exactly 1 MiB in total is fine
        assertThat(sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entry("a", "a".repeat(524288)),
                entry("b", "b".repeat(524288)))).successful()).hasSize(2);
    }

    @Test
    void b56_oneEntryOverMaximumMessageSizeFailsAlone() {
        String url = createQueue(unique("bt-1k"), Map.of(QueueAttributeName.MAXIMUM_MESSAGE_SIZE, "1024"));
        SendMessageBatchResponse r = sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entry("ok1", "small"),
                entry("big", "x".repeat(1025)), entry("ok2", "y".repeat(1024))));
        assertThat(r.successful()).extracting(SendMessageBatchResultEntry::id).containsExactlyInAnyOrder("ok1", "ok2");
        assertThat(r.failed()).hasSize(1);
        BatchResultErrorEntry f = r.failed().get(0);
        assertThat(f.id()).isEqualTo("big");
        assertThat(f.code()).isEqualTo("InvalidParameterValue");
        assertThat(f.message()).isEqualTo("One or more parameters cannot be validated. Reason: Message must be shorter than 1024 bytes.");
        assertThat(f.senderFault()).isTrue();
        assertThat(receiveAll(url)).hasSize(2);
    }

    @Test
    void b57_oneEntryWithInvalidCharactersFailsAlone() {
        String url = createQueue(unique("bt-chars"));
        List<SendMessageBatchRequestEntry> list = new ArrayList<>(entries(9));
        list.add(entry("bad", "\u0001"));
        SendMessageBatchResponse r = sqs.sendMessageBatch(b -> b.queueUrl(url).entries(list));
        assertThat(r.successful()).hasSize(9);
        assertThat(r.failed()).singleElement().satisfies(f -> {
            assertThat(f.id()).isEqualTo("bad");
            assertThat(f.code()).isEqualTo("InvalidMessageContents");
            assertThat(f.senderFault()).isTrue();
        });
        assertThat(receiveAll(url)).hasSize(9);
    }

    @Test
    void b58_fifoBatchEntryWithoutDeduplicationIdFailsTheWholeRequest() {
        String url = createFifoQueue(uniqueFifo("bt"), Map.of());
        assertV2Error(() -> sqs.sendMessageBatch(b -> b.queueUrl(url).entries(
                        SendMessageBatchRequestEntry.builder().id("a").messageBody("a").messageGroupId("g").messageDeduplicationId("d").build(),
                        SendMessageBatchRequestEntry.builder().id("b").messageBody("b").messageGroupId("g").build())),
                "InvalidParameterValue",
                "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly");
        assertThat(receiveAll(url)).isEmpty();
    }

    @Test
    void b59_fifoBatchEntryWithoutGroupFailsTheWholeRequest() {
        String url = createFifoQueue(uniqueFifo("bt"), Map.of());
        assertV2Error(() -> sqs.sendMessageBatch(b -> b.queueUrl(url).entries(
                        SendMessageBatchRequestEntry.builder().id("a").messageBody("a").messageGroupId("g").messageDeduplicationId("d").build(),
                        SendMessageBatchRequestEntry.builder().id("b").messageBody("b").messageDeduplicationId("e").build())),
                "InvalidParameterValue", "The request must contain the parameter MessageGroupId.");
    }

    @Test
    void fifoBatchKeepsOrderAndNumbersEntries() {
        String url = createFifoQueue(uniqueFifo("bt"), Map.of(QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "true"));
        SendMessageBatchResponse r = sqs.sendMessageBatch(b -> b.queueUrl(url).entries(IntStream.range(0, 5)
                .mapToObj(i -> SendMessageBatchRequestEntry.builder().id("e" + i).messageBody("m" + i).messageGroupId("g").build())
                .toList()));
        assertThat(r.successful()).hasSize(5);
        List<BigInteger> seqs = r.successful().stream().sorted(java.util.Comparator.comparing(SendMessageBatchResultEntry::id))
                .map(e -> new BigInteger(e.sequenceNumber())).toList();
        assertThat(seqs).isSorted().doesNotHaveDuplicates();
        assertThat(receiveAll(url)).extracting(Message::body).containsExactly("m0", "m1", "m2", "m3", "m4");
    }

    @Test
    void deleteBatchWithPartialFailure_v2() {
        String url = createQueue(unique("bt-del"));
        sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entries(2)));
        List<Message> got = receiveAll(url);
        assertThat(got).hasSize(2);
        DeleteMessageBatchResponse r = sqs.deleteMessageBatch(b -> b.queueUrl(url).entries(
                e -> e.id("one").receiptHandle(got.get(0).receiptHandle()),
                e -> e.id("two").receiptHandle(got.get(1).receiptHandle()),
                e -> e.id("bad").receiptHandle("garbage")));
        assertThat(r.successful()).extracting(x -> x.id()).containsExactlyInAnyOrder("one", "two");
        assertThat(r.failed()).singleElement().satisfies(f -> {
            assertThat(f.id()).isEqualTo("bad");
            assertThat(f.code()).isEqualTo("ReceiptHandleIsInvalid");
            assertThat(f.senderFault()).isTrue();
        });
        advance(Duration.ofSeconds(31));
        assertThat(receiveAll(url)).isEmpty();
    }

    @Test
    void changeVisibilityBatchWithPartialFailure_v2() {
        String url = createQueue(unique("bt-cmv"));
        sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entries(2)));
        List<Message> got = receiveAll(url);
        ChangeMessageVisibilityBatchResponse r = sqs.changeMessageVisibilityBatch(b -> b.queueUrl(url).entries(
                e -> e.id("now").receiptHandle(got.get(0).receiptHandle()).visibilityTimeout(0),
                e -> e.id("later").receiptHandle(got.get(1).receiptHandle()).visibilityTimeout(300),
                e -> e.id("bad").receiptHandle("INVALID").visibilityTimeout(0)));
        assertThat(r.successful()).extracting(x -> x.id()).containsExactlyInAnyOrder("now", "later");
        assertThat(r.failed()).singleElement().satisfies(f -> {
            assertThat(f.id()).isEqualTo("bad");
            assertThat(f.code()).isEqualTo("ReceiptHandleIsInvalid");
        });
        assertThat(receiveAll(url)).extracting(Message::body).containsExactly(got.get(0).body());
        advance(Duration.ofSeconds(31));
        assertThat(receiveAll(url)).extracting(Message::body).containsExactly(got.get(0).body());
    }

    @Test
    void allThreeBatchActions_v1() {
        String url = sqsV1.createQueue(unique("bt-v1")).getQueueUrl();
        var sent = sqsV1.sendMessageBatch(url, List.of(
                new com.amazonaws.services.sqs.model.SendMessageBatchRequestEntry("a", "test"),
                new com.amazonaws.services.sqs.model.SendMessageBatchRequestEntry("b", "msg")));
        assertThat(sent.getFailed()).isEmpty();
        assertThat(sent.getSuccessful()).hasSize(2);
        var got = sqsV1.receiveMessage(new com.amazonaws.services.sqs.model.ReceiveMessageRequest(url).withMaxNumberOfMessages(10))
                .getMessages();
        assertThat(got).hasSize(2);
        var cmv = sqsV1.changeMessageVisibilityBatch(url, List.of(
                new ChangeMessageVisibilityBatchRequestEntry("x", got.get(0).getReceiptHandle()).withVisibilityTimeout(0),
                new ChangeMessageVisibilityBatchRequestEntry("y", "INVALID").withVisibilityTimeout(0)));
        assertThat(cmv.getSuccessful()).hasSize(1);
        assertThat(cmv.getFailed()).singleElement().satisfies(f -> assertThat(f.getCode()).isEqualTo("ReceiptHandleIsInvalid"));
        var again = sqsV1.receiveMessage(url).getMessages();
        assertThat(again).hasSize(1);
        var del = sqsV1.deleteMessageBatch(url, List.of(
                new DeleteMessageBatchRequestEntry("p", again.get(0).getReceiptHandle()),
                new DeleteMessageBatchRequestEntry("q", got.get(1).getReceiptHandle())));
        assertThat(del.getSuccessful()).hasSize(2);
        assertThat(del.getFailed()).isEmpty();
        advance(Duration.ofSeconds(31));
        assertThat(sqsV1.receiveMessage(url).getMessages()).isEmpty();
    }


    @Test
    void b55_attributesCountTowardsTheBatchPayload() {
        String url = createQueue(unique("bt-big-attr"));
        // 524288 + len("k") + len("String") + len("v") + 524281 = 1048577
        SendMessageBatchRequestEntry withAttribute = SendMessageBatchRequestEntry.builder().id("a").messageBody("a".repeat(524288))
                .messageAttributes(Map.of("k", MessageAttributeValue.builder().dataType("String").stringValue("v").build())).build();
        assertV2Error(() -> sqs.sendMessageBatch(b -> b.queueUrl(url).entries(withAttribute, entry("b", "b".repeat(524281)))),
                "AWS.SimpleQueueService.BatchRequestTooLong",
                "Batch requests cannot be longer than 1048576 bytes. You have sent 1048577 bytes.");
    }

    @Test
    void b54_duplicateIdsInDeleteAndChangeVisibilityBatches() {
        String url = createQueue(unique("bt-dup"));
        assertV2Error(() -> sqs.deleteMessageBatch(b -> b.queueUrl(url).entries(e -> e.id("x").receiptHandle("h1"),
                e -> e.id("x").receiptHandle("h2"))), "AWS.SimpleQueueService.BatchEntryIdsNotDistinct", "Id x repeated.");
        assertV2Error(() -> sqs.changeMessageVisibilityBatch(b -> b.queueUrl(url).entries(
                        e -> e.id("y").receiptHandle("h1").visibilityTimeout(1), e -> e.id("y").receiptHandle("h2").visibilityTimeout(1))),
                "AWS.SimpleQueueService.BatchEntryIdsNotDistinct", "Id y repeated.");
    }

    @Test
    void sendBatchWithBadEntryDelayFailsOnlyThatEntry() {
        String url = createQueue(unique("bt-delay"));
        SendMessageBatchResponse r = sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entry("ok", "fine"),
                SendMessageBatchRequestEntry.builder().id("late").messageBody("x").delaySeconds(901).build()));
        assertThat(r.successful()).extracting(SendMessageBatchResultEntry::id).containsExactly("ok");
        assertThat(r.failed()).singleElement().satisfies(f -> {
            assertThat(f.id()).isEqualTo("late");
            assertThat(f.code()).isEqualTo("InvalidParameterValue");
            assertThat(f.senderFault()).isTrue();
        });
    }

    @Test
    void changeVisibilityBatchEntryOverTwelveHoursFailsAlone() {
        String url = createQueue(unique("bt-cap"));
        sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entries(2)));
        List<Message> got = receiveAll(url);
        ChangeMessageVisibilityBatchResponse r = sqs.changeMessageVisibilityBatch(b -> b.queueUrl(url).entries(
                e -> e.id("ok").receiptHandle(got.get(0).receiptHandle()).visibilityTimeout(60),
                e -> e.id("toolong").receiptHandle(got.get(1).receiptHandle()).visibilityTimeout(43201)));
        assertThat(r.successful()).extracting(x -> x.id()).containsExactly("ok");
        assertThat(r.failed()).singleElement().satisfies(f -> {
            assertThat(f.id()).isEqualTo("toolong");
            assertThat(f.code()).isEqualTo("InvalidParameterValue");
        });
    }

    @Test
    void sendBatchCarriesTraceHeadersPerEntry() {
        String url = createQueue(unique("bt-trace"));
        var trace = software.amazon.awssdk.services.sqs.model.MessageSystemAttributeValue.builder().dataType("String")
                .stringValue("Root=1-00000000-000000000000000000000001").build();
        sqs.sendMessageBatch(b -> b.queueUrl(url).entries(SendMessageBatchRequestEntry.builder().id("t").messageBody("traced")
                .messageSystemAttributes(Map.of(software.amazon.awssdk.services.sqs.model.MessageSystemAttributeNameForSends.AWS_TRACE_HEADER,
                        trace)).build()));
        Message m = sqs.receiveMessage(b -> b.queueUrl(url).messageSystemAttributeNames(
                software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName.AWS_TRACE_HEADER)).messages().get(0);
        assertThat(m.attributesAsStrings()).containsEntry("AWSTraceHeader", "Root=1-00000000-000000000000000000000001");
    }
}
