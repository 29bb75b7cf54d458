package io.hikyaku.push;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * Lambda's SQS event: {@code {"Records":[...]}} with one record per message, in the field names and
 * forms Lambda uses (camelCase, every attribute a string, binary attribute values base64, empty
 * list-value arrays), built from ReceiveMessage's JSON output.
 */
final class SqsEventBuilder {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** The system attributes a record carries, in Lambda's order; absent ones are left out. */
    private static final List<String> SYSTEM_ATTRIBUTES = List.of("ApproximateReceiveCount", "SentTimestamp",
            "SequenceNumber", "MessageGroupId", "SenderId", "MessageDeduplicationId", "ApproximateFirstReceiveTimestamp",
            "AWSTraceHeader");

    private SqsEventBuilder() {}

    static ObjectNode record(JsonNode message, String eventSourceArn, String region) {
        ObjectNode r = NODES.objectNode();
        r.put("messageId", message.path("MessageId").asText());
        r.put("receiptHandle", message.path("ReceiptHandle").asText());
        r.put("body", message.path("Body").asText(""));
        ObjectNode attributes = r.putObject("attributes");
        JsonNode given = message.path("Attributes");
        for (String name : SYSTEM_ATTRIBUTES) {
            if (given.hasNonNull(name)) {
                attributes.put(name, given.get(name).asText());
            }
        }
        ObjectNode messageAttributes = r.putObject("messageAttributes");
        for (Map.Entry<String, JsonNode> e : (Iterable<Map.Entry<String, JsonNode>>) () -> message.path("MessageAttributes").fields()) {
            JsonNode a = e.getValue();
            ObjectNode out = messageAttributes.putObject(e.getKey());
            if (a.hasNonNull("StringValue")) {
                out.put("stringValue", a.get("StringValue").asText());
            }
            if (a.hasNonNull("BinaryValue")) {
                out.put("binaryValue", a.get("BinaryValue").asText());
            }
            out.set("stringListValues", NODES.arrayNode());
            out.set("binaryListValues", NODES.arrayNode());
            out.put("dataType", a.path("DataType").asText());
        }
        if (message.hasNonNull("MD5OfMessageAttributes")) {
            r.put("md5OfMessageAttributes", message.get("MD5OfMessageAttributes").asText());
        }
        r.put("md5OfBody", message.path("MD5OfBody").asText());
        r.put("eventSource", "aws:sqs");
        r.put("eventSourceARN", eventSourceArn);
        r.put("awsRegion", region);
        return r;
    }

    static ObjectNode event(List<ObjectNode> records) {
        ObjectNode event = NODES.objectNode();
        ArrayNode list = event.putArray("Records");
        records.forEach(list::add);
        return event;
    }
}
