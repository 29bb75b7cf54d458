package io.hikyaku.simulation;

import io.hikyaku.engine.AttributeUpdate;
import io.hikyaku.engine.BatchOutcome;
import io.hikyaku.engine.CreateQueue;
import io.hikyaku.engine.Durable;
import io.hikyaku.engine.EngineException;
import io.hikyaku.engine.PeekPage;
import io.hikyaku.engine.QueueCounts;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.QueueInfo;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.ReceiveMessages;
import io.hikyaku.engine.ReceivedMessage;
import io.hikyaku.engine.RedrivePolicy;
import io.hikyaku.engine.SendMessage;
import io.hikyaku.engine.SendResult;
import io.hikyaku.engine.Ticked;
import io.hikyaku.engine.VisibilityChange;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.engine.store.Store;
import io.hikyaku.journal.MemoryJournal;
import io.hikyaku.simulation.Model.Msg;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * One seeded run: a random workload on the real {@link QueueEngine} over a {@link SimStore}, with
 * time jumps, crashes (the engine is dropped and a new one loaded from the store, as a restarted
 * server does) and store faults (the failed command is answered with an error and the engine is
 * reloaded from the store, as the api's recovery does). Every answer is checked against the
 * {@link Model}, and the queues' counts and visible messages are compared with it at random
 * points. Everything the engine answers goes into a SHA-256 digest: the same seed must give the
 * same digest.
 *
 * <p>Nothing here reads a clock or shares a random source: time is {@link #now}, ids and nonces come
 * from counters, all choices from one {@code Random(seed)}.
 */
final class Simulation {

    static final String ACCOUNT = "000000000000";
    static final String REGION = "us-east-1";
    static final long START = 1_700_000_000_000L;
    /** {@code -Dsim.trace=true}: print every observation (for replaying one seed). */
    private static final boolean PRINT_TRACE = Boolean.getBoolean("sim.trace");

    /** How a run's store is made and reopened after a crash. */
    interface Disk {
        Store open();

        /** After a crash: the store to load from (the same one, or the same files reopened). */
        Store reopen(Store crashed);

        static Disk memory() {
            return new Disk() {
                public Store open() {
                    return new MemoryStore();
                }

                public Store reopen(Store crashed) {
                    return crashed; // the heap plays the disk: everything written survives
                }
            };
        }
    }

    /** Counters a run reports. */
    record Stats(int steps, int crashes, int faults, int delivered, int moved, int sent) {}

    private final long seed;
    private final int steps;
    private final Disk diskFactory;
    private final Random rnd;
    private final Model model = new Model();
    private final Map<String, QueueRef> refs = new HashMap<>();
    private final List<Handle> handles = new ArrayList<>();
    private final MessageDigest digest;
    /**
     * Every command applied, every load and every injected fault, in the journal's file format: a
     * failing seed is written out and replayed with {@code hikyaku replay}. The store kind recorded
     * is "rocksdb": the simulated store keeps its data as a disk store does (not ephemeral), so a
     * replay runs over RocksDB or another non-ephemeral store.
     */
    private final MemoryJournal journal = new MemoryJournal(REGION, true, "rocksdb");
    /** The latest trace lines, shown with a failure. */
    private final java.util.ArrayDeque<String> recent = new java.util.ArrayDeque<>();
    private SimStore store;
    private QueueEngine engine;
    private long now = START;
    private long ids;
    private long nonces;
    private int step;
    private int crashes;
    private int delivered;
    private int moved;
    private int sent;

    /** A receipt handle a consumer holds (possibly stale). */
    private record Handle(String queue, String messageId, String handle) {}

    Simulation(long seed, int steps, Disk disk) {
        this.seed = seed;
        this.steps = steps;
        this.diskFactory = disk;
        this.rnd = new Random(seed);
        try {
            this.digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs the workload; returns the digest of everything observed (hex). */
    String run() {
        store = new SimStore(diskFactory.open());
        try {
            engine = reload();
            createQueues();
            for (step = 0; step < steps; step++) {
                now += rnd.nextInt(5) == 0 ? 0 : rnd.nextInt(1500); // equal stamps are fine
                model.expireAll(now);
                oneStep();
                model.expireAll(now); // a shorter retention period expires messages at once
                for (Model.Queue q : model.queues.values()) {
                    if (rnd.nextInt(3) == 0) {
                        checkQueue(q);
                    }
                }
                if (rnd.nextInt(8) == 0) {
                    checkDiskMatchesMemory();
                }
            }
            now += 1;
            model.expireAll(now);
            for (Model.Queue q : model.queues.values()) {
                checkQueue(q); // the final snapshot goes into the digest too
            }
            journal.stopped(engine); // the state's digest, which the journal's replay must reach
        } finally {
            store.close();
        }
        return hex(digest.digest());
    }

    /** The run's journal so far (complete after {@link #run}, up to the failing command after a failure). */
    MemoryJournal journal() {
        return journal;
    }

    Stats stats() {
        return new Stats(steps, crashes, (int) store.injected, delivered, moved, sent);
    }

    // ---- setup ------------------------------------------------------------------------------

    private void createQueues() {
        int n = 1 + rnd.nextInt(3);
        for (int i = 0; i < n; i++) {
            boolean fifo = rnd.nextBoolean();
            Model.Queue dlq = null;
            if (rnd.nextInt(3) > 0) {
                dlq = create("dlq" + i, fifo, false, 0, 30, 60 * (1 + rnd.nextInt(10)), null, 0);
            }
            int delay = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(10) : 0;
            int visibility = rnd.nextInt(6) == 0 ? 0 : 1 + rnd.nextInt(40);
            int retention = rnd.nextInt(3) == 0 ? 60 + rnd.nextInt(600) : 345_600;
            create("q" + i, fifo, fifo && rnd.nextBoolean(), delay, visibility, retention, dlq, 1 + rnd.nextInt(4));
        }
    }

    private Model.Queue create(String base, boolean fifo, boolean contentDedup, int delay, int visibility,
                               int retention, Model.Queue dlq, int maxReceiveCount) {
        String name = fifo ? base + ".fifo" : base;
        Map<String, String> attrs = new LinkedHashMap<>();
        if (fifo) {
            attrs.put("FifoQueue", "true");
            if (contentDedup) {
                attrs.put("ContentBasedDeduplication", "true");
            }
        }
        attrs.put("DelaySeconds", Integer.toString(delay));
        attrs.put("VisibilityTimeout", Integer.toString(visibility));
        attrs.put("MessageRetentionPeriod", Integer.toString(retention));
        RedrivePolicy redrive = null;
        if (dlq != null) {
            redrive = new RedrivePolicy(dlq.arn, maxReceiveCount);
            attrs.put("RedrivePolicy", "{\"deadLetterTargetArn\":\"" + dlq.arn + "\",\"maxReceiveCount\":\""
                    + maxReceiveCount + "\"}");
        }
        AttributeUpdate update = new AttributeUpdate(attrs, redrive, null);
        QueueInfo info = must("createQueue " + name,
                () -> apply(new Command.CreateQueue(new CreateQueue(ACCOUNT, REGION, name, update, null, now))));
        if (info == null) {
            throw fail("createQueue " + name + " failed without a fault");
        }
        Model.Queue q = new Model.Queue(name, info.arn(), fifo, contentDedup, delay, visibility, retention);
        q.deadLetter = dlq;
        q.maxReceiveCount = maxReceiveCount;
        model.queues.put(name, q);
        refs.put(name, new QueueRef(ACCOUNT, name));
        trace("create", name, info.arn());
        return q;
    }

    // ---- the workload ------------------------------------------------------------------------

    private void oneStep() {
        int op = rnd.nextInt(100);
        if (op < 22) {
            send(pickQueue(), 1);
        } else if (op < 30) {
            send(pickQueue(), 2 + rnd.nextInt(4));
        } else if (op < 55) {
            receive(pickQueue());
        } else if (op < 66) {
            delete(1);
        } else if (op < 70) {
            delete(2 + rnd.nextInt(3));
        } else if (op < 77) {
            changeVisibility(1);
        } else if (op < 79) {
            changeVisibility(2 + rnd.nextInt(3));
        } else if (op < 80) {
            purge(pickQueue());
        } else if (op < 82) {
            setAttributes(pickQueue());
        } else if (op < 95) {
            timeJump();
        } else {
            crash();
        }
    }

    private Model.Queue pickQueue() {
        List<Model.Queue> qs = new ArrayList<>(model.queues.values());
        return qs.get(rnd.nextInt(qs.size()));
    }

    /** Arms a store fault for the next command now and then. */
    private void maybeFault() {
        store.beginCommand();
        if (rnd.nextInt(25) == 0) {
            SimStore.Fault fault = rnd.nextBoolean() ? SimStore.Fault.WRITE : SimStore.Fault.FSYNC;
            int skip = rnd.nextInt(2);
            store.arm(fault, skip);
            journal.fault(skip, fault == SimStore.Fault.FSYNC);
        }
    }

    /**
     * Ends a command: after a store failure the engine is rebuilt from the store, as the api's
     * recovery does (memory may be ahead of the disk). Returns whether the command took effect.
     */
    private boolean settle(Durable<?> result) {
        SimStore.Outcome outcome = store.endCommand();
        if (result != null && result.written().isCompletedExceptionally() && !outcome.failed()) {
            throw fail("a write future failed but the store saw no failure");
        }
        if (outcome.failed()) {
            store.resume();
            engine = reload();
            trace("recovered", Boolean.toString(outcome.applied()));
        }
        return outcome.applied();
    }

    private void send(Model.Queue q, int count) {
        List<SendMessage> entries = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            entries.add(newMessage(q));
        }
        maybeFault();
        Durable<?> d;
        List<SendResult> results = new ArrayList<>();
        try {
            if (count == 1) {
                Durable<SendResult> one = apply(new Command.SendMessage(refs.get(q.name), entries.get(0), now));
                results.add(one.value());
                d = one;
            } else {
                Durable<List<BatchOutcome<SendResult>>> batch = apply(new Command.SendMessageBatch(refs.get(q.name), entries, now));
                for (BatchOutcome<SendResult> o : batch.value()) {
                    if (o.error() != null) {
                        throw fail("batch send entry refused: " + o.error().errorType() + " " + o.error().getMessage());
                    }
                    results.add(o.value());
                }
                d = batch;
            }
        } catch (EngineException e) {
            throw fail("send to " + q.name + " refused: " + e.errorType() + " " + e.getMessage());
        }
        if (!settle(d)) {
            trace("send-failed", q.name);
            return;
        }
        for (int i = 0; i < count; i++) {
            applySend(q, entries.get(i), results.get(i));
        }
    }

    private SendMessage newMessage(Model.Queue q) {
        long n = ++ids;
        String id = String.format("%08x-0000-4000-8000-%012x", seed & 0xffffffffL, n);
        String body = rnd.nextInt(3) == 0 ? "same-" + rnd.nextInt(4) : "body-" + n;
        String group = null;
        String dedupId = null;
        Integer delay = null;
        if (q.fifo) {
            group = "g" + rnd.nextInt(4);
            if (!q.contentDedup || rnd.nextBoolean()) {
                dedupId = "d" + rnd.nextInt(12);
            }
        } else {
            if (rnd.nextInt(3) == 0) {
                group = "t" + rnd.nextInt(3);
            }
            if (rnd.nextInt(4) == 0) {
                delay = rnd.nextInt(16);
            }
        }
        return new SendMessage(body, null, null, delay, group, dedupId, ACCOUNT, id);
    }

    private void applySend(Model.Queue q, SendMessage s, SendResult r) {
        String key = s.deduplicationId() != null ? "i:" + s.deduplicationId() : "c:" + s.body();
        Model.Dedup seen = q.fifo ? q.dedupAt(key, now) : null;
        trace("sent", q.name, r.messageId(), String.valueOf(r.sequenceNumber()));
        if (seen != null) {
            expect(r.messageId().equals(seen.messageId()) && r.sequenceNumber().equals(seen.sequenceNumber()),
                    "a duplicate send within 5 minutes (" + key + ") must return the first message " + seen.messageId()
                            + "/" + seen.sequenceNumber() + ", got " + r.messageId() + "/" + r.sequenceNumber());
            return;
        }
        expect(r.messageId().equals(s.messageId()), "send returned message id " + r.messageId() + " for " + s.messageId());
        if (q.fifo) {
            expect(r.sequenceNumber() != null && r.sequenceNumber().compareTo(q.lastSequenceNumber) > 0,
                    "FIFO sequence numbers must grow: " + r.sequenceNumber() + " after " + q.lastSequenceNumber);
            q.lastSequenceNumber = r.sequenceNumber();
            q.dedup.put(key, new Model.Dedup(r.messageId(), r.sequenceNumber(), now + Model.DEDUP_WINDOW_MS));
        }
        int delay = s.delaySeconds() != null ? s.delaySeconds() : q.delaySeconds;
        q.live.put(r.messageId(), new Msg(r.messageId(), s.body(), s.groupId(), now, now + delay * 1000L,
                r.sequenceNumber()));
        sent++;
    }

    private void receive(Model.Queue q) {
        int max = 1 + rnd.nextInt(10);
        Integer vt = rnd.nextInt(5) < 3 ? null : (rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(41));
        List<Msg> candidates = new ArrayList<>(); // may be moved to the DLQ instead of delivered
        if (q.deadLetter != null) {
            for (Msg m : q.live.values()) {
                if (m.visible(now) && m.receiveCount >= q.maxReceiveCount) {
                    candidates.add(m);
                }
            }
        }
        maybeFault();
        Durable<List<ReceivedMessage>> d;
        try {
            d = apply(new Command.ReceiveMessage(refs.get(q.name), new ReceiveMessages(max, vt, null, ++nonces, now)));
        } catch (EngineException e) {
            throw fail("receive from " + q.name + " refused: " + e.errorType() + " " + e.getMessage());
        }
        if (!settle(d)) {
            trace("receive-failed", q.name);
            return;
        }
        List<ReceivedMessage> got = d.value();
        StringBuilder t = new StringBuilder();
        for (ReceivedMessage r : got) {
            t.append(r.messageId()).append('/').append(r.receiptHandle()).append('/').append(r.approximateReceiveCount())
                    .append('/').append(r.sequenceNumber()).append(' ');
        }
        trace("received", q.name, Integer.toString(max), String.valueOf(vt), t.toString());
        expect(got.size() <= max, "received " + got.size() + " > MaxNumberOfMessages " + max);
        Set<String> returned = new HashSet<>();
        for (ReceivedMessage r : got) {
            Msg m = q.live.get(r.messageId());
            expect(m != null, "delivered " + r.messageId() + " from " + q.name
                    + ", which the model says is not there (never acknowledged, deleted, purged, expired or moved)");
            expect(returned.add(r.messageId()), "delivered " + r.messageId() + " twice in one receive");
            expect(m.visible(now), "delivered " + m.id + " while invisible (available at " + m.availableAt
                    + ", in flight until " + m.invisibleUntil + ", now " + now + ")");
            expect(q.deadLetter == null || m.receiveCount < q.maxReceiveCount,
                    "delivered " + m.id + " with receive count " + m.receiveCount + " >= maxReceiveCount "
                            + q.maxReceiveCount + " instead of moving it to the dead-letter queue");
            expect(r.approximateReceiveCount() == m.receiveCount + 1, "ApproximateReceiveCount of " + m.id + " is "
                    + r.approximateReceiveCount() + ", expected " + (m.receiveCount + 1));
            expect(r.body().equals(m.body), "body of " + m.id + " changed");
            expect(r.sentTimestamp() == m.sentAt, "SentTimestamp of " + m.id + " is " + r.sentTimestamp() + ", expected " + m.sentAt);
            expect(java.util.Objects.equals(r.groupId(), m.group), "MessageGroupId of " + m.id + " changed");
            expect(java.util.Objects.equals(r.deadLetterQueueSourceArn(), m.sourceArn), "DeadLetterQueueSourceArn of " + m.id);
            if (q.fifo) {
                expect(r.sequenceNumber().equals(m.sequenceNumber), "SequenceNumber of " + m.id + " changed");
            }
        }
        List<Msg> stayed = resolveMoves(q, candidates, returned);
        if (q.fifo) {
            checkFifoOrder(q, got);
        }
        int effective = vt != null ? vt : q.visibilitySeconds;
        for (ReceivedMessage r : got) {
            Msg m = q.live.get(r.messageId());
            m.receiveCount++;
            m.invisibleUntil = now + effective * 1000L;
            m.handle = r.receiptHandle();
            m.lastReceiveAt = now;
            handles.add(new Handle(q.name, m.id, r.receiptHandle()));
            delivered++;
        }
        if (handles.size() > 64) {
            handles.subList(0, handles.size() - 64).clear();
        }
        if (got.size() < max) {
            // Nothing deliverable may be left behind by a short receive (the engine is not sampled
            // like SQS's short polling: it sees the whole queue).
            // (A message returned with VisibilityTimeout=0 is visible again at once: not left behind.)
            for (Msg m : q.live.values()) {
                boolean head = !q.fifo || q.group(m.group).get(0) == m;
                expect(!(head && m.visible(now) && !returned.contains(m.id)), "receive returned " + got.size() + " < " + max + " but "
                        + m.id + " was deliverable" + (stayed.contains(m) ? " (or movable to the DLQ)" : ""));
            }
        }
    }

    /**
     * Which of the visible, too-often-received messages the receive moved to the dead-letter queue:
     * those it neither returned nor left visible in the source (seen by a pure peek). Returns the
     * ones still in the source.
     */
    private List<Msg> resolveMoves(Model.Queue q, List<Msg> candidates, Set<String> returned) {
        List<Msg> stayed = new ArrayList<>();
        if (candidates.isEmpty()) {
            return stayed;
        }
        Map<String, ReceivedMessage> inSource = peekAll(q);
        Model.Queue dlq = q.deadLetter;
        Map<String, ReceivedMessage> inDlq = null;
        String dlqBefore = dlq.lastSequenceNumber;
        for (Msg m : candidates) {
            expect(!returned.contains(m.id), "delivered " + m.id + " past maxReceiveCount");
            if (inSource.containsKey(m.id)) {
                stayed.add(m);
                continue;
            }
            q.live.remove(m.id);
            moved++;
            if (inDlq == null) {
                inDlq = peekAll(dlq);
            }
            ReceivedMessage there = inDlq.get(m.id);
            m.sourceArn = q.arn;
            m.availableAt = now;
            m.invisibleUntil = Long.MIN_VALUE;
            m.handle = null;
            if (dlq.fifo) {
                m.sentAt = now;
            }
            trace("moved", m.id, dlq.name);
            if (there == null) {
                expect(m.sentAt + dlq.retentionSeconds * 1000L <= now, m.id + " left " + q.name
                        + " but is not visible in its dead-letter queue " + dlq.name);
                continue;
            }
            expect(there.approximateReceiveCount() == m.receiveCount, "a move to the DLQ changed the receive count of " + m.id);
            expect(q.arn.equals(there.deadLetterQueueSourceArn()), "DeadLetterQueueSourceArn of moved " + m.id);
            if (dlq.fifo) {
                // moves within one receive happen in delivery order, not in this loop's order
                expect(there.sequenceNumber().compareTo(dlqBefore) > 0, "DLQ sequence numbers must grow");
                if (there.sequenceNumber().compareTo(dlq.lastSequenceNumber) > 0) {
                    dlq.lastSequenceNumber = there.sequenceNumber();
                }
                m.sequenceNumber = there.sequenceNumber();
            }
            dlq.live.put(m.id, m);
        }
        return stayed;
    }

    /** FIFO: what a receive returned of each group is the group's oldest live messages, in order. */
    private void checkFifoOrder(Model.Queue q, List<ReceivedMessage> got) {
        Map<String, List<String>> byGroup = new LinkedHashMap<>();
        for (ReceivedMessage r : got) {
            byGroup.computeIfAbsent(r.groupId(), g -> new ArrayList<>()).add(r.messageId());
        }
        for (Map.Entry<String, List<String>> e : byGroup.entrySet()) {
            List<Msg> group = q.group(e.getKey());
            List<String> oldest = new ArrayList<>();
            for (int i = 0; i < e.getValue().size() && i < group.size(); i++) {
                oldest.add(group.get(i).id);
            }
            expect(oldest.equals(e.getValue()), "FIFO group " + e.getKey() + " of " + q.name + " delivered "
                    + e.getValue() + " but its oldest messages are " + oldest);
        }
    }

    private void delete(int count) {
        Handle first = pickHandle();
        if (first == null) {
            return;
        }
        Model.Queue q = model.queues.get(first.queue());
        List<Handle> picked = new ArrayList<>(List.of(first));
        for (int i = 1; i < count; i++) {
            Handle h = pickHandle();
            if (h.queue().equals(q.name)) {
                picked.add(h);
            }
        }
        List<String> texts = picked.stream().map(Handle::handle).toList();
        maybeFault();
        Durable<?> d;
        List<EngineException> errors = new ArrayList<>();
        try {
            if (picked.size() == 1) {
                d = apply(new Command.DeleteMessage(refs.get(q.name), texts.get(0), now));
                errors.add(null);
            } else {
                Durable<List<BatchOutcome<Void>>> b = apply(new Command.DeleteMessageBatch(refs.get(q.name), texts, now));
                b.value().forEach(o -> errors.add(o.error()));
                d = b;
            }
        } catch (EngineException e) {
            if (picked.size() != 1) {
                throw fail("delete batch refused as a whole: " + e.errorType());
            }
            d = null;
            errors.add(e);
        }
        if (!settle(d)) {
            trace("delete-failed", q.name);
            return;
        }
        for (int i = 0; i < picked.size(); i++) {
            Handle h = picked.get(i);
            EngineException error = errors.get(i);
            trace("delete", h.messageId(), error == null ? "ok" : error.errorType());
            Msg m = q.live.get(h.messageId());
            // A deleted (or moved, expired, purged) message's handle deletes nothing and succeeds; a
            // FIFO queue takes only the current handle of a message in flight.
            boolean ok = m == null || !q.fifo || (m.inFlight(now) && h.handle().equals(m.handle));
            expect(ok == (error == null), "DeleteMessage of " + h.messageId() + " in " + q.name + ": model says "
                    + (ok ? "success" : "refusal") + ", engine said " + (error == null ? "success" : error.errorType()));
            if (ok && m != null) {
                q.live.remove(m.id);
            }
        }
    }

    private void changeVisibility(int count) {
        Handle first = pickHandle();
        if (first == null) {
            return;
        }
        Model.Queue q = model.queues.get(first.queue());
        List<Handle> picked = new ArrayList<>(List.of(first));
        for (int i = 1; i < count; i++) {
            Handle h = pickHandle();
            if (h.queue().equals(q.name) && picked.stream().noneMatch(p -> p.messageId().equals(h.messageId()))) {
                picked.add(h);
            }
        }
        List<Integer> timeouts = new ArrayList<>();
        for (int i = 0; i < picked.size(); i++) {
            timeouts.add(rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(61));
        }
        maybeFault();
        Durable<?> d;
        List<EngineException> errors = new ArrayList<>();
        try {
            if (picked.size() == 1) {
                d = apply(new Command.ChangeVisibility(refs.get(q.name), picked.get(0).handle(), timeouts.get(0), now));
                errors.add(null);
            } else {
                List<VisibilityChange> changes = new ArrayList<>();
                for (int i = 0; i < picked.size(); i++) {
                    changes.add(new VisibilityChange(picked.get(i).handle(), timeouts.get(i)));
                }
                Durable<List<BatchOutcome<Void>>> b = apply(new Command.ChangeVisibilityBatch(refs.get(q.name), changes, now));
                b.value().forEach(o -> errors.add(o.error()));
                d = b;
            }
        } catch (EngineException e) {
            if (picked.size() != 1) {
                throw fail("visibility batch refused as a whole: " + e.errorType());
            }
            d = null;
            errors.add(e);
        }
        if (!settle(d)) {
            trace("visibility-failed", q.name);
            return;
        }
        for (int i = 0; i < picked.size(); i++) {
            Handle h = picked.get(i);
            EngineException error = errors.get(i);
            trace("visibility", h.messageId(), timeouts.get(i).toString(), error == null ? "ok" : error.errorType());
            Msg m = q.live.get(h.messageId());
            boolean current = m != null && h.handle().equals(m.handle);
            // In flight: a standard queue takes any of the message's handles, a FIFO queue the current
            // one. Visible again: a standard queue still takes the latest receive's handle.
            boolean ok = m != null && (m.inFlight(now) ? !q.fifo || current : !q.fifo && current && m.visible(now));
            expect(ok == (error == null), "ChangeMessageVisibility of " + h.messageId() + " in " + q.name
                    + ": model says " + (ok ? "success" : "refusal") + ", engine said "
                    + (error == null ? "success" : error.errorType() + " " + error.getMessage()));
            if (ok) {
                m.invisibleUntil = now + timeouts.get(i) * 1000L;
            }
        }
    }

    private Handle pickHandle() {
        if (handles.isEmpty()) {
            return null;
        }
        return handles.get(handles.size() - 1 - rnd.nextInt(Math.min(handles.size(), 24)));
    }

    private void purge(Model.Queue q) {
        maybeFault();
        Durable<Void> d = null;
        EngineException error = null;
        try {
            d = apply(new Command.PurgeQueue(refs.get(q.name), now));
        } catch (EngineException e) {
            error = e;
        }
        if (!settle(d)) {
            trace("purge-failed", q.name);
            return;
        }
        trace("purge", q.name, error == null ? "ok" : error.errorType());
        boolean ok = q.lastPurgeAt == Long.MIN_VALUE || now >= q.lastPurgeAt + Model.PURGE_COOLDOWN_MS;
        expect(ok == (error == null), "PurgeQueue of " + q.name + ": model says " + (ok ? "success" : "refusal")
                + ", engine said " + (error == null ? "success" : error.errorType()));
        if (ok) {
            q.live.clear();
            q.dedup.clear();
            q.lastPurgeAt = now;
        }
    }

    private void setAttributes(Model.Queue q) {
        boolean visibility = rnd.nextBoolean();
        int value = visibility ? rnd.nextInt(41) : 60 + rnd.nextInt(900);
        String name = visibility ? "VisibilityTimeout" : "MessageRetentionPeriod";
        maybeFault();
        Durable<Void> d;
        try {
            d = apply(new Command.SetQueueAttributes(refs.get(q.name),
                    AttributeUpdate.of(Map.of(name, Integer.toString(value))), now));
        } catch (EngineException e) {
            throw fail("SetQueueAttributes " + name + "=" + value + " refused: " + e.errorType());
        }
        if (!settle(d)) {
            trace("attributes-failed", q.name);
            return;
        }
        trace("attributes", q.name, name, Integer.toString(value));
        if (visibility) {
            q.visibilitySeconds = value;
        } else {
            q.retentionSeconds = value;
        }
    }

    private void timeJump() {
        int kind = rnd.nextInt(10);
        long jump = kind < 6 ? rnd.nextInt(10_000) : kind < 9 ? rnd.nextInt(60_000) : 290_000 + rnd.nextInt(30_000);
        now += jump;
        model.expireAll(now);
        maybeFault();
        Ticked t = apply(new Command.Tick(now)).value();
        settle(new Durable<>(null, t.written()));
        TreeSet<String> names = new TreeSet<>();
        t.queuesWithNewVisibleMessages().forEach(r -> names.add(r.name()));
        trace("tick", Long.toString(now), names.toString());
    }

    private void crash() {
        crashes++;
        store.disk(diskFactory.reopen(store.disk()));
        engine = reload();
        trace("crash", Long.toString(now));
    }

    /** A new engine loaded from the store (a restart, or the recovery after a fault), journaled as a load. */
    private QueueEngine reload() {
        QueueEngine loaded = load();
        journal.loaded(now, loaded);
        return loaded;
    }

    private QueueEngine load() {
        return new QueueEngine(store, REGION, now);
    }

    /**
     * Applies {@code command} through the engine's one door and journals it (before: a command
     * that throws is in the journal too); a refusal is thrown as the {@link EngineException} it carries.
     */
    private <R> Durable<R> apply(Command<R> command) {
        journal.applied(command);
        return engine.apply(command).durable();
    }

    // ---- checks ------------------------------------------------------------------------------

    /** Exact counts and the exact set of visible messages (a pure peek), against the model. */
    private void checkQueue(Model.Queue q) {
        store.beginCommand();
        apply(new Command.Advance(refs.get(q.name), now)); // what is due by now, then a pure read
        QueueCounts c = engine.counts(refs.get(q.name));
        if (store.endCommand().failed()) {
            throw fail("a count wrote and failed with no fault armed");
        }
        long visible = q.visible(now);
        long inFlight = q.inFlight(now);
        long delayed = q.delayed(now);
        Map<String, ReceivedMessage> peeked = peekAll(q);
        Set<String> expected = new TreeSet<>();
        q.live.values().stream().filter(m -> m.visible(now)).forEach(m -> expected.add(m.id));
        expect(expected.equals(new TreeSet<>(peeked.keySet())), "visible messages of " + q.name + " are "
                + new TreeSet<>(peeked.keySet()) + ", the model says " + expected);
        expect(c.visible() == visible && c.notVisible() == inFlight && c.delayed() == delayed,
                "counts of " + q.name + " are " + c + ", the model says visible=" + visible + " notVisible=" + inFlight
                        + " delayed=" + delayed);
        trace("check", q.name, c.toString(), peeked.keySet().toString());
    }

    /**
     * What a restart would load equals what the running engine holds: a second engine loaded from
     * the store (loading only reads) shows the same counts and visible messages for every queue.
     */
    private void checkDiskMatchesMemory() {
        QueueEngine running = engine;
        QueueEngine loaded = load();
        for (Model.Queue q : model.queues.values()) {
            engine = running;
            Map<String, ReceivedMessage> inMemory = peekAll(q);
            engine = loaded;
            Map<String, ReceivedMessage> onDisk = peekAll(q);
            engine = running;
            expect(inMemory.keySet().equals(onDisk.keySet()), "the store and the running engine disagree on the visible "
                    + "messages of " + q.name + ": loaded " + onDisk.keySet() + ", running " + inMemory.keySet());
        }
        trace("disk-matches", Long.toString(now));
    }

    /** Every message visible in {@code q} at {@code now}, by message id, in sequence order (pure). */
    private Map<String, ReceivedMessage> peekAll(Model.Queue q) {
        Map<String, ReceivedMessage> out = new LinkedHashMap<>();
        long from = 0;
        while (true) {
            PeekPage page = engine.peekMessages(refs.get(q.name), from, 10, now);
            page.messages().forEach(m -> out.put(m.messageId(), m));
            if (page.nextSeq() == null) {
                return out;
            }
            from = page.nextSeq();
        }
    }

    private <T> T must(String what, Supplier<Durable<T>> command) {
        maybeFault();
        Durable<T> d;
        try {
            d = command.get();
        } catch (EngineException e) {
            throw fail(what + " refused: " + e.errorType() + " " + e.getMessage());
        }
        if (!settle(d)) {
            store.beginCommand();
            d = command.get(); // setup must happen: try once more (no fault is armed now)
            store.endCommand();
        }
        return d.value();
    }

    private void expect(boolean condition, String what) {
        if (!condition) {
            throw fail(what);
        }
    }

    private AssertionError fail(String what) {
        return new AssertionError("step " + step + " at t=" + (now - START) + " ms: " + what
                + "\nlatest steps (t = ms since start):\n  " + String.join("\n  ", recent));
    }

    private void trace(String... parts) {
        String line = String.join("|", parts);
        digest.update(line.getBytes(StandardCharsets.UTF_8));
        if (recent.size() == 40) {
            recent.removeFirst();
        }
        recent.addLast(step + " t=" + (now - START) + " " + line);
        if (PRINT_TRACE) {
            System.out.println(recent.getLast());
        }
        digest.update((byte) '\n');
    }

    private static String hex(byte[] bytes) {
        StringBuilder s = new StringBuilder();
        for (byte b : bytes) {
            s.append(String.format("%02x", b));
        }
        return s.toString();
    }
}
