package io.hikyaku.bench.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Map;

/** Builds AWS JSON 1.0 request bodies for the SQS actions the scenarios use. */
public final class SqsRequests {
    public static final ObjectMapper JSON = new ObjectMapper();

    private SqsRequests() {
    }

    /** One entry of a SendMessageBatch; groupId is null for standard queues. */
    public record Entry(String id, String body, String groupId) {
    }

    public static ObjectNode createQueue(String name, Map<String, String> attributes) {
        ObjectNode root = JSON.createObjectNode().put("QueueName", name);
        if (!attributes.isEmpty()) {
            ObjectNode attrs = root.putObject("Attributes");
            attributes.forEach(attrs::put);
        }
        return root;
    }

    public static ObjectNode queueOnly(String queueUrl) {
        return JSON.createObjectNode().put("QueueUrl", queueUrl);
    }

    public static ObjectNode sendMessage(String queueUrl, String body, String groupId) {
        ObjectNode root = queueOnly(queueUrl).put("MessageBody", body);
        if (groupId != null) {
            root.put("MessageGroupId", groupId);
        }
        return root;
    }

    public static ObjectNode sendMessageBatch(String queueUrl, List<Entry> entries) {
        ObjectNode root = queueOnly(queueUrl);
        ArrayNode list = root.putArray("Entries");
        for (Entry e : entries) {
            ObjectNode n = list.addObject().put("Id", e.id()).put("MessageBody", e.body());
            if (e.groupId() != null) {
                n.put("MessageGroupId", e.groupId());
            }
        }
        return root;
    }

    public static ObjectNode receiveMessage(String queueUrl, int max, int waitSeconds, int visibilitySeconds) {
        return queueOnly(queueUrl)
                .put("MaxNumberOfMessages", max)
                .put("WaitTimeSeconds", waitSeconds)
                .put("VisibilityTimeout", visibilitySeconds);
    }

    public static ObjectNode deleteMessageBatch(String queueUrl, List<String> receiptHandles) {
        ObjectNode root = queueOnly(queueUrl);
        ArrayNode list = root.putArray("Entries");
        for (int i = 0; i < receiptHandles.size(); i++) {
            list.addObject().put("Id", "d" + i).put("ReceiptHandle", receiptHandles.get(i));
        }
        return root;
    }

    public static byte[] bytes(ObjectNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
