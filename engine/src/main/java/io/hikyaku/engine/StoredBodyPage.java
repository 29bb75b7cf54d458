package io.hikyaku.engine;

import java.util.List;
import java.util.Map;

/**
 * A page of one queue's stored messages in sequence order, as they are in the store (sealed or not), for
 * re-encryption ({@code hikyaku reencrypt}): every stored message counts, in flight and delayed ones too.
 *
 * @param next the sequence number to read the next page from, or -1 when the queue has no more
 */
public record StoredBodyPage(List<Entry> messages, long next) {

    /**
     * One stored message: where it is ({@code seq}), which it is ({@code messageId}) and its stored body and
     * attributes; {@code sealed} when the body is sealed already ({@link SealedBody}).
     */
    public record Entry(long seq, String messageId, String body, Map<String, MessageAttribute> attributes,
                        boolean sealed) {}
}
