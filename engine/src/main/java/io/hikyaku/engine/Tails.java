package io.hikyaku.engine;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.Store;
import io.hikyaku.engine.store.StoreBatch;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The spilled tails of all queues (ENGINE.md "Memory"). A queue's tail is every stored message
 * with seq >= {@code tailFrom}; the index holds exactly the messages below it, so paging the tail
 * in, in seq order, keeps FIFO order per group and oldest-first delivery. Pages are read with one
 * seek of the MESSAGES keyspace (heads only) and one of MESSAGE_STATE over the same range.
 * What is paged, and when, follows from the command sequence alone (deterministic).
 */
final class Tails {

    /** Messages one page-in reads at most. */
    static final int PAGE_CHUNK = 1024;
    /** Messages one tick pages in at most, over all queues (bounded work per tick). */
    static final int PAGE_PER_TICK = 8 * PAGE_CHUNK;
    /**
     * Tail keys one tick counts at most, over all queues (keys only, nothing decoded): about 5 ms
     * of iteration, so commands waiting on the applier wait little longer than for a page-in.
     */
    static final int COUNT_PER_TICK = 16 * PAGE_CHUNK;

    private final Store store;
    private final IndexBudget budget;
    /** Queues with a tail, in round-robin order for the tick's page-ins. */
    private final LinkedHashSet<QueueState> queues = new LinkedHashSet<>();
    /** Queues whose tail is not fully counted yet (after a load), in counting order. */
    private final LinkedHashSet<QueueState> counting = new LinkedHashSet<>();
    /** Tail messages deleted by the running command (its batch is not written yet). */
    private final Set<Long> deletedInCommand = new HashSet<>();

    Tails(Store store, IndexBudget budget) {
        this.store = store;
        this.budget = budget;
    }

    /** Registers {@code q} after a spill or a load that left it a tail. */
    void register(QueueState q) {
        if (q.hasTail()) {
            queues.add(q);
        }
        if (q.uncountedFrom < q.uncountedTo) {
            counting.add(q);
        }
    }

    void forget(QueueState q) {
        queues.remove(q);
        counting.remove(q);
    }

    boolean isEmpty() {
        return queues.isEmpty();
    }

    /** Fewest messages worth a page-in of {@code q}'s tail (a seek): a page, or half a small window. */
    private long threshold() {
        return Math.min(PAGE_CHUNK, Math.max(1, Math.min(budget.limit / 8, budget.window / 2)));
    }

    /**
     * True when the tick has work here: a tail not fully counted, or a queue with a tail whose
     * window and the budget have room for a page. O(queues with a tail).
     */
    boolean tickNeeded() {
        if (!counting.isEmpty()) {
            return true;
        }
        if (queues.isEmpty() || budget.free() < threshold()) {
            return false;
        }
        for (QueueState q : queues) {
            if (budget.room(q) >= threshold()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Before a command on {@code q}: pages a chunk in when the queue's index runs low (below half
     * its reserve) or its window and the budget have room for a page. Returns true when messages
     * became visible.
     */
    boolean onTouch(QueueState q, long now) {
        if (!q.hasTail()) {
            return false;
        }
        long room = budget.room(q);
        if (room <= 0 || room < threshold() && q.messages.size() >= IndexBudget.QUEUE_RESERVE / 2) {
            return false;
        }
        return pageIn(q, (int) Math.min(room, PAGE_CHUNK), now) > 0;
    }

    /**
     * Round-robin page-ins over the queues with tails while their windows and the budget have
     * room, then a chunk of counting; adds queues that gained visible messages.
     */
    void tick(long now, Registry registry, Set<QueueRef> woken) {
        int left = PAGE_PER_TICK;
        int visits = queues.size(); // each queue is looked at once per tick at most
        while (left > 0 && visits-- > 0 && budget.free() > 0) {
            Iterator<QueueState> it = queues.iterator();
            QueueState q = it.next();
            it.remove();
            int n = (int) Math.min(Math.min(PAGE_CHUNK, left), budget.room(q));
            if (n > 0) {
                int visibleBefore = q.visible;
                left -= Math.max(1, pageIn(q, n, now));
                if (q.visible > visibleBefore) {
                    woken.add(q.ref());
                }
                registry.reschedule(q);
            }
            register(q); // to the end of the round, if a tail is left
        }
        count(COUNT_PER_TICK);
    }

    /** Counts up to {@code max} uncounted tail keys, queue after queue (keys only). */
    void count(int max) {
        int left = max;
        while (left > 0 && !counting.isEmpty()) {
            QueueState q = counting.iterator().next();
            int budgetLeft = left;
            long[] n = {0};
            long[] next = {q.uncountedTo};
            store.scanFrom(Keyspace.MESSAGES, Keys.queue(q.id), Keys.message(q.id, q.uncountedFrom), 1, (k, v) -> {
                long seq = Keys.seqOf(k);
                if (seq >= q.uncountedTo) {
                    return false;
                }
                if (n[0] == budgetLeft) {
                    next[0] = seq;
                    return false;
                }
                n[0]++;
                return true;
            });
            left -= (int) Math.max(1, n[0]);
            q.tail += n[0];
            budget.spilled += n[0];
            q.uncountedFrom = next[0];
            if (q.uncountedFrom >= q.uncountedTo) {
                counting.remove(q);
                if (!q.hasTail()) {
                    queues.remove(q);
                }
            }
        }
    }

    /** True when the tail message {@code seq} is among those not counted yet. */
    private static boolean uncounted(QueueState q, long seq) {
        return seq >= q.uncountedFrom && seq < q.uncountedTo;
    }

    /**
     * Reads up to {@code n} messages of {@code q} with seq >= {@code from} from the store in seq
     * order, with their receive state (received ones INFLIGHT until visibleAt, the others DELAYED
     * until availableAt; the caller makes due ones visible): one seek of MESSAGES (heads only) and
     * one of MESSAGE_STATE over the same range. The loader reads each queue's head with it.
     */
    List<Message> read(QueueState q, long from, int n) {
        List<Message> got = new ArrayList<>(Math.min(n, PAGE_CHUNK));
        if (n <= 0) {
            return got;
        }
        byte[] prefix = Keys.queue(q.id);
        store.scanFrom(Keyspace.MESSAGES, prefix, Keys.message(q.id, from), StoredMessage.HEAD_BYTES, (k, head) -> {
            byte[] v = StoredMessage.headFits(head) ? head : store.get(Keyspace.MESSAGES, k);
            StoredMessage.Head h = StoredMessage.decodeHead(v);
            Message m = new Message(Keys.seqOf(k), h.groupId(), h.sentAt());
            m.state = Message.State.DELAYED;
            m.visibleAt = h.availableAt();
            m.rewritten = h.rewritten();
            got.add(m);
            return got.size() < n;
        });
        if (!got.isEmpty()) {
            long last = got.get(got.size() - 1).seq;
            int[] i = {0};
            store.scanFrom(Keyspace.MESSAGE_STATE, prefix, Keys.message(q.id, got.get(0).seq), 0, (k, v) -> {
                long seq = Keys.seqOf(k);
                if (seq > last) {
                    return false;
                }
                while (got.get(i[0]).seq < seq) {
                    i[0]++;
                }
                Message m = got.get(i[0]);
                if (m.seq == seq) {
                    m.decodeState(v);
                    m.state = m.receiveCount > 0 ? Message.State.INFLIGHT : Message.State.DELAYED;
                }
                return true;
            });
        }
        return got;
    }

    /**
     * Moves up to {@code max} messages from the front of {@code q}'s tail into its index, with
     * their receive state; due ones come back visible, as the loader does. Returns how many.
     * Messages paged in before the counting reached them are counted here (never twice).
     */
    int pageIn(QueueState q, int max, long now) {
        boolean counted = q.uncountedFrom >= q.uncountedTo;
        int n = (int) (counted ? Math.min(max, q.tail) : max);
        if (n <= 0) {
            return 0;
        }
        List<Message> got = read(q, q.tailFrom, n);
        long fromCounted = 0;
        for (Message m : got) {
            if (!uncounted(q, m.seq)) {
                fromCounted++;
            }
            if (m.visibleAt <= now) {
                m.state = Message.State.VISIBLE; // visibleAt stays: visible since then (FifoDelivery), as the loader does
            }
            q.add(m);
        }
        q.tail -= fromCounted;
        budget.spilled -= fromCounted;
        if (!got.isEmpty()) {
            long next = got.get(got.size() - 1).seq + 1;
            q.tailFrom = next;
            if (!counted && next > q.uncountedFrom) {
                q.uncountedFrom = Math.min(next, q.uncountedTo);
            }
        }
        if (got.size() < n) {
            // The store holds no more of this queue: nothing left to count, and a counted tail the
            // store does not hold was never expected, but never loop on it.
            budget.spilled -= q.tail;
            q.tail = 0;
            q.uncountedFrom = q.uncountedTo;
        }
        if (q.uncountedFrom >= q.uncountedTo) {
            counting.remove(q);
        }
        if (!q.hasTail()) {
            queues.remove(q);
        }
        return got.size();
    }

    // ---- the read-only peek past the index ----

    /**
     * Visits {@code q}'s tail messages with seq >= {@code from} in seq order, each with its stored
     * receive state (delay and visibility as a page-in would set them), until {@code visitor}
     * returns false or {@code maxSteps} were looked at. Returns the seq to continue from, or -1 at
     * the end. Reads the store only; changes nothing.
     */
    long visitFrom(QueueState q, long from, int maxSteps, java.util.function.Predicate<Message> visitor) {
        if (!q.hasTail()) {
            return -1;
        }
        long[] next = {-1};
        int[] steps = {0};
        store.scanFrom(Keyspace.MESSAGES, Keys.queue(q.id), Keys.message(q.id, Math.max(from, q.tailFrom)),
                StoredMessage.HEAD_BYTES, (k, head) -> {
                    long seq = Keys.seqOf(k);
                    if (steps[0]++ >= maxSteps) {
                        next[0] = seq;
                        return false;
                    }
                    byte[] v = StoredMessage.headFits(head) ? head : store.get(Keyspace.MESSAGES, k);
                    StoredMessage.Head h = StoredMessage.decodeHead(v);
                    Message m = new Message(seq, h.groupId(), h.sentAt());
                    m.state = Message.State.DELAYED;
                    m.visibleAt = h.availableAt();
                    byte[] state = store.get(Keyspace.MESSAGE_STATE, k);
                    if (state != null) {
                        m.decodeState(state);
                        m.state = m.receiveCount > 0 ? Message.State.INFLIGHT : Message.State.DELAYED;
                    }
                    if (!visitor.test(m)) {
                        next[0] = seq + 1;
                        return false;
                    }
                    return true;
                });
        return next[0];
    }

    // ---- commands on a message that lies in the tail (received before a restart, in flight at it) ----

    boolean holds(QueueState q, long seq) {
        return q.hasTail() && seq >= q.tailFrom;
    }

    /** Called at the start of every delete / visibility command. */
    void beginCommand() {
        if (!deletedInCommand.isEmpty()) {
            deletedInCommand.clear();
        }
    }

    /** DeleteMessage of a tail message: the same rules as for an indexed one, read from the store. */
    void delete(QueueState q, ReceiptHandle h, String receiptHandle, long now, StoreBatch b) {
        byte[] key = Keys.message(q.id, h.seq());
        byte[] stored = deletedInCommand.contains(h.seq()) ? null : store.get(Keyspace.MESSAGES, key);
        if (stored == null) {
            return; // already deleted: 200 again
        }
        byte[] state = store.get(Keyspace.MESSAGE_STATE, key);
        if (q.fifo) {
            Message m = stateOf(h.seq(), state);
            if (m == null || m.visibleAt <= now || m.receiveCount != h.receiveCount() || m.nonce != h.nonce()) {
                throw Texts.invalidValue(receiptHandle, "ReceiptHandle", Texts.HANDLE_EXPIRED);
            }
        }
        if (StoredMessage.isRewritten(stored)) {
            b.delete(Keyspace.MESSAGES, key); // written twice: SingleDelete would uncover the first
        } else {
            b.deleteOnceWritten(Keyspace.MESSAGES, key);
        }
        if (state != null) {
            b.delete(Keyspace.MESSAGE_STATE, key);
        }
        deletedInCommand.add(h.seq());
        if (!uncounted(q, h.seq())) { // an uncounted one is simply never counted
            q.tail--;
            budget.spilled--;
        }
        if (!q.hasTail()) {
            queues.remove(q);
        }
    }

    /** ChangeMessageVisibility of a tail message: checked and written like an indexed one's. */
    void changeVisibility(QueueState q, ReceiptHandle h, String receiptHandle, int vt, long now, StoreBatch b) {
        byte[] key = Keys.message(q.id, h.seq());
        if (deletedInCommand.contains(h.seq()) || store.get(Keyspace.MESSAGES, key) == null) {
            throw Texts.invalidValue(receiptHandle, "ReceiptHandle", Texts.NOT_AVAILABLE_FOR_CHANGE);
        }
        Message m = stateOf(h.seq(), store.get(Keyspace.MESSAGE_STATE, key));
        if (m == null || m.visibleAt <= now) {
            throw new EngineException(ErrorTypes.MESSAGE_NOT_INFLIGHT, "The specified message isn't in flight.");
        }
        if (q.fifo && (m.receiveCount != h.receiveCount() || m.nonce != h.nonce())) {
            throw Texts.invalidValue(receiptHandle, "ReceiptHandle", Texts.HANDLE_EXPIRED);
        }
        long visibleAt = now + vt * 1000L;
        if (visibleAt - m.lastReceiveAt > QueueEngine.MAX_VISIBILITY_MS) {
            throw Texts.invalidValue(vt, "VisibilityTimeout", Texts.VISIBILITY_LIMIT);
        }
        m.touched = true;
        m.visibleAt = visibleAt;
        b.put(Keyspace.MESSAGE_STATE, key, m.encodeState());
    }

    private static Message stateOf(long seq, byte[] state) {
        if (state == null) {
            return null;
        }
        Message m = new Message(seq, null, 0);
        m.decodeState(state);
        return m.receiveCount > 0 ? m : null;
    }
}
