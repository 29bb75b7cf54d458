package io.hikyaku.api.sse;

import io.hikyaku.engine.MessageAttribute;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The plaintext of messages this process sealed lately, in memory only (never written anywhere), so that a
 * receive soon after the send need not decrypt what it just encrypted: the common case, where a consumer keeps
 * up. An entry is taken (removed) by the receive that finds it, and only when the stored body is exactly the one
 * sealed; the oldest entries go first beyond {@value #MAX_ENTRIES} entries or {@value #MAX_BYTES} bytes of bodies.
 * A miss decrypts as always. The key checks a receive makes are the caller's, hit or miss.
 */
final class SealedPlaintexts {

    static final int MAX_ENTRIES = 16_384;
    static final long MAX_BYTES = 8L * 1024 * 1024;
    /** Bodies longer than this are not kept (they would crowd out many small ones). */
    static final int MAX_BODY_CHARS = 64 * 1024;

    /** What a message was sealed from, and what its key checks need (the data key's blob and the queue). */
    record Plain(String sealed, String body, Map<String, MessageAttribute> attributes, byte mode, byte[] wrappedKey,
                 String queueArn, long bytes) { }

    private final ConcurrentHashMap<String, Plain> byMessageId = new ConcurrentHashMap<>();
    /** Message ids in the order remembered (some already taken): what goes first. */
    private final ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
    private final AtomicLong queued = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();

    void remember(String messageId, Plain plain) {
        if (messageId == null || plain.body().length() > MAX_BODY_CHARS) {
            return;
        }
        Plain old = byMessageId.put(messageId, plain);
        if (old != null) {
            bytes.addAndGet(-old.bytes());
        }
        bytes.addAndGet(plain.bytes());
        order.add(messageId);
        queued.incrementAndGet();
        // the queue keeps ids of taken entries too: bound it as well as what is held
        while (queued.get() > 2L * MAX_ENTRIES || bytes.get() > MAX_BYTES || byMessageId.size() > MAX_ENTRIES) {
            String eldest = order.poll();
            if (eldest == null) {
                break;
            }
            queued.decrementAndGet();
            Plain gone = byMessageId.remove(eldest);
            if (gone != null) {
                bytes.addAndGet(-gone.bytes());
            }
        }
    }

    /** The plaintext of {@code messageId} when its stored body is {@code sealed} (then forgotten), else null. */
    Plain take(String messageId, String sealed) {
        if (messageId == null) {
            return null;
        }
        Plain p = byMessageId.get(messageId);
        if (p == null || !(p.sealed() == sealed || p.sealed().equals(sealed)) || !byMessageId.remove(messageId, p)) {
            return null;
        }
        bytes.addAndGet(-p.bytes());
        return p;
    }

    int size() {
        return byMessageId.size();
    }
}
