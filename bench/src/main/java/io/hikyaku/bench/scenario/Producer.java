package io.hikyaku.bench.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import io.hikyaku.bench.check.MessageBody;
import io.hikyaku.bench.client.SqsConnection;
import io.hikyaku.bench.client.SqsRequests;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

    CompletableFuture<Void> start() {
        nextDue = System.nanoTime();
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
        Map<String, Long> seqById = new HashMap<>();
        List<SqsRequests.Entry> entries = new ArrayList<>(n);
        long now = System.nanoTime();
        for (int i = 0; i < n; i++) {
            long seq = state.nextSeq.getAndIncrement();
            long gseq = groups != null && groups.length > 0 ? groupSeq[gi]++ : 0;
            String id = "e" + i;
            seqById.put(id, seq);
            entries.add(new SqsRequests.Entry(id, new MessageBody(seq, groupNo, gseq, now).encode(bodySize), group));
        }
        final int count = n;
        long started = System.nanoTime();
        CompletableFuture<JsonNode> call = n == 1 && batchSize == 1
                ? conn.callOk("SendMessage", SqsRequests.sendMessage(queueUrl, entries.get(0).body(), group))
                : conn.callOk("SendMessageBatch", SqsRequests.sendMessageBatch(queueUrl, entries));
        call.whenComplete((body, err) -> {
            long took = System.nanoTime() - started;
            if (err != null) {
                state.error(err);
                retryLater();
                return;
            }
            boolean open = state.windowOpen;
            int ok = ceiling ? count : acknowledged(body, seqById);
            if (open) {
                state.sendLatency.recordNanos(took);
                state.windowSent.addAndGet(ok);
                state.windowSendRequests.incrementAndGet();
            }
            next();
        });
    }

    private int acknowledged(JsonNode body, Map<String, Long> seqById) {
        if (seqById.size() == 1 && body.has("MessageId")) {
            state.checker.sent(seqById.values().iterator().next());
            return 1;
        }
        int ok = 0;
        for (JsonNode s : body.path("Successful")) {
            Long seq = seqById.get(s.path("Id").asText());
            if (seq != null) {
                state.checker.sent(seq);
                ok++;
            }
        }
        for (JsonNode f : body.path("Failed")) {
            state.error(new IllegalStateException("batch entry failed: " + f));
        }
        return ok;
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
