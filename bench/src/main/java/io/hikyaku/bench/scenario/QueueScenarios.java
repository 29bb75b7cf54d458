package io.hikyaku.bench.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import io.hikyaku.bench.client.SqsConnection;
import io.hikyaku.bench.client.SqsHttpClient;
import io.hikyaku.bench.client.SqsRequests;
import io.hikyaku.bench.stats.ResultLine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** send, send-single, cycle, cycle-at-rate, fifo, backlog and preload: producers and consumers on one queue. */
final class QueueScenarios {
    private final BenchConfig cfg;
    private final SqsHttpClient client;

    QueueScenarios(BenchConfig cfg, SqsHttpClient client) {
        this.cfg = cfg;
        this.client = client;
    }

    ResultLine send(int batchSize) throws Exception {
        RunState state = new RunState(false);
        String url = cfg.ceiling() ? cfg.endpoint() + "/000000000000/ceiling" : createQueue(false);
        List<SqsConnection> prod = Vus.connect(client, cfg.producers());
        // Paced (--send-rate): each producer sends one request per interval, the interval that makes
        // the total rate; used to measure nginx's ceiling at the request rate another server reached.
        long intervalNanos = cfg.sendRate() > 0 ? (long) (cfg.producers() * 1e9 / cfg.sendRate()) : 0;
        List<CompletableFuture<Void>> ps = startProducers(prod, state, url, batchSize, false, intervalNanos);
        Window w = warmUp(state);
        Thread.sleep(cfg.duration().toMillis());
        state.windowOpen = false;
        w.close();
        state.producing = false;
        Vus.await(ps, 10_000);
        Map<String, String> extra = new LinkedHashMap<>();
        long requests = state.windowSendRequests.get();
        extra.put("requests_s", String.format(java.util.Locale.ROOT, "%.1f", requests / w.seconds));
        extra.put("server_cpu_us_req", String.format(java.util.Locale.ROOT, "%.2f", w.serverCpuPer(requests)));
        extra.put("producers", Integer.toString(cfg.producers()));
        if (cfg.sendRate() > 0) {
            extra.put("send_rate", Integer.toString(cfg.sendRate()));
        }
        if (!cfg.ceiling()) {
            drain(state, url, false);
            deleteQueue(url);
        }
        Vus.closeAll(prod);
        return Results.line(cfg, state.windowSent.get(), state.sendLatency, w, state, extra);
    }

    /** Producers and consumers at once; intervalNanos > 0 paces each producer (cycle-at-rate). */
    ResultLine cycle(boolean fifo, int batchSize, long intervalNanos) throws Exception {
        RunState state = new RunState(fifo);
        state.maxBacklog = cfg.maxBacklog();
        if (cfg.traceFile() != null) {
            state.trace = new MessageTrace();
        }
        String url = createQueue(fifo);
        List<SqsConnection> prod = Vus.connect(client, cfg.producers());
        List<SqsConnection> cons = Vus.connect(client, cfg.consumers());
        List<CompletableFuture<Void>> cs = startConsumers(cons, state, url);
        List<CompletableFuture<Void>> ps = startProducers(prod, state, url, batchSize, fifo, intervalNanos);
        Window w = warmUp(state);
        Thread.sleep(cfg.duration().toMillis());
        state.windowOpen = false;
        w.close();
        state.producing = false;
        Vus.await(ps, 10_000);
        waitDrained(state);
        state.consuming = false;
        Vus.await(cs, (cfg.waitSeconds() + 5) * 1000L);
        deleteQueue(url);
        Vus.closeAll(prod);
        Vus.closeAll(cons);
        Map<String, String> extra = new LinkedHashMap<>();
        extra.put("producers", Integer.toString(cfg.producers()));
        extra.put("consumers", Integer.toString(cfg.consumers()));
        extra.put("max_backlog", Long.toString(cfg.maxBacklog()));
        receiveEfficiency(state, w, extra);
        if (fifo) {
            extra.put("groups", Integer.toString(cfg.groups()));
        }
        callLatencies(state, extra);
        if (intervalNanos > 0) {
            extra.put("target_rate", Integer.toString(cfg.rate()));
        }
        if (state.trace != null) {
            state.trace.write(cfg.traceFile());
        }
        return Results.line(cfg, state.windowDeleted.get(), state.receiveLatency, w, state, extra);
    }

    /** Preloads cfg.messages, then measures draining them (receive call latency). */
    ResultLine backlog() throws Exception {
        RunState state = new RunState(false);
        String url = createQueue(false);
        long preloadStart = System.nanoTime();
        preload(state, url);
        double preloadSecs = (System.nanoTime() - preloadStart) / 1e9;
        Map<String, String> extra = new LinkedHashMap<>();
        extra.put("preloaded", Long.toString(state.checker.sentCount()));
        extra.put("preload_msgs_s", String.format(java.util.Locale.ROOT, "%.1f", state.checker.sentCount() / preloadSecs));
        List<SqsConnection> cons = Vus.connect(client, cfg.consumers());
        state.recordEndToEnd = false;
        state.windowOpen = true;
        Window w = new Window(cfg.serverPid()).open();
        List<CompletableFuture<Void>> cs = startConsumers(cons, state, url);
        waitDrained(state);
        state.windowOpen = false;
        w.close();
        state.consuming = false;
        Vus.await(cs, (cfg.waitSeconds() + 5) * 1000L);
        deleteQueue(url);
        Vus.closeAll(cons);
        extra.put("consumers", Integer.toString(cfg.consumers()));
        receiveEfficiency(state, w, extra);
        return Results.line(cfg, state.windowDeleted.get(), state.receiveLatency, w, state, extra);
    }

    /** Median round trip of each call a cycle makes: which one a virtual user waits on. */
    private static void callLatencies(RunState state, Map<String, String> extra) {
        extra.put("send_call_p50_ms", ms(state.sendLatency.percentileMs(50)));
        extra.put("receive_call_p50_ms", ms(state.receiveCallLatency.percentileMs(50)));
        extra.put("delete_call_p50_ms", ms(state.deleteCallLatency.percentileMs(50)));
    }

    private static String ms(double v) {
        return String.format(java.util.Locale.ROOT, "%.3f", v);
    }

    /** How full the receives were: requests per message drive the server's CPU per message. */
    private static void receiveEfficiency(RunState state, Window w, Map<String, String> extra) {
        long receives = state.windowReceives.get();
        extra.put("receives_s", String.format(java.util.Locale.ROOT, "%.1f", receives / w.seconds));
        extra.put("msgs_per_receive", String.format(java.util.Locale.ROOT, "%.2f",
                receives == 0 ? 0.0 : (double) state.windowReceived.get() / receives));
    }

    /**
     * Receives and deletes from the stored backlog of the queue named cfg.queueName (filled by
     * preload, then a restart) for cfg.duration after cfg.warmup: the drain rate of a big backlog.
     */
    ResultLine drainStored() throws Exception {
        RunState state = new RunState(false);
        String name = cfg.queueName() == null ? "bench-stored" : cfg.queueName();
        String url = createNamedQueue(name, false); // CreateQueue of an existing queue returns its URL
        state.recordEndToEnd = false; // the messages were sent by another run: receive call latency only
        List<SqsConnection> cons = Vus.connect(client, cfg.consumers());
        List<CompletableFuture<Void>> cs = startConsumers(cons, state, url);
        Window w = warmUp(state);
        Thread.sleep(cfg.duration().toMillis());
        state.windowOpen = false;
        w.close();
        state.consuming = false;
        Vus.await(cs, (cfg.waitSeconds() + 5) * 1000L);
        Vus.closeAll(cons);
        Map<String, String> extra = new LinkedHashMap<>();
        extra.put("queue", name);
        extra.put("consumers", Integer.toString(cfg.consumers()));
        receiveEfficiency(state, w, extra);
        return Results.line(cfg, state.windowDeleted.get(), state.receiveLatency, w, state, extra);
    }

    /** Fills the queue named cfg.queueName with cfg.messages and leaves them (for startup with data). */
    ResultLine preloadOnly() throws Exception {
        RunState state = new RunState(false);
        String name = cfg.queueName() == null ? "bench-stored" : cfg.queueName();
        String url = createNamedQueue(name, false);
        Window w = new Window(cfg.serverPid()).open();
        preload(state, url);
        w.close();
        Map<String, String> extra = new LinkedHashMap<>();
        extra.put("queue", name);
        extra.put("stored", Long.toString(state.checker.sentCount()));
        return Results.line(cfg, state.checker.sentCount(), state.sendLatency, w, null, extra);
    }

    private void preload(RunState state, String url) throws Exception {
        state.windowOpen = false;
        state.remaining.set(cfg.messages());
        List<SqsConnection> prod = Vus.connect(client, cfg.producers());
        List<CompletableFuture<Void>> ps = startProducers(prod, state, url, 10, false, 0);
        if (!Vus.await(ps, cfg.drainTimeout().toMillis())) {
            state.producing = false;
            Vus.await(ps, 10_000);
        }
        Vus.closeAll(prod);
    }

    private void drain(RunState state, String url, boolean fifo) throws Exception {
        List<SqsConnection> cons = Vus.connect(client, cfg.consumers());
        List<CompletableFuture<Void>> cs = startConsumers(cons, state, url);
        waitDrained(state);
        state.consuming = false;
        Vus.await(cs, (cfg.waitSeconds() + 5) * 1000L);
        Vus.closeAll(cons);
    }

    /** Runs the load unmeasured for cfg.warmup (JIT of client and server), then opens the window. */
    private Window warmUp(RunState state) throws InterruptedException {
        state.windowOpen = false;
        Thread.sleep(cfg.warmup().toMillis());
        Window w = new Window(cfg.serverPid()).open();
        state.windowOpen = true;
        return w;
    }

    private void waitDrained(RunState state) throws InterruptedException {
        Vus.waitUntil(state.checker::drained, cfg.drainTimeout().toMillis());
    }

    private List<CompletableFuture<Void>> startProducers(List<SqsConnection> conns, RunState state, String url,
                                                         int batchSize, boolean fifo, long intervalNanos) {
        List<CompletableFuture<Void>> out = new ArrayList<>();
        for (int i = 0; i < conns.size(); i++) {
            int[] groups = fifo ? groupsOf(i, conns.size(), cfg.groups()) : null;
            out.add(new Producer(conns.get(i), state, url, batchSize, cfg.bodySize(), groups, intervalNanos,
                    cfg.ceiling()).start(startOffsetNanos(i, conns.size(), intervalNanos)));
        }
        return out;
    }

    private List<CompletableFuture<Void>> startConsumers(List<SqsConnection> conns, RunState state, String url) {
        List<CompletableFuture<Void>> out = new ArrayList<>();
        for (SqsConnection c : conns) {
            out.add(new Consumer(c, state, url, cfg.waitSeconds()).start());
        }
        return out;
    }

    /**
     * When paced producer i of n sends first, after producer 0: a fixed rate is a steady stream, so
     * 20 producers at 25/s each send one message every 2 ms between them, not a burst of 20 every 40 ms
     * (a burst measures queueing behind the other 19 on a 2-core machine, not latency at that rate).
     */
    static long startOffsetNanos(int i, int n, long intervalNanos) {
        return n <= 0 || intervalNanos <= 0 ? 0 : intervalNanos * i / n;
    }

    /** Groups owned by producer i of n: every n-th, so each group has exactly one writer. */
    static int[] groupsOf(int i, int n, int groups) {
        int count = 0;
        for (int g = i; g < groups; g += n) {
            count++;
        }
        int[] out = new int[Math.max(count, 0)];
        for (int g = i, k = 0; g < groups; g += n) {
            out[k++] = g;
        }
        return out;
    }

    private String createQueue(boolean fifo) throws Exception {
        String name = "bench-" + cfg.scenario() + "-" + System.currentTimeMillis() + (fifo ? ".fifo" : "");
        return createNamedQueue(name, fifo);
    }

    private String createNamedQueue(String name, boolean fifo) throws Exception {
        Map<String, String> attrs = new LinkedHashMap<>();
        if (fifo) {
            attrs.put("FifoQueue", "true");
            attrs.put("ContentBasedDeduplication", "true");
        }
        // e.g. -Dhikyaku.bench.queueAttributes=SqsManagedSseEnabled=false: SSE on against off (docs/benchmarks.md)
        for (String kv : System.getProperty("hikyaku.bench.queueAttributes", "").split(",")) {
            if (kv.contains("=")) {
                attrs.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
            }
        }
        SqsConnection admin = client.connect().get(10, TimeUnit.SECONDS);
        try {
            JsonNode r = admin.callOk("CreateQueue", SqsRequests.createQueue(name, attrs)).get(30, TimeUnit.SECONDS);
            return r.path("QueueUrl").asText();
        } finally {
            admin.close();
        }
    }

    private void deleteQueue(String url) {
        try {
            SqsConnection admin = client.connect().get(10, TimeUnit.SECONDS);
            admin.call("DeleteQueue", SqsRequests.queueOnly(url)).get(30, TimeUnit.SECONDS);
            admin.close();
        } catch (Exception e) {
            // Best effort: a leftover queue does not change the result of this run.
        }
    }
}
