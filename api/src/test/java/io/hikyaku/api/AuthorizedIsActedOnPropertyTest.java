package io.hikyaku.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import io.hikyaku.testsupport.MutableClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 35's property: for every queue-addressed SQS operation, in both protocols, and every way of
 * addressing a queue (full URL, bare name, ElasticMQ's {@code /queue/<name>}, empty, absent, another
 * account, percent-encoded, with and without a request path), the queue authorization is asked about
 * (the resolved request's checks) is the only queue the real service changes or reads, and a request
 * that resolves to no queue changes nothing.
 *
 * <p>Each case gets three queues of one name, in the caller's account, the default account and a
 * third account, each holding one message whose body and {@code owner} tag name its account; the
 * state of all three is compared before and after, and read results are checked against the owner.
 */
class AuthorizedIsActedOnPropertyTest {

    private static final String CALLER = "111111111111";
    private static final String DEFAULT = "000000000000";
    private static final String OTHER = "222222222222";
    private static final String[] ACCOUNTS = {CALLER, DEFAULT, OTHER};
    private static final ObjectMapper JSON = new ObjectMapper();

    private final MutableClock clock = new MutableClock(Instant.ofEpochMilli(1_700_000_000_000L));
    private final SqsService service = SqsServices.create(new MemoryStore(), clock, false);
    private int cases;

    @AfterEach
    void close() {
        service.close();
    }

    private static CallContext context(String account) {
        return new CallContext(account, "us-east-1", "http://localhost:9324", null, "r", DEFAULT);
    }

    /** {QueueUrl value or null for absent, request path}; {@code N} is replaced by the case's queue name. */
    private static List<String[]> addressForms() {
        List<String[]> forms = new ArrayList<>();
        for (String path : new String[] {"/", "/N", "/" + OTHER + "/N", "/queue/N", "/" + DEFAULT + "/N/"}) {
            forms.add(new String[] {null, path});
            forms.add(new String[] {"", path});
            forms.add(new String[] {"http://localhost:9324/" + CALLER + "/N", path});
            forms.add(new String[] {"https://sqs.us-east-1.amazonaws.com/" + OTHER + "/N", path});
            forms.add(new String[] {"N", path});
            forms.add(new String[] {"http://localhost:9324/queue/N", path});
        }
        forms.add(new String[] {"/" + OTHER + "/N", "/"});
        forms.add(new String[] {"http://localhost:9324/" + CALLER + "/N%41", "/"}); // encoded: another name
        forms.add(new String[] {"http://localhost:9324/" + CALLER + "%2FN", "/"});
        forms.add(new String[] {"http://localhost:9324/N", "/"}); // one segment: no queue
        forms.add(new String[] {"http://localhost:9324/", "/"});
        return forms;
    }

    /** The operations' other inputs (JSON shape; scalars as text so Query reads them too). */
    private static Map<String, String> operations() {
        Map<String, String> ops = new LinkedHashMap<>();
        ops.put("SendMessage", "\"MessageBody\":\"new\"");
        ops.put("SendMessageBatch", "\"Entries\":[{\"Id\":\"1\",\"MessageBody\":\"new\"}]");
        ops.put("ReceiveMessage", "\"MaxNumberOfMessages\":\"10\"");
        ops.put("GetQueueAttributes", "\"AttributeNames\":[\"All\"]");
        ops.put("SetQueueAttributes", "\"Attributes\":{\"VisibilityTimeout\":\"77\"}");
        ops.put("PurgeQueue", null);
        ops.put("DeleteQueue", null);
        ops.put("TagQueue", "\"Tags\":{\"t\":\"v\"}");
        ops.put("UntagQueue", "\"TagKeys\":[\"owner\"]");
        ops.put("ListQueueTags", null);
        ops.put("AddPermission", "\"Label\":\"l\",\"AWSAccountIds\":[\"" + OTHER + "\"],\"Actions\":[\"SendMessage\"]");
        ops.put("RemovePermission", "\"Label\":\"l\"");
        ops.put("ListDeadLetterSourceQueues", null);
        ops.put("DeleteMessage", "\"ReceiptHandle\":\"bogus\"");
        ops.put("DeleteMessageBatch", "\"Entries\":[{\"Id\":\"1\",\"ReceiptHandle\":\"bogus\"}]");
        ops.put("ChangeMessageVisibility", "\"ReceiptHandle\":\"bogus\",\"VisibilityTimeout\":\"5\"");
        ops.put("ChangeMessageVisibilityBatch", "\"Entries\":[{\"Id\":\"1\",\"ReceiptHandle\":\"bogus\",\"VisibilityTimeout\":\"5\"}]");
        ops.put(PeekActions.ACTION, null);
        return ops;
    }

    @Test
    void theQueueAuthorizedIsTheOnlyQueueActedOn() throws Exception {
        for (SqsOperations.Operation op : SqsOperations.all()) {
            if (op.addressing() == SqsOperations.Addressing.QUEUE_URL) {
                assertThat(operations()).as("every queue-addressed operation is exercised").containsKey(op.name());
            }
        }
        for (Map.Entry<String, String> op : operations().entrySet()) {
            for (String[] form : addressForms()) {
                for (WireProtocol protocol : WireProtocol.values()) {
                    check(op.getKey(), op.getValue(), form[0], form[1], protocol);
                }
            }
        }
        assertThat(cases).isGreaterThan(1000);
    }

    private void check(String op, String extra, String queueUrl, String path, WireProtocol protocol) throws Exception {
        String name = "q" + (++cases);
        for (String account : ACCOUNTS) {
            ObjectNode created = call(context(account), "CreateQueue", "{\"QueueName\":\"" + name + "\",\"tags\":{\"owner\":\"" + account + "\"}}");
            call(context(account), "SendMessage", "{\"QueueUrl\":\"" + created.get("QueueUrl").asText() + "\",\"MessageBody\":\"" + account + "\"}");
        }
        ObjectNode input = JSON.createObjectNode();
        if (queueUrl != null) {
            input.put("QueueUrl", queueUrl.replace("N", name));
        }
        if (extra != null) {
            ((ObjectNode) JSON.readTree("{" + extra + "}")).fields().forEachRemaining(f -> input.set(f.getKey(), f.getValue()));
        }
        ApiRequest request = new ApiRequest(op, input, protocol, false, path.replace("N", name));
        String label = op + " " + protocol + " QueueUrl=" + queueUrl + " path=" + path;

        ResolvedRequest resolved = SqsRequests.resolve(request, context(CALLER));
        QueueRef authorized = resolved.checks().isEmpty() ? null
                : new QueueRef(resolved.checks().get(0).account(), resolved.checks().get(0).queueName());
        assertThat(authorized).as(label + ": the check is on the resolved queue").isEqualTo(resolved.queue());

        Map<String, String> before = states(name);
        CompletableFuture<ObjectNode> call = service.invoke(context(CALLER), request); // the service resolves it again, itself
        ObjectNode result = null;
        try {
            result = call.get(5, TimeUnit.SECONDS);
        } catch (ExecutionException refused) {
            // refused (validation, no such queue): must have changed nothing but the authorized queue
        }
        Map<String, String> after = states(name);
        for (String account : ACCOUNTS) {
            if (!Objects.equals(before.get(account), after.get(account))) {
                assertThat(new QueueRef(account, name)).as(label + ": changed a queue it was not authorized on").isEqualTo(authorized);
            }
        }
        if (result != null) {
            assertThat(authorized).as(label + ": succeeded without any check").isNotNull();
            String text = result.toString();
            for (String account : ACCOUNTS) {
                if (!account.equals(authorized.accountId())) {
                    assertThat(text).as(label + ": read another account's queue").doesNotContain(account + ":" + name)
                            .doesNotContain("\"owner\":\"" + account + "\"").doesNotContain("\"Body\":\"" + account + "\"");
                }
            }
        }
    }

    /** Each account's queue of that name as text (existence, attributes, tags), read without changing it. */
    private Map<String, String> states(String name) throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        for (String account : ACCOUNTS) {
            String url = "http://localhost:9324/" + account + "/" + name;
            try {
                ObjectNode attributes = call(context(account), "GetQueueAttributes", "{\"QueueUrl\":\"" + url + "\",\"AttributeNames\":[\"All\"]}");
                ObjectNode tags = call(context(account), "ListQueueTags", "{\"QueueUrl\":\"" + url + "\"}");
                ((ObjectNode) attributes.get("Attributes")).remove("LastModifiedTimestamp");
                out.put(account, attributes + " " + tags);
            } catch (AssertionError gone) {
                out.put(account, "gone");
            }
        }
        return out;
    }

    private ObjectNode call(CallContext context, String action, String json) throws Exception {
        CompletableFuture<ObjectNode> f = service.invoke(context, new ApiRequest(action, (ObjectNode) JSON.readTree(json),
                WireProtocol.JSON, false, "/"));
        try {
            return f.get(5, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError(action + " failed: " + e.getCause(), e.getCause());
        }
    }
}
