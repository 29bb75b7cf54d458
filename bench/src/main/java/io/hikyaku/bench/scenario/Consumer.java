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
        conn.callOk("ReceiveMessage", SqsRequests.receiveMessage(queueUrl, 10, waitSeconds, VISIBILITY_SECONDS))
                .whenComplete((body, err) -> {
                    if (err != null) {
                        state.error(err);
                        retryLater();
                        return;
                    }
                    onMessages(body, started);
                });
    }

    private void onMessages(JsonNode body, long started) {
        long now = System.nanoTime();
        boolean open = state.windowOpen;
        JsonNode messages = body.path("Messages");
        if (open) {
            state.windowReceives.incrementAndGet();
            state.windowReceived.addAndGet(messages.size());
        }
        if (!state.recordEndToEnd && open && messages.size() > 0) {
            state.receiveLatency.recordNanos(now - started);
        }
        List<String> handles = new ArrayList<>(messages.size());
        Map<String, Long> seqById = new HashMap<>();
        for (JsonNode m : messages) {
            MessageBody mb = MessageBody.decode(m.path("Body").asText(null));
            state.checker.received(mb);
            if (mb != null && open && state.recordEndToEnd) {
                state.receiveLatency.recordNanos(now - mb.sentNanos());
            }
            seqById.put("d" + handles.size(), mb == null ? -1 : mb.seq());
            handles.add(m.path("ReceiptHandle").asText());
        }
        if (handles.isEmpty()) {
            next();
            return;
        }
        conn.callOk("DeleteMessageBatch", SqsRequests.deleteMessageBatch(queueUrl, handles))
                .whenComplete((res, err) -> {
                    if (err != null) {
                        state.error(err);
                        retryLater();
                        return;
                    }
                    int ok = 0;
                    for (JsonNode s : res.path("Successful")) {
                        Long seq = seqById.get(s.path("Id").asText());
                        if (seq != null && seq >= 0) {
                            state.checker.deleted(seq);
                            ok++;
                        }
                    }
                    for (JsonNode f : res.path("Failed")) {
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
