package io.hikyaku.bench.client;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.List;
import java.util.Map;

/**
 * AWS JSON 1.0 request bodies for the SQS actions the scenarios use, as UTF-8 bytes. Written
 * with JsonWriter rather than a Jackson tree: the same bytes, a fraction of the client CPU.
 */
public final class SqsRequests {
    /** For parsing the answers of the few calls that want a whole tree (CreateQueue, GetQueueAttributes...). */
    public static final ObjectMapper JSON = new ObjectMapper();

    private SqsRequests() {
    }

    /** One entry of a SendMessageBatch; groupId is null for standard queues. */
    public record Entry(String id, String body, String groupId) {
    }

    public static byte[] createQueue(String name, Map<String, String> attributes) {
        JsonWriter w = new JsonWriter(64).beginObject().field("QueueName", name);
        if (!attributes.isEmpty()) {
            w.name("Attributes").beginObject();
            attributes.forEach(w::field);
            w.endObject();
        }
        return w.endObject().toByteArray();
    }

    public static byte[] getQueueUrl(String name) {
        return new JsonWriter(64).beginObject().field("QueueName", name).endObject().toByteArray();
    }

    public static byte[] getQueueAttributes(String queueUrl, List<String> names) {
        JsonWriter w = queue(queueUrl, 64).name("AttributeNames").beginArray();
        names.forEach(w::value);
        return w.endArray().endObject().toByteArray();
    }

    public static byte[] queueOnly(String queueUrl) {
        return queue(queueUrl, 0).endObject().toByteArray();
    }

    public static byte[] sendMessage(String queueUrl, String body, String groupId) {
        JsonWriter w = queue(queueUrl, body.length() + 32).field("MessageBody", body);
        if (groupId != null) {
            w.field("MessageGroupId", groupId);
        }
        return w.endObject().toByteArray();
    }

    public static byte[] sendMessageBatch(String queueUrl, List<Entry> entries) {
        int size = 32;
        for (Entry e : entries) {
            size += e.body().length() + 64;
        }
        JsonWriter w = queue(queueUrl, size).name("Entries").beginArray();
        for (Entry e : entries) {
            w.beginObject().field("Id", e.id()).field("MessageBody", e.body());
            if (e.groupId() != null) {
                w.field("MessageGroupId", e.groupId());
            }
            w.endObject();
        }
        return w.endArray().endObject().toByteArray();
    }

    public static byte[] receiveMessage(String queueUrl, int max, int waitSeconds, int visibilitySeconds) {
        return queue(queueUrl, 64)
                .field("MaxNumberOfMessages", max)
                .field("WaitTimeSeconds", waitSeconds)
                .field("VisibilityTimeout", visibilitySeconds)
                .endObject().toByteArray();
    }

    /** Entry ids are BatchIds.id('d', i), so the answer's ids index receiptHandles. */
    public static byte[] deleteMessageBatch(String queueUrl, List<String> receiptHandles) {
        int size = 32;
        for (String h : receiptHandles) {
            size += h.length() + 40;
        }
        JsonWriter w = queue(queueUrl, size).name("Entries").beginArray();
        for (int i = 0; i < receiptHandles.size(); i++) {
            w.beginObject().field("Id", BatchIds.id('d', i)).field("ReceiptHandle", receiptHandles.get(i)).endObject();
        }
        return w.endArray().endObject().toByteArray();
    }

    /** An object opened with its QueueUrl member; extra is a size hint for what follows. */
    private static JsonWriter queue(String queueUrl, int extra) {
        return new JsonWriter(queueUrl.length() + 16 + extra).beginObject().field("QueueUrl", queueUrl);
    }
}
