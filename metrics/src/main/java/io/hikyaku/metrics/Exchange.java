package io.hikyaku.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import java.util.HashMap;
import java.util.Map;

/**
 * One request as observers see it: what is known when it arrives (kept small, since a long poll
 * holds it for up to 20 s: never the body or the input tree), then its outcome.
 */
public final class Exchange {

    final long startNanos;
    final String requestId;
    final String action;
    /** The protocol, or null when the request could not be decoded. */
    final WireProtocol wire;
    final QueueKey queue;
    final String principal;
    final String peer;
    /** SendMessage: the message's size; else 0. */
    final int sentBytes;
    /** SendMessageBatch: each entry's size by entry id; else null. */
    final Map<String, Integer> batchSentBytes;

    private Exchange(long startNanos, String requestId, String action, WireProtocol wire, QueueKey queue,
                     String principal, String peer, int sentBytes, Map<String, Integer> batchSentBytes) {
        this.startNanos = startNanos;
        this.requestId = requestId;
        this.action = action;
        this.wire = wire;
        this.queue = queue;
        this.principal = principal;
        this.peer = peer;
        this.sentBytes = sentBytes;
        this.batchSentBytes = batchSentBytes;
    }

    /**
     * @param decoded   the decoded request, or null when it could not be decoded
     * @param queue     the queue the request acts on, as resolved once for authorization and execution
     *                  ({@link io.hikyaku.api.ResolvedRequest#queue()}), or null when it names none
     * @param principal the verified principal (its ARN), {@code anonymous}, or with auth none the
     *                  access key id the request names; never a secret
     * @param peer      the client's address, or null
     */
    public static Exchange begin(long startNanos, String requestId, ApiRequest decoded, io.hikyaku.engine.QueueRef queueActedOn,
                                 String principal, String peer) {
        if (decoded == null) {
            return new Exchange(startNanos, requestId, null, null, null, principal, peer, 0, null);
        }
        ObjectNode in = decoded.input();
        QueueKey queue = queueActedOn == null ? null : new QueueKey(queueActedOn.accountId(), queueActedOn.name());
        int sent = 0;
        Map<String, Integer> batch = null;
        if ("SendMessage".equals(decoded.action()) && in != null) {
            sent = MessageSize.of(in);
        } else if ("SendMessageBatch".equals(decoded.action()) && in != null && in.get("Entries") != null) {
            batch = new HashMap<>();
            for (JsonNode entry : in.get("Entries")) {
                String id = text(entry.get("Id"));
                if (id != null && entry.isObject()) {
                    batch.put(id, MessageSize.of((ObjectNode) entry));
                }
            }
        }
        return new Exchange(startNanos, requestId, decoded.action(), decoded.protocol(), queue, principal, peer, sent, batch);
    }

    public String requestId() {
        return requestId;
    }

    /** The action as the client named it, or null when the request could not be decoded. */
    public String action() {
        return action;
    }

    /** "json" or "query", or null. */
    public String protocol() {
        return wire == null ? null : RequestMeters.PROTOCOLS[RequestMeters.protocol(wire)];
    }

    /** The queue the request addresses, or null. */
    public QueueKey queue() {
        return queue;
    }

    public String principal() {
        return principal;
    }

    public String peer() {
        return peer;
    }

    public long startNanos() {
        return startNanos;
    }

    /** SendMessage: the message's size in bytes as SQS counts it; else 0. */
    public int sentBytes() {
        return sentBytes;
    }

    /** SendMessageBatch: each entry's size by entry id; else null. */
    public Map<String, Integer> batchSentBytes() {
        return batchSentBytes;
    }

    static String text(JsonNode node) {
        return node == null || node.isNull() ? null : node.asText();
    }

    /** A message's size as SQS counts it: body plus attribute names, types and values, in bytes. */
    static final class MessageSize {
        private MessageSize() {}

        static int of(ObjectNode message) {
            long size = utf8(text(message.get("MessageBody")));
            JsonNode attributes = message.get("MessageAttributes");
            if (attributes != null && attributes.isObject()) {
                var fields = attributes.fields();
                while (fields.hasNext()) {
                    var e = fields.next();
                    size += utf8(e.getKey());
                    JsonNode v = e.getValue();
                    size += utf8(text(v.get("DataType")));
                    size += utf8(text(v.get("StringValue")));
                    JsonNode binary = v.get("BinaryValue");
                    if (binary != null && !binary.isNull()) {
                        String b64 = binary.asText();
                        size += b64.length() * 3L / 4; // base64 on the wire; the decoded bytes count
                    }
                }
            }
            return (int) Math.min(Integer.MAX_VALUE, size);
        }

        private static long utf8(String s) {
            if (s == null) {
                return 0;
            }
            long n = 0;
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c < 0x80) {
                    n += 1;
                } else if (c < 0x800) {
                    n += 2;
                } else if (Character.isHighSurrogate(c)) {
                    n += 4;
                    i++;
                } else {
                    n += 3;
                }
            }
            return n;
        }
    }
}
