package io.hikyaku.bench.scenario;

import io.hikyaku.bench.check.MessageBody;
import io.hikyaku.bench.client.BatchIds;
import io.hikyaku.bench.client.SqsConnection;
import io.hikyaku.bench.client.SqsReply;
import io.hikyaku.bench.client.SqsRequests;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A sending virtual user: SendMessageBatch of batchSize (or SendMessage when 1), closed loop
 * or paced at a fixed interval. For FIFO it rotates over its own groups, so each group has a
 * single writer and groupSeq is the order the server must preserve.
 */
final class Producer {
    private final SqsConnection conn;
    private final RunState state;
    private final String queueUrl;
    private final int batchSize;
    private final int bodySize;
    private final int[] groups;
    private final long[] groupSeq;
    private final long intervalNanos;
    private final boolean ceiling;
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private int groupCursor;
    private long nextDue;

    Producer(SqsConnection conn, RunState state, String queueUrl, int batchSize, int bodySize, int[] groups,
             long intervalNanos, boolean ceiling) {
        this.conn = conn;
        this.state = state;
        this.queueUrl = queueUrl;
        this.batchSize = batchSize;
        this.bodySize = bodySize;
        this.groups = groups;
        this.groupSeq = new long[groups == null ? 0 : groups.length];
        this.intervalNanos = intervalNanos;
        this.ceiling = ceiling;
    }

    /** Paced producers start offsetNanos late, so that several of them spread over one interval. */
    CompletableFuture<Void> start(long offsetNanos) {
        nextDue = System.nanoTime() + offsetNanos;
        next();
        return done;
    }

    private void next() {
        if (!state.producing) {
            done.complete(null);
            return;
        }
        if (intervalNanos > 0) {
            long wait = nextDue - System.nanoTime();
            nextDue += intervalNanos;
            if (wait > 0) {
                conn.channel().eventLoop().schedule(this::sendOnce, wait, TimeUnit.NANOSECONDS);
                return;
            }
        }
        sendOnce();
    }

    private void sendOnce() {
        if (!state.producing) {
            done.complete(null);
            return;
        }
        if (state.maxBacklog != Long.MAX_VALUE
                && state.checker.sentCount() - state.checker.receivedCount() > state.maxBacklog) {
            conn.channel().eventLoop().schedule(this::sendOnce, 1, TimeUnit.MILLISECONDS);
            return;
        }
        int n = batchSize;
        long left = state.remaining.addAndGet(-n);
        if (left < 0) {
            n = (int) Math.max(n + left, 0); // count-limited run: send only what is left
            if (n == 0) {
                done.complete(null);
                return;
            }
        }
        String group = null;
        int groupNo = 0;
        int gi = 0;
        if (groups != null && groups.length > 0) {
            gi = groupCursor++ % groups.length;
            groupNo = groups[gi];
            group = "g" + groupNo;
        }
        // Entry i has id BatchIds.id('e', i) and seq seqs[i].
        long[] seqs = new long[n];
        List<SqsRequests.Entry> entries = new ArrayList<>(n);
        long now = System.nanoTime();
        for (int i = 0; i < n; i++) {
            long seq = state.nextSeq.getAndIncrement();
            long gseq = groups != null && groups.length > 0 ? groupSeq[gi]++ : 0;
            seqs[i] = seq;
            entries.add(new SqsRequests.Entry(BatchIds.id('e', i), new MessageBody(seq, groupNo, gseq, now)
                    .encode(bodySize), group));
        }
        final int count = n;
        long started = System.nanoTime();
        boolean single = n == 1 && batchSize == 1;
        conn.send(single ? "SendMessage" : "SendMessageBatch", single
                ? SqsRequests.sendMessage(queueUrl, entries.get(0).body(), group)
                : SqsRequests.sendMessageBatch(queueUrl, entries), (reply, err) -> {
            long took = System.nanoTime() - started;
            if (err != null) {
                state.error(err);
                retryLater();
                return;
            }
            boolean open = state.windowOpen;
            int ok = ceiling ? count : acknowledged(reply, seqs, started + took);
            if (open) {
                state.sendLatency.recordNanos(took);
                state.windowSent.addAndGet(ok);
                state.windowSendRequests.incrementAndGet();
            }
            next();
        });
    }

    /** Records the entries the server acknowledged (at ackNanos) as sent; returns how many. */
    private int acknowledged(SqsReply reply, long[] seqs, long ackNanos) {
        if (seqs.length == 1 && reply.messageId() != null) {
            sent(seqs[0], ackNanos);
            return 1;
        }
        int ok = 0;
        for (String id : reply.successfulIds()) {
            int i = BatchIds.index('e', id);
            if (i >= 0 && i < seqs.length) {
                sent(seqs[i], ackNanos);
                ok++;
            }
        }
        for (String f : reply.failed()) {
            state.error(new IllegalStateException("batch entry failed: " + f));
        }
        return ok;
    }

    private void sent(long seq, long ackNanos) {
        state.checker.sent(seq);
        MessageTrace trace = state.trace;
        if (trace != null) {
            trace.acked(seq, ackNanos);
        }
    }

    /** After a failure, pause briefly so a dead server does not turn this into a busy loop. */
    private void retryLater() {
        if (conn.channel() == null) {
            done.complete(null);
            return;
        }
        conn.channel().eventLoop().schedule(this::next, 50, TimeUnit.MILLISECONDS);
    }
}
