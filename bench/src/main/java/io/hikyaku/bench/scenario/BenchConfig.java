package io.hikyaku.bench.scenario;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/** Everything a scenario run needs, filled from the command line (or by tests). */
public record BenchConfig(
        URI endpoint,
        String scenario,
        String label,
        String server,
        String serverPid,
        Duration duration,
        Duration warmup,
        int producers,
        int consumers,
        int bodySize,
        int rate,
        /** send, send-single: requests per second from all producers together, paced; 0 = closed loop. */
        int sendRate,
        int groups,
        long messages,
        int waiters,
        int waiterQueues,
        int waitSeconds,
        Duration drainTimeout,
        Duration settle,
        boolean ceiling,
        String serverCmd,
        String queueName,
        Path resultsDir,
        int ioThreads,
        long maxBacklog,
        Path traceFile) {

    /** Name written in the result line: the label when given, else the scenario. */
    public String resultName() {
        return label == null || label.isBlank() ? scenario : label;
    }

    public static BenchConfig defaults(URI endpoint, String scenario) {
        return new BenchConfig(endpoint, scenario, null, "unknown", null, Duration.ofSeconds(10), Duration.ofSeconds(2), 8, 8, 256, 500, 0,
                100, 1_000_000, 10_000, 100, 1, Duration.ofSeconds(120), Duration.ofSeconds(5), false, null, null,
                Path.of("bench/results"), 2, 500, null);
    }

    public BenchConfig withProducers(int p) {
        return new BenchConfig(endpoint, scenario, label, server, serverPid, duration, warmup, p, consumers, bodySize,
                rate, sendRate, groups, messages, waiters, waiterQueues, waitSeconds, drainTimeout, settle, ceiling, serverCmd,
                queueName, resultsDir, ioThreads, maxBacklog, traceFile);
    }
}
