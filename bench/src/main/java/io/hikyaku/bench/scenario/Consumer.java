package io.hikyaku.bench.scenario;

import io.hikyaku.bench.check.MessageBody;
import io.hikyaku.bench.client.BatchIds;
import io.hikyaku.bench.client.SqsConnection;
import io.hikyaku.bench.client.SqsReply;
import io.hikyaku.bench.client.SqsRequests;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A receiving virtual user: ReceiveMessage (up to 10, long poll), then DeleteMessageBatch of
 * what it got. Records end-to-end latency from the body timestamp, or the receive call time.
 */
final class Consumer {
    /** Long enough that a message is never redelivered during a run (a redelivery would be a duplicate). */
    static final int VISIBILITY_SECONDS = 300;

    private final SqsConnection conn;
    private final RunState state;
    private final String queueUrl;
    private final int waitSeconds;
    private final CompletableFuture<Void> done = new CompletableFuture<>();

    Consumer(SqsConnection conn, RunState state, String queueUrl, int waitSeconds) {
        this.conn = conn;
        this.state = state;
        this.queueUrl = queueUrl;
        this.waitSeconds = waitSeconds;
    }

    CompletableFuture<Void> start() {
        next();
        return done;
    }

    private void next() {
        if (!state.consuming) {
            done.complete(null);
            return;
        }
        long started = System.nanoTime();
        conn.send("ReceiveMessage", SqsRequests.receiveMessage(queueUrl, 10, waitSeconds, VISIBILITY_SECONDS),
                (reply, err) -> {
                    if (err != null) {
                        state.error(err);
                        retryLater();
                        return;
                    }
                    onMessages(reply, started);
                });
    }

    private void onMessages(SqsReply reply, long started) {
        long now = System.nanoTime();
        boolean open = state.windowOpen;
        List<String> bodies = reply.bodies();
        int count = bodies.size();
        if (open) {
            state.windowReceives.incrementAndGet();
            state.windowReceived.addAndGet(count);
        }
        if (open && count > 0) {
            state.receiveCallLatency.recordNanos(now - started);
            if (!state.recordEndToEnd) {
                state.receiveLatency.recordNanos(now - started);
            }
        }
        // Delete entry i has id BatchIds.id('d', i) and is message i, whose seq is seqs[i] (-1: not ours).
        long[] seqs = new long[count];
        for (int i = 0; i < count; i++) {
            MessageBody mb = MessageBody.decode(bodies.get(i));
            state.checker.received(mb);
            if (mb != null && open && state.recordEndToEnd) {
                state.receiveLatency.recordNanos(now - mb.sentNanos());
            }
            seqs[i] = mb == null ? -1 : mb.seq();
            MessageTrace trace = state.trace;
            if (trace != null && mb != null) {
                trace.received(mb.seq(), mb.sentNanos(), started, now);
            }
        }
        if (count == 0) {
            next();
            return;
        }
        long deleting = System.nanoTime();
        conn.send("DeleteMessageBatch", SqsRequests.deleteMessageBatch(queueUrl, reply.receiptHandles()),
                (res, err) -> {
                    if (open && state.windowOpen) {
                        state.deleteCallLatency.recordNanos(System.nanoTime() - deleting);
                    }
                    if (err != null) {
                        state.error(err);
                        retryLater();
                        return;
                    }
                    int ok = 0;
                    for (String id : res.successfulIds()) {
                        int i = BatchIds.index('d', id);
                        if (i >= 0 && i < count && seqs[i] >= 0) {
                            state.checker.deleted(seqs[i]);
                            ok++;
                        }
                    }
                    for (String f : res.failed()) {
                        state.error(new IllegalStateException("delete entry failed: " + f));
                    }
                    if (open && state.windowOpen) {
                        state.windowDeleted.addAndGet(ok);
                    }
                    next();
                });
    }

    private void retryLater() {
        if (conn.channel() == null) {
            done.complete(null);
            return;
        }
        conn.channel().eventLoop().schedule(this::next, 50, TimeUnit.MILLISECONDS);
    }
}
