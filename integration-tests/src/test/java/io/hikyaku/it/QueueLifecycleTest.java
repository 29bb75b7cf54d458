package io.hikyaku.it;

import static io.hikyaku.it.support.SqsErrors.assertV1Error;
import static io.hikyaku.it.support.SqsErrors.assertV2Error;
import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.sqs.model.ListQueuesRequest;
import com.amazonaws.services.sqs.model.ListQueuesResult;
import io.hikyaku.it.support.SqsErrors;
import io.hikyaku.it.support.SqsTestBase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.ListQueuesResponse;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;
import software.amazon.awssdk.services.sqs.model.QueueNameExistsException;

/** CreateQueue, GetQueueUrl, DeleteQueue, ListQueues (behaviours 1-2, 4-10). */
class QueueLifecycleTest extends SqsTestBase {
    static final String NON_EXISTENT = "AWS.SimpleQueueService.NonExistentQueue";
    static final String NON_EXISTENT_MSG = "The specified queue does not exist.";

    @Test
    void createQueueReturnsUrlOfAccountAndName_v2() {
        String name = unique("lc");
        String url = createQueue(name);
        assertThat(url).isEqualTo(queueUrl(name));
        assertThat(sqs.getQueueUrl(b -> b.queueName(name)).queueUrl()).isEqualTo(url);
    }

    @Test
    void createQueueReturnsUrlOfAccountAndName_v1() {
        String name = unique("lc1");
        String url = sqsV1.createQueue(name).getQueueUrl();
        assertThat(url).isEqualTo(queueUrl(name));
        assertThat(sqsV1.getQueueUrl(name).getQueueUrl()).isEqualTo(url);
    }

    @Test
    void b1_getQueueUrlOfUnknownQueue_v2() {
        var e = assertV2Error(() -> sqs.getQueueUrl(b -> b.queueName("no-such-queue")),
                NON_EXISTENT, NON_EXISTENT_MSG);
        assertThat(e).isInstanceOf(QueueDoesNotExistException.class);
    }

    @Test
    void b1_getQueueUrlOfUnknownQueue_v1() {
        var e = assertV1Error(() -> sqsV1.getQueueUrl("no-such-queue"), NON_EXISTENT, NON_EXISTENT_MSG);
        assertThat(e).isInstanceOf(com.amazonaws.services.sqs.model.QueueDoesNotExistException.class);
    }

    @Test
    void b1_everyQueueCallOnUnknownQueue_v2() {
        String url = queueUrl("never-created");
        Map<String, SqsErrors.Call> calls = new LinkedHashMap<>();
        calls.put("GetQueueAttributes", () -> sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings("All")));
        calls.put("SetQueueAttributes", () -> sqs.setQueueAttributes(b -> b.queueUrl(url).attributes(Map.of(QueueAttributeName.DELAY_SECONDS, "1"))));
        calls.put("DeleteQueue", () -> sqs.deleteQueue(b -> b.queueUrl(url)));
        calls.put("PurgeQueue", () -> sqs.purgeQueue(b -> b.queueUrl(url)));
        calls.put("SendMessage", () -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("x")));
        calls.put("SendMessageBatch", () -> sqs.sendMessageBatch(b -> b.queueUrl(url).entries(e -> e.id("a").messageBody("x"))));
        calls.put("ReceiveMessage", () -> sqs.receiveMessage(b -> b.queueUrl(url)));
        calls.put("DeleteMessage", () -> sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle("whatever")));
        calls.put("ListQueueTags", () -> sqs.listQueueTags(b -> b.queueUrl(url)));
        calls.put("TagQueue", () -> sqs.tagQueue(b -> b.queueUrl(url).tags(Map.of("k", "v"))));
        calls.put("UntagQueue", () -> sqs.untagQueue(b -> b.queueUrl(url).tagKeys("k")));
        calls.put("ListDeadLetterSourceQueues", () -> sqs.listDeadLetterSourceQueues(b -> b.queueUrl(url)));
        calls.put("AddPermission", () -> sqs.addPermission(b -> b.queueUrl(url).label("l").awsAccountIds("111111111111").actions("SendMessage")));
        calls.put("RemovePermission", () -> sqs.removePermission(b -> b.queueUrl(url).label("l")));
        calls.forEach((action, call) -> {
            var e = SqsErrors.v2Error(call);
            assertThat(e.awsErrorDetails().errorCode()).as(action).isEqualTo(NON_EXISTENT);
            assertThat(e.statusCode()).as(action).isEqualTo(400);
            assertThat(e.awsErrorDetails().errorMessage()).as(action).isEqualTo(NON_EXISTENT_MSG);
        });
    }

    @Test
    void b1_queueDoesNotExistHeadersOnTheWire() {
        var r = http.json("GetQueueUrl", "{\"QueueName\":\"no-such-queue-raw\"}");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.header("x-amzn-query-error")).isEqualTo(NON_EXISTENT + ";Sender");
        var body = io.hikyaku.it.support.Json.parse(r.body());
        assertThat(body.path("__type").asText()).endsWith("QueueDoesNotExist");
        assertThat(body.path("message").asText()).isEqualTo(NON_EXISTENT_MSG);
    }

    @Test
    void b2_queueIsFoundByAccountAndNameInThePathWhateverTheHost() {
        String name = unique("lc-host");
        createQueue(name);
        sqs.sendMessage(b -> b.queueUrl("https://sqs.us-east-1.amazonaws.com/" + ACCOUNT + "/" + name).messageBody("via aws host"));
        var got = sqs.receiveMessage(b -> b.queueUrl("https://queue.amazonaws.com/" + ACCOUNT + "/" + name));
        assertThat(got.messages()).extracting(m -> m.body()).containsExactly("via aws host");
        assertV2Error(() -> sqs.getQueueAttributes(b -> b.queueUrl("https://queue.amazonaws.com/" + ACCOUNT + "/unknown")
                .attributeNamesWithStrings("All")), NON_EXISTENT, NON_EXISTENT_MSG);
    }

    @Test
    void b4_recreateWithin60sOfDeleteIsRefused_v2() {
        String name = unique("lc-del");
        String url = createQueue(name);
        sqs.deleteQueue(b -> b.queueUrl(url));
        assertV2Error(() -> sqs.getQueueUrl(b -> b.queueName(name)), NON_EXISTENT, NON_EXISTENT_MSG);
        advance(Duration.ofSeconds(30));
        assertV2Error(() -> createQueue(name), "AWS.SimpleQueueService.QueueDeletedRecently",
                "You must wait 60 seconds after deleting a queue before you can create another with the same name.");
        advance(Duration.ofSeconds(31));
        assertThat(createQueue(name)).isEqualTo(url);
        assertThat(sqs.receiveMessage(b -> b.queueUrl(url)).messages()).isEmpty();
    }

    @Test
    void b4_recreateWithin60sOfDeleteIsRefused_v1() {
        String name = unique("lc-del1");
        String url = sqsV1.createQueue(name).getQueueUrl();
        sqsV1.deleteQueue(url);
        assertV1Error(() -> sqsV1.createQueue(name), "AWS.SimpleQueueService.QueueDeletedRecently",
                "You must wait 60 seconds after deleting a queue before you can create another with the same name.");
        advance(Duration.ofSeconds(61));
        assertThat(sqsV1.createQueue(name).getQueueUrl()).isEqualTo(url);
    }

    @Test
    void deletedQueueIsGoneFromListAndCalls() {
        String name = unique("lc-gone");
        String url = createQueue(name);
        sqs.sendMessage(b -> b.queueUrl(url).messageBody("lost"));
        sqs.deleteQueue(b -> b.queueUrl(url));
        assertThat(sqs.listQueues(b -> b.queueNamePrefix(name)).queueUrls()).isEmpty();
        assertV2Error(() -> sqs.receiveMessage(b -> b.queueUrl(url)), NON_EXISTENT, NON_EXISTENT_MSG);
        assertV2Error(() -> sqs.deleteQueue(b -> b.queueUrl(url)), NON_EXISTENT, NON_EXISTENT_MSG);
    }

    @Test
    void b5_sameNameDifferentAttributeValue_v2() {
        String name = unique("lc-exists");
        createQueue(name, Map.of(QueueAttributeName.DELAY_SECONDS, "1"));
        var e = assertV2Error(() -> createQueue(name, Map.of(QueueAttributeName.DELAY_SECONDS, "2")), "QueueAlreadyExists",
                "A queue already exists with the same name and a different value for attribute DelaySeconds");
        assertThat(e).isInstanceOf(QueueNameExistsException.class);
    }

    @Test
    void b5_sameNameDifferentAttributeValue_v1() {
        String name = unique("lc-exists1");
        sqsV1.createQueue(new com.amazonaws.services.sqs.model.CreateQueueRequest(name).addAttributesEntry("DelaySeconds", "1"));
        assertV1Error(() -> sqsV1.createQueue(new com.amazonaws.services.sqs.model.CreateQueueRequest(name)
                        .addAttributesEntry("DelaySeconds", "2")), "QueueAlreadyExists",
                "A queue already exists with the same name and a different value for attribute DelaySeconds");
    }

    @Test
    void b6_fifoSameNameDifferentContentBasedDeduplication() {
        String name = uniqueFifo("lc-exists");
        createFifoQueue(name, Map.of(QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "true"));
        assertV2Error(() -> createFifoQueue(name, Map.of(QueueAttributeName.CONTENT_BASED_DEDUPLICATION, "false")),
                "QueueAlreadyExists",
                "A queue already exists with the same name and a different value for attribute ContentBasedDeduplication");
    }

    @Test
    void b7_createIsIdempotentWithSameOrNoAttributes() {
        String name = unique("lc-idem");
        String url = createQueue(name, Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "7"));
        assertThat(createQueue(name, Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "7"))).isEqualTo(url);
        assertThat(createQueue(name)).isEqualTo(url);
        assertThat(sqsV1.createQueue(name).getQueueUrl()).isEqualTo(url);
        assertThat(attribute(url, QueueAttributeName.VISIBILITY_TIMEOUT)).isEqualTo("7");
    }

    @Test
    void b8_createComparesAgainstCurrentAttributes() {
        String name = unique("lc-current");
        String url = createQueue(name, Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "1"));
        sqs.setQueueAttributes(b -> b.queueUrl(url).attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "2")));
        assertV2Error(() -> createQueue(name, Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "1")), "QueueAlreadyExists",
                "A queue already exists with the same name and a different value for attribute VisibilityTimeout");
        assertThat(createQueue(name, Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "2"))).isEqualTo(url);
        assertThat(createQueue(name)).isEqualTo(url);
    }

    @Test
    void b9_fifoAttributeWithoutFifoSuffix() {
        assertV2Error(() -> createQueue(unique("lc-nofifo"), Map.of(QueueAttributeName.FIFO_QUEUE, "true")),
                "InvalidParameterValue", null);
    }

    @Test
    void b10_standardQueueNamedDotFifo() {
        assertV2Error(() -> createQueue(uniqueFifo("lc-std")), "InvalidParameterValue", null);
        assertV1Error(() -> sqsV1.createQueue(uniqueFifo("lc-std1")), "InvalidParameterValue", null);
    }

    @Test
    void invalidQueueNamesAreRefused() {
        assertV2Error(() -> createQueue("has space"), "InvalidParameterValue", null);
        assertV2Error(() -> createQueue("bad!char"), "InvalidParameterValue", null);
        assertV2Error(() -> createQueue("x".repeat(81)), "InvalidParameterValue", null);
        // 80 characters is the longest legal name
        String longest = "y".repeat(80);
        assertThat(createQueue(longest)).isEqualTo(queueUrl(longest));
    }

    @Test
    void listQueuesFiltersByPrefix_v2() {
        String prefix = unique("lsp");
        List<String> urls = new ArrayList<>();
        for (String suffix : List.of("a", "b", "c")) {
            urls.add(createQueue(prefix + "-" + suffix));
        }
        createQueue(unique("other"));
        assertThat(sqs.listQueues(b -> b.queueNamePrefix(prefix)).queueUrls()).containsExactlyInAnyOrderElementsOf(urls);
        assertThat(sqs.listQueues(b -> b.queueNamePrefix(prefix + "-b")).queueUrls()).containsExactly(urls.get(1));
        assertThat(sqs.listQueues(b -> b.queueNamePrefix("zz-nothing-here")).queueUrls()).isEmpty();
        assertThat(sqs.listQueues().queueUrls()).containsAll(urls);
    }

    @Test
    void listQueuesPaginatesWithMaxResultsAndNextToken_v2() {
        String prefix = unique("lpg");
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            urls.add(createQueue(prefix + "-" + i));
        }
        List<String> seen = new ArrayList<>();
        String token = null;
        for (int page = 0; page < 5; page++) {
            String t = token;
            ListQueuesResponse r = sqs.listQueues(b -> b.queueNamePrefix(prefix).maxResults(2).nextToken(t));
            assertThat(r.queueUrls()).hasSizeLessThanOrEqualTo(2);
            seen.addAll(r.queueUrls());
            token = r.nextToken();
            if (token == null) {
                break;
            }
        }
        assertThat(token).as("pagination finished within 3 pages").isNull();
        assertThat(seen).containsExactlyInAnyOrderElementsOf(urls);
        // without MaxResults there is no NextToken
        assertThat(sqs.listQueues(b -> b.queueNamePrefix(prefix)).nextToken()).isNull();
    }

    @Test
    void listQueuesPaginates_v1() {
        String prefix = unique("lpg1");
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            urls.add(sqsV1.createQueue(prefix + "-" + i).getQueueUrl());
        }
        ListQueuesResult first = sqsV1.listQueues(new ListQueuesRequest().withQueueNamePrefix(prefix).withMaxResults(2));
        assertThat(first.getQueueUrls()).hasSize(2);
        assertThat(first.getNextToken()).isNotNull();
        ListQueuesResult second = sqsV1.listQueues(new ListQueuesRequest().withQueueNamePrefix(prefix)
                .withMaxResults(2).withNextToken(first.getNextToken()));
        List<String> all = new ArrayList<>(first.getQueueUrls());
        all.addAll(second.getQueueUrls());
        assertThat(all).containsExactlyInAnyOrderElementsOf(urls);
        assertThat(second.getNextToken()).isNull();
        assertThat(sqsV1.listQueues(prefix).getQueueUrls()).containsExactlyInAnyOrderElementsOf(urls);
    }

    @Test
    void listQueuesMaxResultsOutOfRange() {
        assertV2Error(() -> sqs.listQueues(b -> b.maxResults(0)), "InvalidParameterValue", null);
        assertV2Error(() -> sqs.listQueues(b -> b.maxResults(1001)), "InvalidParameterValue", null);
    }

    @Test
    void deleteQueue_v1() {
        String name = unique("lc-del-v1");
        String url = sqsV1.createQueue(name).getQueueUrl();
        sqsV1.deleteQueue(url);
        assertV1Error(() -> sqsV1.getQueueUrl(name), NON_EXISTENT, NON_EXISTENT_MSG);
        assertV1Error(() -> sqsV1.deleteQueue(url), NON_EXISTENT, NON_EXISTENT_MSG);
    }

    @Test
    void listQueuesPaginatorOfSdkV2WalksEveryPage() {
        String prefix = unique("lpag");
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            urls.add(createQueue(prefix + "-" + i));
        }
        List<String> seen = new ArrayList<>();
        sqs.listQueuesPaginator(b -> b.queueNamePrefix(prefix).maxResults(2)).queueUrls().forEach(seen::add);
        assertThat(seen).containsExactlyInAnyOrderElementsOf(urls);
    }
}
