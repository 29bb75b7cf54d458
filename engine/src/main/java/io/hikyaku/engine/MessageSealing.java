package io.hikyaku.engine;

import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Re-encryption of messages stored before their queue had SSE ({@code hikyaku reencrypt}): the page of stored
 * bodies to seal (a pure read), and {@link Command.SealMessage}, which replaces one message's plaintext body and
 * attributes by a body the api sealed. Only the stored body changes: id, sequence, timestamps, receive state,
 * group, deduplication id and trace header stay; the MD5s a receive answers are of the opened plaintext, as before.
 *
 * <p>The message's key then holds a second value, so its delete must be a full tombstone: the value is written as
 * {@link StoredMessage#encodeRewritten}, which every delete path checks ({@link Message#rewritten} once indexed).
 */
final class MessageSealing {

    /** Messages one page holds at most: the caller's batches stay bounded whatever the backlog. */
    static final int MAX_PAGE = 1000;
    /** Stored bytes after which a page ends (it holds one message at least): big bodies make short pages. */
    static final long PAGE_BYTES = 8L * 1024 * 1024;

    private MessageSealing() {
    }

    /**
     * Up to {@code max} (1..{@value #MAX_PAGE}) stored messages of {@code q} from {@code fromSeq}, in seq order,
     * ending early once they hold {@value #PAGE_BYTES} stored bytes.
     */
    static StoredBodyPage page(QueueState q, Store store, long fromSeq, int max) {
        if (max < 1 || max > MAX_PAGE) {
            throw new IllegalArgumentException("a page holds 1 to " + MAX_PAGE + " messages, not " + max);
        }
        long from = Math.max(Math.max(1, fromSeq), q.purgedBelow); // purged keys wait for their cleanup: not messages
        List<StoredBodyPage.Entry> out = new ArrayList<>();
        long[] next = {-1};
        long[] bytes = {0};
        store.scanFrom(Keyspace.MESSAGES, Keys.queue(q.id), Keys.message(q.id, from), 0, (k, v) -> {
            long seq = Keys.seqOf(k);
            if (out.size() == max || bytes[0] >= PAGE_BYTES) {
                next[0] = seq;
                return false;
            }
            bytes[0] += v.length;
            StoredMessage sm = StoredMessage.decode(v);
            out.add(new StoredBodyPage.Entry(seq, sm.messageId(), sm.body(), sm.attributes(),
                    SealedBody.isSealed(sm.body())));
            return true;
        });
        return new StoredBodyPage(out, next[0]);
    }

    /**
     * {@link Command.SealMessage} on {@code q} (null: the queue is gone): writes the sealed value into {@code b}
     * when the message is still there, still the one named and still plaintext; else changes nothing.
     */
    static SealOutcome seal(QueueState q, Store store, Command.SealMessage c, StoreBatch b) {
        if (!SealedBody.isSealed(c.sealedBody())) {
            throw Texts.invalidParameter("SealMessage needs a sealed body."); // a caller's bug: refused, nothing changed
        }
        if (q == null || c.seq() < Math.max(1, q.purgedBelow) || c.seq() >= q.nextSeq) {
            return SealOutcome.GONE;
        }
        byte[] key = Keys.message(q.id, c.seq());
        byte[] stored = store.get(Keyspace.MESSAGES, key);
        if (stored == null) {
            return SealOutcome.GONE;
        }
        StoredMessage sm = StoredMessage.decode(stored);
        if (!sm.messageId().equals(c.messageId())) {
            return SealOutcome.GONE;
        }
        if (SealedBody.isSealed(sm.body())) {
            return SealOutcome.ALREADY_SEALED;
        }
        StoredMessage sealed = new StoredMessage(sm.groupId(), sm.sentAt(), sm.availableAt(), sm.messageId(),
                c.sealedBody(), Map.of(), sm.awsTraceHeader(), sm.deduplicationId(), sm.senderId(),
                sm.sequenceNumber(), sm.sourceArn(), null);
        b.put(Keyspace.MESSAGES, key, sealed.encodeRewritten());
        Message m = q.messages.get(c.seq());
        if (m != null) {
            m.rewritten = true;
            q.releaseBody(m); // the cached plaintext goes: the next delivery reads the sealed body
        }
        return SealOutcome.SEALED;
    }
}
