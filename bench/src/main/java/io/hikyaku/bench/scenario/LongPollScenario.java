package io.hikyaku.bench.scenario;

import io.hikyaku.bench.check.MessageBody;
import io.hikyaku.bench.client.SqsConnection;
import io.hikyaku.bench.client.SqsHttpClient;
import io.hikyaku.bench.client.SqsRequests;
import io.hikyaku.bench.stats.ProcStats;
import io.hikyaku.bench.stats.ResultLine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Parks cfg.waiters long polls (WaitTimeSeconds=20, one connection each) on cfg.waiterQueues
 * empty queues, measures the server's memory growth per waiter, then sends single messages
 * round-robin over the queues and records wake-up latency (send time to the waiter's answer).
 *
 * <p>The waiters park in two halves, cfg.settle apart, and memory is read after each. The growth
 * over all waiters ({@code rss_per_waiter_kib}) also counts what the server spends once on its
 * first parked polls: a JVM JIT-compiles the parking path then, and its code cache, compiler arenas
 * and metaspace grew by ~18 MB in such a run (native memory tracking). The second half's growth
 * ({@code rss_marginal_per_waiter_kib}) is what one more parked waiter costs.
 *
 * <p>Before the first reading the server is warmed for cfg.warmup with 1-second long polls on up to
 * 1,000 connections (left open and idle, so that what they used is not freed and reused by the waiters): otherwise the growth also counts a young
 * generation the JVM had not yet touched and code it had not yet compiled, which depends on how the
 * server happened to start rather than on the waiters.
 */
final class LongPollScenario {
    private static final int LONG_POLL_SECONDS = 20;
    private static final int PREWARM_CONNECTIONS = 1_000;
    private final BenchConfig cfg;
    private final SqsHttpClient client;

    LongPollScenario(BenchConfig cfg, SqsHttpClient client) {
        this.cfg = cfg;
        this.client = client;
    }

    ResultLine run() throws Exception {
        RunState state = new RunState(false);
        int queues = Math.max(1, Math.min(cfg.waiterQueues(), cfg.waiters()));
        List<String> urls = createQueues(queues);
        List<SqsConnection> warmed = prewarm(urls);
        long rssBefore = rss();
        int firstHalf = cfg.waiters() / 2;
        List<SqsConnection> conns = new ArrayList<>(park(state, urls, 0, firstHalf));
        Thread.sleep(cfg.settle().toMillis());
        long rssHalf = rss();
        conns.addAll(park(state, urls, firstHalf, cfg.waiters() - firstHalf));
        Thread.sleep(cfg.settle().toMillis());
        long rssParked = rss();
        SqsConnection sender = client.connect().get(10, TimeUnit.SECONDS);
        long intervalNanos = 1_000_000_000L / Math.max(1, Math.min(cfg.rate(), 1000));
        // Unmeasured paced sends first: at 100 sends/s the wake-up path is otherwise still being
        // JIT-compiled (in both processes) through much of the window.
        state.windowOpen = false;
        CompletableFuture<Void> sending = sendPaced(sender, state, urls, intervalNanos);
        Thread.sleep(cfg.warmup().toMillis());
        Window w = new Window(cfg.serverPid()).open();
        state.windowOpen = true;
        Thread.sleep(cfg.duration().toMillis());
        state.producing = false;
        sending.get(10, TimeUnit.SECONDS);
        Vus.waitUntil(state.checker::drained, 10_000);
        state.windowOpen = false;
        w.close();
        state.consuming = false;
        state.closing = true;
        long errors = state.errors.get();
        Vus.closeAll(warmed);
        Vus.closeAll(conns); // the parked polls end here; failures from this close are not counted
        sender.close();
        cleanup(urls);

        Map<String, String> extra = new LinkedHashMap<>();
        extra.put("waiters", Integer.toString(cfg.waiters()));
        extra.put("queues", Integer.toString(queues));
        extra.put("rss_before_mib", mib(rssBefore));
        extra.put("rss_parked_mib", mib(rssParked));
        extra.put("rss_per_waiter_kib", rssBefore < 0 || rssParked < 0 ? "-1"
                : String.format(Locale.ROOT, "%.2f", (rssParked - rssBefore) / (double) cfg.waiters()));
        extra.put("rss_half_mib", mib(rssHalf));
        int secondHalf = cfg.waiters() - firstHalf;
        extra.put("rss_marginal_per_waiter_kib", rssHalf < 0 || rssParked < 0 || secondHalf == 0 ? "-1"
                : String.format(Locale.ROOT, "%.2f", (rssParked - rssHalf) / (double) secondHalf));
        ResultLine line = Results.line(cfg, state.windowSent.get(), state.receiveLatency, w, state, extra);
        return new ResultLine(line.time(), line.scenario(), line.server(), line.msgsPerSec(), line.p50Ms(),
                line.p99Ms(), line.p999Ms(), line.serverCpuUsPerMsg(), line.serverRssMib(), line.clientCpuUsPerMsg(),
                errors, line.extra());
    }

    /** Returns the warm-up connections, idle but open: closing them would free memory the waiters then reuse. */
    private List<SqsConnection> prewarm(List<String> urls) throws Exception {
        RunState warm = new RunState(false);
        warm.windowOpen = false;
        List<SqsConnection> conns = Vus.connect(client, Math.min(PREWARM_CONNECTIONS, cfg.waiters()));
        List<CompletableFuture<Void>> polls = new ArrayList<>();
        for (int i = 0; i < conns.size(); i++) {
            polls.add(new Consumer(conns.get(i), warm, urls.get(i % urls.size()), 1).start());
        }
        Thread.sleep(cfg.warmup().toMillis());
        warm.consuming = false;
        Vus.await(polls, 5_000);
        return conns;
    }

    /** Opens n connections and parks a long poll on each, on queues first, first+1, ... (round-robin). */
    private List<SqsConnection> park(RunState state, List<String> urls, int first, int n) throws Exception {
        List<SqsConnection> conns = Vus.connect(client, n);
        for (int i = 0; i < conns.size(); i++) {
            new Consumer(conns.get(i), state, urls.get((first + i) % urls.size()), LONG_POLL_SECONDS).start();
        }
        return conns;
    }

    private CompletableFuture<Void> sendPaced(SqsConnection sender, RunState state, List<String> urls,
                                              long intervalNanos) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        long start = System.nanoTime();
        new Object() {
            long k;

            void next() {
                if (!state.producing) {
                    done.complete(null);
                    return;
                }
                long seq = state.nextSeq.getAndIncrement();
                String url = urls.get((int) (k++ % urls.size()));
                String body = new MessageBody(seq, 0, 0, System.nanoTime()).encode(cfg.bodySize());
                sender.send("SendMessage", SqsRequests.sendMessage(url, body, null), (r, err) -> {
                    if (err != null) {
                        state.error(err);
                    } else {
                        state.checker.sent(seq);
                        if (state.windowOpen) {
                            state.windowSent.incrementAndGet();
                        }
                    }
                    long due = start + k * intervalNanos - System.nanoTime();
                    sender.channel().eventLoop().schedule(this::next, Math.max(due, 0), TimeUnit.NANOSECONDS);
                });
            }
        }.next();
        return done;
    }

    private long rss() {
        return cfg.serverPid() == null ? -1 : ProcStats.rssKib(cfg.serverPid());
    }

    private static String mib(long kib) {
        return kib < 0 ? "-1" : String.format(Locale.ROOT, "%.1f", kib / 1024.0);
    }

    private List<String> createQueues(int n) throws Exception {
        SqsConnection admin = client.connect().get(10, TimeUnit.SECONDS);
        List<String> urls = new ArrayList<>();
        String prefix = "bench-longpoll-" + System.currentTimeMillis() + "-";
        for (int i = 0; i < n; i++) {
            urls.add(admin.callOk("CreateQueue", SqsRequests.createQueue(prefix + i, Map.of()))
                    .get(30, TimeUnit.SECONDS).path("QueueUrl").asText());
        }
        admin.close();
        return urls;
    }

    private void cleanup(List<String> urls) {
        try {
            SqsConnection admin = client.connect().get(10, TimeUnit.SECONDS);
            for (String u : urls) {
                admin.call("DeleteQueue", SqsRequests.queueOnly(u)).get(30, TimeUnit.SECONDS);
            }
            admin.close();
        } catch (Exception e) {
            // Best effort only.
        }
    }
}
