package io.hikyaku.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.api.sse.MessageEncryption;
import io.hikyaku.api.sse.QueueSse;
import io.hikyaku.engine.command.Command;
import io.hikyaku.engine.Durable;
import io.hikyaku.engine.EngineException;
import io.hikyaku.engine.MessageAttribute;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.ReceiveMessages;
import io.hikyaku.engine.ReceivedMessage;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * ReceiveMessage with long polling. A receive that finds nothing and may wait is parked as a
 * {@link Waiter} (no thread); {@link #wake} retries the parked receives of a queue when it gains
 * visible messages, and {@link #expire} answers those whose wait is over with an empty result.
 * Everything that touches the engine or the waiters runs on the shard's applier thread; answers are
 * delivered through {@link Completions} after it.
 *
 * <p>A receive is answered once its own batch is durable (it shares the fsync of the sends and
 * deletes around it). The store applies batches in order, so that batch being durable means every
 * send whose message it returns is durable too: no client holds a message the disk may not have.
 * A receive whose batch fails is answered 503 and changed nothing (the engine is reloaded from the
 * store, see {@link EngineGate}). An empty answer waits for every write before it, for the same reason.
 */
final class Receiver {

    static final int EXPIRIES_PER_ROUND = 8;
    static final String MAX_REASON = "Must be between 1 and 10, if provided.";
    static final String WAIT_REASON = "Must be >= 0 and <= 20, if provided.";
    static final String VISIBILITY_REASON = "Must be >= 0 and <= 43200, if provided.";

    private final EngineGate gate;
    private final Ids ids;
    private final LongPolls polls = new LongPolls();
    /** Told each new wait deadline, so the sleeping timer thread wakes in time to expire it. */
    private final java.util.function.LongConsumer deadlineAt;
    /** A stop has begun: receives answer at once instead of parking. Applier only. */
    private boolean stopping;

    /** Encryption at rest: what opens sealed messages (and checks an SSE-KMS queue's key before a receive). */
    private final java.util.function.Supplier<MessageEncryption> encryption;

    Receiver(EngineGate gate, Ids ids, java.util.function.LongConsumer deadlineAt,
             java.util.function.Supplier<MessageEncryption> encryption) {
        this.gate = gate;
        this.ids = ids;
        this.deadlineAt = deadlineAt;
        this.encryption = encryption;
    }

    CompletableFuture<ObjectNode> receive(ApiRequest request, Input in) {
        int max = in.intInRange("MaxNumberOfMessages", 1, 1, 10, MAX_REASON);
        Long waitParam = in.integer("WaitTimeSeconds", WAIT_REASON);
        if (waitParam != null && (waitParam < 0 || waitParam > 20)) {
            throw Errors.invalidValue("WaitTimeSeconds", waitParam, WAIT_REASON);
        }
        Long visibility = in.integer("VisibilityTimeout", VISIBILITY_REASON);
        if (visibility != null && (visibility < Integer.MIN_VALUE || visibility > Integer.MAX_VALUE)) {
            throw Errors.invalidValue("VisibilityTimeout", visibility, VISIBILITY_REASON);
        }
        String attemptId = in.string("ReceiveRequestAttemptId");
        FifoIds.check("ReceiveRequestAttemptId", attemptId);
        ReceiveCall call = new ReceiveCall(max, visibility == null ? null : (int) (long) visibility,
                attemptId, ReceiveSelection.of(in), ids.receiptNonce(), in.caller());
        QueueRef queue = in.queue();

        CompletableFuture<ObjectNode> out = new CompletableFuture<>();
        Completions completions = new Completions();
        long[] parkedUntil = {Long.MAX_VALUE};
        gate.step(() -> {
            QueueEngine engine = gate.engine();
            long now = gate.now();
            checkKey(engine, queue, now, call.caller());
            Durable<List<ReceivedMessage>> got = gate.apply(new Command.ReceiveMessage(queue, command(call, now)));
            // a setting, not timer state: read after the receive (which refuses an unknown queue)
            int wait = stopping ? 0 : waitParam != null ? (int) (long) waitParam : queueWaitSeconds(engine, queue);
            if (!got.value().isEmpty() || wait == 0) {
                Durable<List<ReceivedMessage>> shown = got.value().isEmpty()
                        ? new Durable<>(got.value(), gate.barrier()) : got;
                completions.add(() -> answer(out, call, shown, queue));
            } else {
                parkedUntil[0] = now + wait * 1000L;
                polls.park(new Waiter(queue, call, parkedUntil[0], out));
            }
        });
        deadlineAt.accept(parkedUntil[0]);
        completions.run();
        return out;
    }

    /**
     * SSE-KMS: a receive that would take messages first checks that the caller may decrypt with the queue's key
     * (KMS.* errors), so a refused receive takes nothing. An empty queue needs no key, as on SQS.
     */
    private void checkKey(QueueEngine engine, QueueRef queue, long now, CallContext caller) {
        MessageEncryption enc = encryption.get();
        if (!enc.enabled()) {
            return;
        }
        QueueSse sse = QueueSse.of(engine.readQueueAttributes(queue, QueueSse.ATTRIBUTES));
        if (sse.mode() != QueueSse.Mode.KMS) {
            return;
        }
        gate.apply(new Command.Advance(queue, now));
        if (engine.hasDeliverable(queue)) {
            enc.checkReceive(sse, caller);
        }
    }

    /**
     * Retries the parked receives of {@code queue}, oldest first, while it has visible messages;
     * {@code now} is the stamp of the critical section this runs in.
     */
    void wake(QueueRef queue, long now, Completions completions) {
        if (!polls.hasWaiters(queue)) {
            return;
        }
        QueueEngine engine = gate.engine();
        ArrayDeque<Waiter> waiters = polls.of(queue);
        while (!waiters.isEmpty()) {
            Waiter w = waiters.peekFirst();
            if (w.done || w.future.isDone()) { // answered, or cancelled by a caller that went away
                w.done = true;
                waiters.pollFirst();
                continue;
            }
            boolean visible;
            try {
                gate.apply(new Command.Advance(queue, now));
                visible = engine.hasDeliverable(queue);
            } catch (EngineException gone) {
                queueDeleted(queue, completions); // the queue no longer exists: its waits end empty
                return;
            }
            if (!visible) {
                break;
            }
            Durable<List<ReceivedMessage>> got;
            try {
                got = gate.apply(new Command.ReceiveMessage(queue, command(w.call, now)));
            } catch (EngineException refused) {
                // This receive is refused (e.g. OverLimit): only its caller gets the error.
                waiters.pollFirst();
                w.done = true;
                completions.add(() -> w.future.completeExceptionally(EngineGate.translate(refused)));
                continue;
            }
            if (got.value().isEmpty()) {
                break;
            }
            waiters.pollFirst();
            w.done = true;
            completions.add(() -> answer(w.future, w.call, got, queue));
        }
        polls.compact(queue);
    }

    /**
     * Answers expired waits (an empty result), at most {@link #EXPIRIES_PER_ROUND} per timer round (a round ends with a
     * sleep of at least 1 ms). Waiters parked together time out together: 5,000 empty answers and the
     * 5,000 re-polls they provoke, all at once, queue every send and wake-up behind them on the event
     * loops (the long-poll wake-up tail in bench/results/2026-12-05-benchmarks-history.md). Paced, such a burst is answered over
     * ~0.6 s (~0.125 s per 1,000 waits that end together; an answer is at most that late, far inside any
     * SDK's read timeout), while sends and wake-ups interleave. 8 per round rather than 32 kept the
     * cores below saturation through the burst: wake-up p99 with 10,000 waiters went from 2.6-4.6 ms to
     * 0.8-1.5 ms in alternating runs (same file).
     */
    void expire(long now, Completions completions) {
        List<Waiter> expired = polls.expire(now, EXPIRIES_PER_ROUND);
        if (expired.isEmpty()) {
            return;
        }
        Durable<List<ReceivedMessage>> nothing = new Durable<>(List.of(), gate.barrier());
        for (Waiter w : expired) {
            completions.add(() -> answer(w.future, w.call, nothing, null));
        }
    }

    /** Storage failed: every waiter gets {@code error} (what it waited on may not be on disk). */
    void failAll(Exception error, Completions completions) {
        for (Waiter w : polls.removeAll()) {
            completions.add(() -> w.future.completeExceptionally(error));
        }
    }

    /** The queue was deleted: its waiters get an empty result. */
    void queueDeleted(QueueRef queue, Completions completions) {
        for (Waiter w : polls.removeQueue(queue)) {
            completions.add(() -> w.future.complete(Json.object()));
        }
    }

    /** Shutdown: every waiter gets an empty result. */
    void releaseAll(Completions completions) {
        stopWaiting(completions);
    }

    /** A stop begins: every waiter gets an empty result now, and no receive parks any more. Returns how many. */
    int stopWaiting(Completions completions) {
        stopping = true;
        int n = 0;
        for (Waiter w : polls.removeAll()) {
            completions.add(() -> w.future.complete(Json.object()));
            n++;
        }
        return n;
    }

    long nextDeadline() {
        return polls.nextDeadline();
    }

    int parkedCount() {
        return polls.size();
    }

    private static ReceiveMessages command(ReceiveCall call, long now) {
        return new ReceiveMessages(call.maxMessages(), call.visibilityTimeout(), call.receiveRequestAttemptId(),
                call.nonce(), now);
    }

    private static int queueWaitSeconds(QueueEngine engine, QueueRef queue) {
        Map<String, String> attrs = engine.readQueueAttributes(queue, List.of("ReceiveMessageWaitTimeSeconds"));
        String v = attrs.get("ReceiveMessageWaitTimeSeconds");
        return v == null ? 0 : Integer.parseInt(v);
    }

    /**
     * Renders now (on the applier, after the engine step) and hands the answer over once the sends of the
     * messages it returns are durable (an empty answer: once every write before it is, as a read's); the
     * receive's own write (in flight, receive count) is not waited for: if it is lost, the messages come
     * back early, as after a visibility timeout. The store completes futures on its one syncing thread,
     * which should only complete them.
     */
    private void answer(CompletableFuture<ObjectNode> out, ReceiveCall call, Durable<List<ReceivedMessage>> received,
                        QueueRef queue) {
        // On a standard queue the messages wait for what made them receivable, not for this receive's own
        // write (docs/operations.md, "What waits for the fsync"). A FIFO receive waits for its own write,
        // which covers the deletes that unlocked its groups. (A write refused at once is known: that
        // receive fails, as it changed nothing.)
        boolean ownWrite = received.value().isEmpty() || received.written().isCompletedExceptionally()
                || queue == null || queue.name().endsWith(".fifo");
        Durable<List<ReceivedMessage>> got = ownWrite ? received
                : new Durable<>(received.value(), gate.pendingSends().receivable(received.value()));
        if (MessageEncryption.anySealed(got.value())) { // opened after the write, off the applier
            MessageEncryption.Opener opener = encryption.get().opener(call.caller());
            long tookSealed = System.nanoTime();
            gate.whenDurable(got).whenComplete((messages, failure) -> {
                CallStages.record(CallStages.Stage.RECEIVED, System.nanoTime() - tookSealed);
                if (failure != null) {
                    out.completeExceptionally(failure);
                    return;
                }
                try {
                    out.complete(render(call.selection(), open(opener, messages)));
                } catch (ApiException e) {
                    out.completeExceptionally(e);
                } catch (RuntimeException e) {
                    org.slf4j.LoggerFactory.getLogger(Receiver.class).error("opening sealed messages failed", e);
                    out.completeExceptionally(new ApiException("InternalError", "We encountered an internal error. Please try again."));
                }
            });
            return;
        }
        ObjectNode rendered = render(call.selection(), got.value());
        long took = System.nanoTime();
        gate.whenDurable(new Durable<>(rendered, got.written())).whenComplete((answer, failure) -> {
            CallStages.record(CallStages.Stage.RECEIVED, System.nanoTime() - took);
            if (failure != null) {
                out.completeExceptionally(failure);
            } else {
                out.complete(answer);
            }
        });
    }

    /** The messages with sealed bodies and attributes opened. */
    static List<ReceivedMessage> open(MessageEncryption.Opener opener, List<ReceivedMessage> messages) {
        List<ReceivedMessage> out = new java.util.ArrayList<>(messages.size());
        for (ReceivedMessage m : messages) {
            out.add(opener.open(m));
        }
        return out;
    }

    static ObjectNode render(ReceiveSelection selection, List<ReceivedMessage> messages) {
        ObjectNode result = Json.object();
        if (messages.isEmpty()) {
            return result; // no "Messages" key on an empty receive
        }
        ArrayNode list = result.putArray("Messages");
        for (ReceivedMessage m : messages) {
            ObjectNode node = list.addObject();
            node.put("MessageId", m.messageId());
            node.put("ReceiptHandle", m.receiptHandle());
            node.put("MD5OfBody", m.bodyDigest() != null ? m.bodyDigest() : Md5s.ofBody(m.body()));
            node.put("Body", m.body());
            ObjectNode system = selection.systemAttributes(m);
            if (!system.isEmpty()) {
                node.set("Attributes", system);
            }
            Map<String, MessageAttribute> user = selection.userAttributes(m.attributes());
            if (!user.isEmpty()) {
                node.put("MD5OfMessageAttributes", Md5s.ofAttributes(user));
                node.set("MessageAttributes", Json.messageAttributes(user));
            }
        }
        return result;
    }
}
