package io.hikyaku.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.MessageAttribute;
import io.hikyaku.engine.SendMessage;
import io.hikyaku.engine.SendResult;
import java.util.Map;

/**
 * Reads one SendMessage (or batch entry) into an engine command, checking what needs no queue:
 * body present and of allowed characters, DelaySeconds 0..900, attribute syntax, id syntax. The
 * engine checks the rest (FIFO rules, size against MaximumMessageSize).
 */
final class SendEntries {

    static final String DELAY_REASON = "DelaySeconds must be >= 0 and <= 900.";

    private SendEntries() {}

    static SendMessage read(Input entry, CallContext context, Ids ids) {
        String body = entry.string("MessageBody");
        if (body == null || body.isEmpty()) {
            throw Errors.missing("MessageBody");
        }
        Long delay = entry.integer("DelaySeconds", DELAY_REASON);
        if (delay != null && (delay < 0 || delay > 900)) {
            throw Errors.invalidValue("DelaySeconds", delay, DELAY_REASON);
        }
        Map<String, MessageAttribute> attributes = MessageAttributesReader.userAttributes(entry);
        String trace = MessageAttributesReader.traceHeader(entry);
        if (trace == null) {
            trace = context.traceHeader();
        }
        if (!MessageContent.isValid(body)) {
            throw Errors.invalidMessageContents(MessageContent.INVALID_CHARACTERS);
        }
        String groupId = entry.string("MessageGroupId");
        FifoIds.check("MessageGroupId", groupId);
        String dedupId = entry.string("MessageDeduplicationId");
        FifoIds.check("MessageDeduplicationId", dedupId);
        // SenderId: the sending principal's unique id, as SQS shows it (the account id without authentication).
        // MD5OfBody is computed once: the response needs it, and the engine hands it back on receive.
        return new SendMessage(body, attributes.isEmpty() ? null : attributes, trace,
                delay == null ? null : (int) (long) delay, groupId, dedupId, context.senderId(), ids.uuid(),
                Md5s.ofBody(body));
    }

    /** Bytes an entry adds to a batch's payload (body + attributes), counted leniently for bad entries. */
    static long payloadBytes(Input entry) {
        long total = 0;
        String body = entry.has("MessageBody") && entry.string("MessageBody") != null ? entry.string("MessageBody") : "";
        total += io.hikyaku.engine.Utf8.encodedLength(body);
        try {
            for (Map.Entry<String, MessageAttribute> a : MessageAttributesReader.userAttributes(entry).entrySet()) {
                total += a.getValue().sizeWith(a.getKey());
            }
        } catch (RuntimeException invalidAttributes) {
            // The entry will fail on its own; its attributes do not count.
        }
        return total;
    }

    /** MD5OfMessageBody, MD5OfMessageAttributes, MD5OfMessageSystemAttributes, MessageId, SequenceNumber. */
    static ObjectNode result(ObjectNode out, SendMessage sent, SendResult result) {
        out.put("MD5OfMessageBody", sent.bodyDigest() != null ? sent.bodyDigest() : Md5s.ofBody(sent.body()));
        Json.putIfPresent(out, "MD5OfMessageAttributes", Md5s.ofAttributes(sent.attributes()));
        if (sent.awsTraceHeader() != null) {
            out.put("MD5OfMessageSystemAttributes", Md5s.ofAttributes(Map.of(MessageAttributesReader.TRACE_HEADER,
                    new MessageAttribute("String", sent.awsTraceHeader(), null))));
        }
        out.put("MessageId", result.messageId());
        Json.putIfPresent(out, "SequenceNumber", result.sequenceNumber());
        return out;
    }
}
