package io.hikyaku.bench.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import io.hikyaku.bench.client.ReadinessProbe;
import io.hikyaku.bench.client.SqsConnection;
import io.hikyaku.bench.client.SqsHttpClient;
import io.hikyaku.bench.client.SqsRequests;
import io.hikyaku.bench.stats.ProcStats;
import io.hikyaku.bench.stats.ResultLine;

import java.io.File;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** startup and idle: the tool starts the server itself (cfg.serverCmd) and always stops it again. */
final class ProcessScenarios {
    private final BenchConfig cfg;
    private final SqsHttpClient client;

    ProcessScenarios(BenchConfig cfg, SqsHttpClient client) {
        this.cfg = cfg;
        this.client = client;
    }

    /** Time from process start to the first successful ListQueues. */
    ResultLine startup() throws Exception {
        return run(false);
    }

    /** Resident memory of a fresh server after cfg.settle. */
    ResultLine idle() throws Exception {
        return run(true);
    }

    private ResultLine run(boolean idle) throws Exception {
        if (cfg.serverCmd() == null) {
            throw new IllegalArgumentException(cfg.scenario() + " needs --server-cmd");
        }
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", cfg.serverCmd()).redirectErrorStream(true);
        String log = System.getenv("BENCH_SERVER_LOG");
        pb.redirectOutput(log == null ? ProcessBuilder.Redirect.DISCARD
                : ProcessBuilder.Redirect.appendTo(new File(log)));
        long t0 = System.nanoTime();
        Process p = pb.start();
        try {
            long readyNanos = waitReady(p);
            String pid = Long.toString(jvmPid(p.toHandle()).pid());
            Map<String, String> extra = new LinkedHashMap<>();
            extra.put("startup_ms", String.format(Locale.ROOT, "%.1f", (readyNanos - t0) / 1e6));
            if (idle) {
                Thread.sleep(cfg.settle().toMillis());
            }
            if (cfg.queueName() != null) {
                // A server may answer before it has loaded its data: also time until all stored
                // messages are visible again (bounded by the drain timeout).
                long visible = visibleMessages(cfg.queueName());
                long deadline = System.nanoTime() + cfg.drainTimeout().toNanos();
                while (visible < cfg.messages() && System.nanoTime() < deadline && p.isAlive()) {
                    Thread.sleep(20);
                    visible = visibleMessages(cfg.queueName());
                }
                extra.put("stored_visible", Long.toString(visible));
                extra.put("data_ready_ms", visible >= cfg.messages()
                        ? String.format(Locale.ROOT, "%.1f", (System.nanoTime() - t0) / 1e6) : "-1");
            }
            long rss = ProcStats.rssKib(pid);
            long cpu = ProcStats.cpuMicros(pid);
            extra.put("server_cpu_ms_total", String.format(Locale.ROOT, "%.1f", cpu / 1000.0));
            return new ResultLine(Instant.now(), cfg.resultName(), cfg.server(), -1, -1, -1, -1, -1,
                    rss < 0 ? -1 : rss / 1024.0, -1, 0, extra);
        } finally {
            stop(p);
        }
    }

    private long waitReady(Process p) throws Exception {
        ReadinessProbe probe = new ReadinessProbe(cfg.endpoint());
        long deadline = System.nanoTime() + cfg.drainTimeout().toNanos();
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new IllegalStateException("server exited with " + p.exitValue() + " before it was ready");
            }
            if (probe.ready(5_000)) {
                return System.nanoTime();
            }
            Thread.sleep(5);
        }
        throw new IllegalStateException("server not ready within " + cfg.drainTimeout());
    }

    private long visibleMessages(String queueName) throws Exception {
        SqsConnection c = client.connect().get(5, TimeUnit.SECONDS);
        try {
            JsonNode url = c.callOk("GetQueueUrl", SqsRequests.getQueueUrl(queueName)).get(30, TimeUnit.SECONDS);
            JsonNode attrs = c.callOk("GetQueueAttributes", SqsRequests.getQueueAttributes(url.path("QueueUrl").asText(),
                    List.of("ApproximateNumberOfMessages"))).get(30, TimeUnit.SECONDS);
            return attrs.path("Attributes").path("ApproximateNumberOfMessages").asLong(-1);
        } catch (Exception e) {
            return -1;
        } finally {
            c.close();
        }
    }

    /** The JVM under a wrapper script: the process itself if it is java, else its first java descendant. */
    static ProcessHandle jvmPid(ProcessHandle root) {
        if (isJava(root)) {
            return root;
        }
        return root.descendants().filter(ProcessScenarios::isJava).findFirst().orElse(root);
    }

    private static boolean isJava(ProcessHandle h) {
        return h.info().command().map(c -> c.endsWith("/java") || c.equals("java")).orElse(false);
    }

    static void stop(Process p) throws InterruptedException {
        var children = p.toHandle().descendants().toList();
        children.forEach(ProcessHandle::destroy);
        p.destroy();
        if (!p.waitFor(15, TimeUnit.SECONDS)) {
            children.forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        for (ProcessHandle c : children) {
            try {
                c.onExit().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                c.destroyForcibly();
            }
        }
    }
}
