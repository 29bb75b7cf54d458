package io.hikyaku.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.engine.store.MemoryStore;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.WireProtocol;
import io.hikyaku.testsupport.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Fail-stop on storage errors, against a model. A seeded random workload (send, receive, delete,
 * change visibility; a standard and a FIFO queue; bursts of concurrent calls over slow writes) runs
 * over a {@link FaultInjectingStore} that fails writes, fills the disk, fails fsyncs, and is
 * "restarted" (a new service over the same disk). Checked after every answer and at every quiet
 * point: no phantom (a send answered with an error is never received, even after a restart), no
 * lost acknowledged message, no resurrected delete (never received after its delete was answered),
 * and exact counts (visible + in flight = acknowledged sends - acknowledged deletes; in flight = what
 * the model says, so a receive or delete answered with an error changed nothing).
 *
 * <p>A receive is answered once the sends of its messages are durable, not its own write (in flight,
 * receive count): when that write fails, the receive's messages are visible again after the reload,
 * as if their visibility timeout had ended. The model keeps such a receive "unsure" until a quiet
 * point, where a peek (a pure query) tells whether it was kept; a delete or visibility change made
 * with an unsure receive's handle may meet the expired-handle or not-in-flight errors, which then
 * also say it was lost.
 *
 * <p>Seeds: {@code -Dhikyaku.failstop.seeds=N} (default 12) starting at
 * {@code -Dhikyaku.failstop.seed=S} (default 1); a failure names its seed.
 */
class FailStopModelTest {

    private static final int STEPS = 250;
    private static final int VISIBILITY_S = 30;
    private static final CallContext CONTEXT = new CallContext("000000000000", "us-east-1", "http://h:1", null, "r");

    @Test
    void noPhantomNoLossNoResurrectionExactCounts() throws Exception {
        long first = Long.getLong("hikyaku.failstop.seed", 1);
        int seeds = Integer.getInteger("hikyaku.failstop.seeds", 12);
        long faults = 0;
        for (long seed = first; seed < first + seeds; seed++) {
            try {
                faults += new Run(seed).run();
            } catch (AssertionError | Exception e) {
                throw new AssertionError("seed " + seed + " (rerun: -Dhikyaku.failstop.seed=" + seed
                        + " -Dhikyaku.failstop.seeds=1): " + e.getMessage(), e);
            }
        }
        System.out.println("FailStopModelTest: " + seeds + " seeds from " + first + ", " + faults + " injected faults");
        if (faults == 0) {
            throw new AssertionError("no fault was injected: the test checked nothing");
        }
    }

    /**
     * The same with two engine shards: the standard queue and a second one in an account of the other
     * shard, the FIFO queue in the first; one fence stops both shards and recovery reloads both.
     */
    @Test
    void withTwoEngineShardsTheSameHolds() throws Exception {
        long first = Long.getLong("hikyaku.failstop.seed", 1);
        int seeds = Integer.getInteger("hikyaku.failstop.seeds", 12) / 2;
        long faults = 0;
        for (long seed = first; seed < first + seeds; seed++) {
            try {
                faults += new Run(seed, 2).run();
            } catch (AssertionError | Exception e) {
                throw new AssertionError("two shards, seed " + seed + " (rerun: -Dhikyaku.failstop.seed=" + seed
                        + " -Dhikyaku.failstop.seeds=2): " + e.getMessage(), e);
            }
        }
        if (faults == 0) {
            throw new AssertionError("no fault was injected: the test checked nothing");
        }
    }

    /** An account that falls on the other shard of two than the default one. */
    private static String accountOnOtherShard() {
        int home = io.hikyaku.engine.EngineShard.of(CONTEXT.accountId(), 2);
        for (long n = 100000000000L; ; n++) {
            if (io.hikyaku.engine.EngineShard.of(Long.toString(n), 2) != home) {
                return Long.toString(n);
            }
        }
    }

    /** What the model knows of one message. */
    private static final class Msg {
        final String body;
        final String queue;
        String status = "pending"; // pending, acked, failed
        boolean deleted;
        long invisibleUntil;       // clock millis; in flight while > now
        String handle;
        boolean receiveUnsure;     // answered before its own write was durable: it may have been lost

        Msg(String body, String queue) {
            this.body = body;
            this.queue = queue;
        }
    }

    private static final class Run {
        final long seed;
        final int shards;
        final Random random;
        final MutableClock clock = new MutableClock(Instant.ofEpochMilli(1_700_000_000_000L));
        final MemoryStore disk = new MemoryStore();
        FaultInjectingStore store;
        SqsService service;
        final Map<String, Msg> messages = new HashMap<>();
        final List<String> queueUrls = new ArrayList<>();
        int nextBody;
        boolean diskFull;
        /** Messages a call of the current burst already acts on (one call per message per burst). */
        final Set<Msg> targeted = new HashSet<>();

        Run(long seed) {
            this(seed, 1);
        }

        Run(long seed, int shards) {
            this.seed = seed;
            this.shards = shards;
            this.random = new Random(seed);
        }

        long run() throws Exception {
            start();
            queueUrls.add(create("std", "{}"));
            queueUrls.add(create("fifo.fifo", "{\"FifoQueue\":\"true\"}"));
            if (shards > 1) {
                queueUrls.add(create(new CallContext(accountOnOtherShard(), "us-east-1", "http://h:1", null, "r"), "other", "{}"));
            }
            long injected = 0;
            try {
                for (int step = 0; step < STEPS; step++) {
                    injectFaults();
                    List<Runnable> checks = new ArrayList<>();
                    targeted.clear();
                    int burst = 1 + random.nextInt(4);
                    for (int i = 0; i < burst; i++) {
                        checks.add(randomOperation());
                    }
                    checks.forEach(Runnable::run); // answers in issue order (= engine order)
                    if (random.nextInt(10) == 0) {
                        clock.advance(Duration.ofSeconds(random.nextInt(15)));
                    }
                    if (random.nextInt(40) == 0) {
                        injected += quietPointAndCheck(random.nextBoolean());
                    }
                }
                injected += quietPointAndCheck(true);
                drainAndCheck();
                return injected + store.injected.get();
            } finally {
                service.close();
            }
        }

        private void start() {
            store = new FaultInjectingStore(disk);
            service = shards == 1 ? SqsServices.create(store, clock)
                    : new DefaultSqsService(store, clock, CommandQueue.CAPACITY, true, Long.MAX_VALUE,
                            io.hikyaku.engine.QueueEngine.DEFAULT_INDEX_WINDOW, line -> { }, shards);
        }

        private void injectFaults() {
            int roll = random.nextInt(100);
            if (diskFull) {
                if (roll < 15) {
                    store.freeDisk();
                    diskFull = false;
                }
                return;
            }
            if (roll < 3) {
                store.failNextWrites(1 + random.nextInt(3));
            } else if (roll < 5) {
                store.failNextFsync();
            } else if (roll < 7) {
                store.fillDisk();
                diskFull = true;
            } else if (roll < 15) {
                store.slow(random.nextInt(3) == 0 ? 0 : 200 + random.nextInt(800));
            }
        }

        /** Issues one call and returns the check to run once its answer is in. */
        private Runnable randomOperation() {
            String url = queueUrls.get(random.nextInt(queueUrls.size()));
            int kind = random.nextInt(10);
            List<Msg> inFlight = inFlight(url);
            if (kind < 4) {
                return send(url);
            } else if (kind < 7 || inFlight.isEmpty()) {
                return receive(url);
            }
            Msg m = inFlight.get(random.nextInt(inFlight.size()));
            targeted.add(m);
            return kind < 9 ? delete(url, m) : changeVisibility(url, m);
        }

        private Runnable send(String url) {
            Msg m = new Msg("m" + seed + "-" + nextBody++, url);
            messages.put(m.body, m);
            String fifo = url.endsWith(".fifo") ? ",\"MessageGroupId\":\"g" + random.nextInt(3)
                    + "\",\"MessageDeduplicationId\":\"" + m.body + "\"" : "";
            CompletableFuture<ObjectNode> f = call("SendMessage",
                    "{\"QueueUrl\":\"" + url + "\",\"MessageBody\":\"" + m.body + "\"" + fifo + "}");
            return () -> outcome(f, ok -> m.status = "acked", () -> m.status = "failed");
        }

        private Runnable receive(String url) {
            long now = clock.millis();
            CompletableFuture<ObjectNode> f = call("ReceiveMessage", "{\"QueueUrl\":\"" + url
                    + "\",\"MaxNumberOfMessages\":" + (1 + random.nextInt(10)) + ",\"VisibilityTimeout\":" + VISIBILITY_S + "}");
            return () -> outcome(f, ok -> {
                JsonNode list = ok.get("Messages");
                if (list == null) {
                    return;
                }
                for (JsonNode n : list) {
                    String body = n.get("Body").asText();
                    Msg m = messages.get(body);
                    check(m != null, "received a body nobody sent: " + body);
                    check(!m.status.equals("failed"), "phantom: " + body + " was received though its send got an error");
                    check(!m.deleted, "resurrected: " + body + " was received after its delete was acknowledged");
                    check(m.queue.equals(url), "received from the wrong queue: " + body);
                    if (m.status.equals("pending")) {
                        m.status = "acked"; // its send is answered before this receive (batches complete in order)
                    }
                    m.invisibleUntil = now + VISIBILITY_S * 1000L;
                    m.handle = n.get("ReceiptHandle").asText();
                    m.receiveUnsure = true;
                }
            }, () -> { });
        }

        private Runnable delete(String url, Msg m) {
            CompletableFuture<ObjectNode> f = call("DeleteMessage",
                    "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"" + m.handle + "\"}");
            return () -> outcome(f, ok -> m.deleted = true, () -> { }, m);
        }

        private Runnable changeVisibility(String url, Msg m) {
            CompletableFuture<ObjectNode> f = call("ChangeMessageVisibility",
                    "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\"" + m.handle + "\",\"VisibilityTimeout\":0}");
            long now = clock.millis();
            return () -> outcome(f, ok -> {
                m.invisibleUntil = now;
                m.receiveUnsure = false; // the change is durable, so is every write before it
            }, () -> { }, m);
        }

        /**
         * Waits for the call's answer: a success runs {@code ok}; ServiceUnavailable (not written,
         * or refused while the store recovers) runs {@code refused}; anything else fails the test.
         */
        private void outcome(CompletableFuture<ObjectNode> f, Consumer<ObjectNode> ok, Runnable refused) {
            outcome(f, ok, refused, null);
        }

        /**
         * As above; {@code handleOf}, when its receive is unsure, may also meet the errors of a handle
         * whose receive was lost (the message visible again), which then says so.
         */
        private void outcome(CompletableFuture<ObjectNode> f, Consumer<ObjectNode> ok, Runnable refused, Msg handleOf) {
            ObjectNode value;
            try {
                value = f.get(20, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof ApiException api && api.errorType().equals("ServiceUnavailable")) {
                    refused.run();
                    return;
                }
                if (handleOf != null && handleOf.receiveUnsure && e.getCause() instanceof ApiException api
                        && (api.errorType().equals("MessageNotInflight")
                        || api.errorType().equals("InvalidParameterValue") && api.getMessage().contains("expired"))) {
                    handleOf.receiveUnsure = false; // its receive was lost: visible again
                    handleOf.invisibleUntil = 0;
                    return;
                }
                throw new AssertionError("unexpected error " + e.getCause(), e.getCause());
            } catch (Exception e) {
                throw new AssertionError("no answer within 20 s (" + e + ")", e);
            }
            ok.accept(value);
        }

        /**
         * Frees the disk, waits until the service answers again (recovered), and checks the counts
         * exactly; with {@code restart}, also "crashes" and starts a new service over the same disk.
         */
        private long quietPointAndCheck(boolean restart) throws Exception {
            store.freeDisk();
            store.slow(0);
            diskFull = false;
            long injected = 0;
            if (restart) {
                injected = store.injected.get();
                service.close();
                start();
            }
            awaitServing();
            settleUnsureReceives();
            checkCounts();
            return injected;
        }

        /**
         * Waits until every queue's shard answers a read, which waits for every write before it: then
         * each write has settled (a receive may have been answered before its own write did).
         */
        private void awaitServing() throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            for (String url : queueUrls) {
                while (true) {
                    try {
                        call("GetQueueAttributes", "{\"QueueUrl\":\"" + url + "\"}").get(20, TimeUnit.SECONDS);
                        break;
                    } catch (ExecutionException e) {
                        check(System.nanoTime() < deadline, "the service did not recover: " + e.getCause());
                        Thread.sleep(10);
                    }
                }
            }
        }

        /**
         * At a quiet point (state reloaded from the disk if anything failed): an unsure receive whose
         * message a peek shows visible was lost; one whose message is not visible was kept.
         */
        private void settleUnsureReceives() throws Exception {
            long now = clock.millis();
            for (String url : queueUrls) {
                Set<String> visible = new HashSet<>();
                String cursor = null;
                do {
                    JsonNode page = call(PeekActions.ACTION, "{\"QueueUrl\":\"" + url + "\",\"MaxNumberOfMessages\":10"
                            + (cursor == null ? "" : ",\"Cursor\":\"" + cursor + "\"") + "}").get(20, TimeUnit.SECONDS);
                    if (page.has("Messages")) {
                        page.get("Messages").forEach(n -> visible.add(n.get("Body").asText()));
                    }
                    cursor = page.has("NextCursor") ? page.get("NextCursor").asText() : null;
                } while (cursor != null);
                for (Msg m : messages.values()) {
                    if (m.queue.equals(url) && m.receiveUnsure && !m.deleted) {
                        m.receiveUnsure = false;
                        if (m.invisibleUntil > now && visible.contains(m.body)) {
                            m.invisibleUntil = 0; // lost with its write: visible again
                        }
                    }
                }
            }
        }

        private void checkCounts() throws Exception {
            long now = clock.millis();
            for (String url : queueUrls) {
                JsonNode a = call("GetQueueAttributes", "{\"QueueUrl\":\"" + url + "\",\"AttributeNames\":[\"All\"]}")
                        .get(20, TimeUnit.SECONDS).get("Attributes");
                int visible = a.get("ApproximateNumberOfMessages").asInt();
                int notVisible = a.get("ApproximateNumberOfMessagesNotVisible").asInt();
                int delayed = a.get("ApproximateNumberOfMessagesDelayed").asInt();
                int live = 0;
                int inFlight = 0;
                for (Msg m : messages.values()) {
                    check(!m.status.equals("pending"), "an answer is still outstanding at a quiet point: " + m.body);
                    if (m.queue.equals(url) && m.status.equals("acked") && !m.deleted) {
                        live++;
                        if (m.invisibleUntil > now) {
                            inFlight++;
                        }
                    }
                }
                check(visible + notVisible + delayed == live, url + ": stored " + (visible + notVisible + delayed)
                        + " messages (" + visible + " visible, " + notVisible + " in flight, " + delayed
                        + " delayed), the model has " + live);
                check(notVisible == inFlight, url + ": " + notVisible + " in flight, the model has " + inFlight);
            }
        }

        /** Everything acknowledged and not deleted is received exactly once more; nothing else is. */
        private void drainAndCheck() throws Exception {
            clock.advance(Duration.ofSeconds(VISIBILITY_S + 1));
            for (String url : queueUrls) {
                Set<String> expected = new HashSet<>();
                for (Msg m : messages.values()) {
                    if (m.queue.equals(url) && m.status.equals("acked") && !m.deleted) {
                        expected.add(m.body);
                    }
                }
                Set<String> drained = new HashSet<>();
                while (true) {
                    JsonNode list = call("ReceiveMessage", "{\"QueueUrl\":\"" + url
                            + "\",\"MaxNumberOfMessages\":10,\"VisibilityTimeout\":" + VISIBILITY_S + "}")
                            .get(20, TimeUnit.SECONDS).get("Messages");
                    if (list == null) {
                        break;
                    }
                    for (JsonNode n : list) {
                        String body = n.get("Body").asText();
                        check(drained.add(body), "drained twice: " + body);
                        call("DeleteMessage", "{\"QueueUrl\":\"" + url + "\",\"ReceiptHandle\":\""
                                + n.get("ReceiptHandle").asText() + "\"}").get(20, TimeUnit.SECONDS);
                    }
                }
                Set<String> lost = new HashSet<>(expected);
                lost.removeAll(drained);
                Set<String> extra = new HashSet<>(drained);
                extra.removeAll(expected);
                check(lost.isEmpty(), url + ": acknowledged and never deleted, but gone: " + lost);
                check(extra.isEmpty(), url + ": drained but failed, deleted or never sent: " + extra);
            }
        }

        private List<Msg> inFlight(String url) {
            long now = clock.millis();
            List<Msg> out = new ArrayList<>();
            for (Msg m : messages.values()) {
                if (m.queue.equals(url) && !m.deleted && m.handle != null && m.invisibleUntil > now
                        && !targeted.contains(m)) {
                    out.add(m);
                }
            }
            out.sort((x, y) -> x.body.compareTo(y.body)); // HashMap order is not part of the seed
            return out;
        }

        private String create(String name, String attributes) throws Exception {
            return create(CONTEXT, name, attributes);
        }

        private String create(CallContext caller, String name, String attributes) throws Exception {
            String json = "{\"QueueName\":\"" + name + "\",\"Attributes\":" + attributes + "}";
            return service.invoke(caller, new ApiRequest("CreateQueue", ServiceHarness.parse(json), WireProtocol.JSON, false, "/"))
                    .get(20, TimeUnit.SECONDS).get("QueueUrl").asText();
        }

        private CompletableFuture<ObjectNode> call(String action, String json) {
            return service.invoke(CONTEXT, new ApiRequest(action, ServiceHarness.parse(json), WireProtocol.JSON, false, "/"));
        }

        private static void check(boolean condition, String message) {
            if (!condition) {
                throw new AssertionError(message);
            }
        }
    }
}
