package io.hikyaku.bench.scenario;

import io.hikyaku.bench.client.SigV4Signer;
import io.hikyaku.bench.client.SqsHttpClient;
import io.hikyaku.bench.stats.ResultLine;
import io.hikyaku.bench.stats.ResultsFile;

import java.util.List;

/** Runs one scenario by name and appends its result line to the results folder. */
public final class ScenarioRunner {
    public static final List<String> SCENARIOS = List.of("send", "send-single", "cycle", "cycle-at-rate", "fifo",
            "backlog", "preload", "drain-stored", "longpoll", "startup", "idle");

    private ScenarioRunner() {
    }

    /** Single sends paced to cfg.rate in total; enough producers that each sends at most 25/s. */
    private static ResultLine atRate(BenchConfig cfg, SqsHttpClient client) throws Exception {
        int producers = Math.max(cfg.producers(), (cfg.rate() + 24) / 25);
        BenchConfig c = cfg.withProducers(producers);
        return new QueueScenarios(c, client).cycle(false, 1, (long) (producers * 1e9 / Math.max(1, cfg.rate())));
    }

    public static ResultLine run(BenchConfig cfg) throws Exception {
        return run(cfg, null);
    }

    /** As run(cfg), every request signed with SigV4 by signer when it is not null. */
    public static ResultLine run(BenchConfig cfg, SigV4Signer signer) throws Exception {
        int io = cfg.scenario().equals("longpoll") ? Math.max(cfg.ioThreads(), 2) : cfg.ioThreads();
        try (SqsHttpClient client = new SqsHttpClient(cfg.endpoint(), io, signer)) {
            QueueScenarios q = new QueueScenarios(cfg, client);
            ResultLine line = switch (cfg.scenario()) {
                case "send" -> q.send(10);
                case "send-single" -> q.send(1);
                case "cycle" -> q.cycle(false, 10, 0);
                case "cycle-at-rate" -> atRate(cfg, client);
                case "fifo" -> q.cycle(true, 10, 0);
                case "backlog" -> q.backlog();
                case "preload" -> q.preloadOnly();
                case "drain-stored" -> q.drainStored();
                case "longpoll" -> new LongPollScenario(cfg, client).run();
                case "startup" -> new ProcessScenarios(cfg, client).startup();
                case "idle" -> new ProcessScenarios(cfg, client).idle();
                default -> throw new IllegalArgumentException("unknown scenario " + cfg.scenario()
                        + "; known: " + SCENARIOS);
            };
            if (cfg.resultsDir() != null) {
                ResultsFile.append(cfg.resultsDir(), line);
            }
            return line;
        }
    }
}
