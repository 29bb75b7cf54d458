package io.hikyaku.engine;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.StoreBatch;
import java.util.ArrayList;
import java.util.List;

/**
 * The receive path: picks messages through the queue's delivery index, redrives those received
 * too often to the dead-letter queue, marks the rest in flight, and replays FIFO
 * ReceiveRequestAttemptIds.
 */
final class Receiver {

    /**
     * Messages one receive removes at most on its way to deliverable ones: dead-letter moves and
     * messages past their retention that the tick has not cut yet (bounded work per command; the
     * rest move at the next receive, or are cut by the next ticks).
     */
    static final int MAX_SET_ASIDE = 1000;

    private final QueueEngine engine;
    private final int inflightLimit;

    Receiver(QueueEngine engine, int inflightLimit) {
        this.engine = engine;
        this.inflightLimit = inflightLimit;
    }

    int inflightLimit() {
        return inflightLimit;
    }

    List<ReceivedMessage> standard(QueueState q, ReceiveMessages c, int vt, StoreBatch b) {
        if (q.inflight >= inflightLimit) {
            throw new EngineException(ErrorTypes.OVER_LIMIT, Texts.OVER_LIMIT_INFLIGHT);
        }
        List<ReceivedMessage> out = new ArrayList<>();
        int setAside = 0;
        while (out.size() < c.maxMessages() && q.inflight < inflightLimit && setAside < MAX_SET_ASIDE) {
            Message m = q.fair().next(c.now());
            if (m == null) {
                break;
            }
            if (q.expired(m, c.now())) {
                q.deleteMessage(m, b); // its retention cut is still queued behind a chunk: never deliver it
                setAside++;
                continue;
            }
            ReceivedMessage r = deliver(q, m, vt, c.nonce(), c.now(), b);
            if (r != null) {
                out.add(r);
            } else {
                setAside++;
            }
        }
        return out;
    }

    List<ReceivedMessage> fifo(QueueState q, ReceiveMessages c, int vt, StoreBatch b) {
        long now = c.now();
        String attemptId = c.receiveRequestAttemptId();
        if (attemptId != null) {
            AttemptEntry e = q.attempts.get(attemptId);
            if (e != null) {
                List<ReceivedMessage> again = retryAttempt(q, e, vt, now, b);
                if (again != null) {
                    return again;
                }
                q.removeAttempt(attemptId, b);
            }
        }
        int room = inflightLimit - q.inflight;
        int max = Math.min(c.maxMessages(), room);
        List<ReceivedMessage> out = new ArrayList<>();
        List<Long> seqs = new ArrayList<>();
        int setAside = 0;
        while (out.size() < max && setAside < MAX_SET_ASIDE) {
            List<Message> candidates = q.fifoDelivery().candidates(max - out.size());
            if (candidates.isEmpty()) {
                break;
            }
            for (Message m : candidates) {
                if (q.expired(m, now)) {
                    q.deleteMessage(m, b);
                    setAside++;
                    continue;
                }
                ReceivedMessage r = deliver(q, m, vt, c.nonce(), now, b);
                if (r != null) {
                    out.add(r);
                    seqs.add(m.seq);
                } else {
                    setAside++;
                }
            }
        }
        if (attemptId != null && !out.isEmpty()) {
            q.putAttempt(new AttemptEntry(attemptId, now + QueueState.DEDUP_WINDOW_MS, c.nonce(),
                    seqs.stream().mapToLong(Long::longValue).toArray()), b);
        }
        return out;
    }

    /** The same messages and handles again when nothing changed since the attempt, else null. */
    private List<ReceivedMessage> retryAttempt(QueueState q, AttemptEntry e, int vt, long now, StoreBatch b) {
        List<Message> ms = new ArrayList<>();
        for (long seq : e.seqs()) {
            Message m = q.messages.get(seq);
            if (m == null || m.state != Message.State.INFLIGHT || m.touched || m.nonce != e.nonce()) {
                return null;
            }
            ms.add(m);
        }
        List<ReceivedMessage> out = new ArrayList<>();
        for (Message m : ms) {
            q.transition(m, Message.State.INFLIGHT, now + vt * 1000L);
            b.put(Keyspace.MESSAGE_STATE, Keys.message(q.id, m.seq), m.encodeState());
            out.add(received(q, m, engine.load(q, m)));
        }
        return out;
    }

    /** Delivers {@code m}, or moves it to the dead-letter queue (returns null) when it has been received too often. */
    private ReceivedMessage deliver(QueueState q, Message m, int vt, long nonce, long now, StoreBatch b) {
        StoredMessage sm = engine.loadForDelivery(q, m);
        RedrivePolicy rp = q.settings.redrivePolicy;
        if (rp != null && m.receiveCount >= rp.maxReceiveCount()) {
            QueueState dlq = engine.queues.byArn.get(rp.deadLetterTargetArn());
            if (dlq != null && dlq != q) {
                engine.transfer(q, m, sm, dlq, q.arn, now, b);
                return null;
            }
        }
        m.receiveCount++;
        if (m.receiveCount == 1) {
            m.firstReceiveAt = now;
        }
        m.lastReceiveAt = now;
        m.nonce = nonce;
        m.touched = false;
        q.releaseBody(m); // in flight now: a later receive reads the store
        q.transition(m, Message.State.INFLIGHT, now + vt * 1000L);
        b.put(Keyspace.MESSAGE_STATE, Keys.message(q.id, m.seq), m.encodeState());
        return received(q, m, sm);
    }

    static ReceivedMessage received(QueueState q, Message m, StoredMessage sm) {
        String handle = new ReceiptHandle(q.id, m.seq, m.receiveCount, m.nonce).encode();
        return new ReceivedMessage(sm.messageId(), handle, sm.body(), sm.attributes(), sm.senderId(), sm.sentAt(),
                m.receiveCount, m.firstReceiveAt, SendRules.wireSequenceNumber(q, sm.sequenceNumber()), q.fifo ? sm.deduplicationId() : null,
                sm.groupId(), sm.awsTraceHeader(), sm.sourceArn(), sm.bodyDigest());
    }
}
