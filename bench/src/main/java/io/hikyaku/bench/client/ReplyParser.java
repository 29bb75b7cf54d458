package io.hikyaku.bench.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Reads an SQS answer with Jackson's streaming parser, keeping only what SqsReply holds and
 * skipping everything else (MD5s, MessageIds of messages, Attributes...) without building
 * objects for it: a readTree of a 10-message receive was most of the client's CPU per request.
 */
final class ReplyParser {
    /** The ObjectMapper's factory, so a Failed[] entry can still be read as a tree (rare). */
    private static final JsonFactory FACTORY = SqsRequests.JSON.getFactory();
    private static final int TEXT_LIMIT = 512;

    private ReplyParser() {
    }

    /** Never throws: a body that is not JSON gives a reply with no fields and its text. */
    static SqsReply parse(int status, byte[] buf, int len) {
        String text = status == 200 ? null : text(buf, len);
        SqsReply reply = new SqsReply(status, text);
        if (len == 0) {
            return reply;
        }
        try (JsonParser p = FACTORY.createParser(buf, 0, len)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return text == null ? new SqsReply(status, text(buf, len)) : reply;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                switch (name) {
                    case "Messages" -> eachElement(p, value, () -> message(p, reply));
                    case "Successful" -> eachElement(p, value, () -> reply.successfulIds.add(idOf(p)));
                    case "Failed" -> eachElement(p, value, () -> reply.failed.add(p.readValueAsTree().toString()));
                    case "MessageId" -> reply.messageId = string(p);
                    case "QueueUrl" -> reply.queueUrl = string(p);
                    case "__type" -> reply.errorType = string(p);
                    case "message", "Message" -> reply.errorMessage = string(p);
                    default -> p.skipChildren();
                }
            }
            return reply;
        } catch (IOException | RuntimeException malformed) {
            return new SqsReply(status, text(buf, len));
        }
    }

    private interface Step {
        void run() throws IOException;
    }

    /** For an array, runs step with the parser on each element's first token; skips a non-array. */
    private static void eachElement(JsonParser p, JsonToken value, Step step) throws IOException {
        if (value != JsonToken.START_ARRAY) {
            p.skipChildren();
            return;
        }
        while (p.nextToken() != JsonToken.END_ARRAY) {
            step.run();
        }
    }

    /** One Messages[] element; one that is not an object counts as a message without body or handle. */
    private static void message(JsonParser p, SqsReply reply) throws IOException {
        String body = null;
        String handle = "";
        if (p.currentToken() == JsonToken.START_OBJECT) {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                switch (name) {
                    case "Body" -> body = string(p);
                    case "ReceiptHandle" -> handle = p.currentToken() == JsonToken.VALUE_STRING ? p.getText() : "";
                    default -> p.skipChildren();
                }
            }
        } else {
            p.skipChildren();
        }
        reply.bodies.add(body);
        reply.receiptHandles.add(handle);
    }

    /** The Id member of one Successful[] element; null if none or not an object. */
    private static String idOf(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            p.skipChildren();
            return null;
        }
        String id = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            if (name.equals("Id")) {
                id = string(p);
            } else {
                p.skipChildren();
            }
        }
        return id;
    }

    /** The current value if it is a string, else null (after skipping an object or array). */
    private static String string(JsonParser p) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_STRING) {
            return p.getText();
        }
        p.skipChildren();
        return null;
    }

    private static String text(byte[] buf, int len) {
        return new String(buf, 0, Math.min(len, TEXT_LIMIT), StandardCharsets.UTF_8);
    }
}
