package io.hikyaku.bench;

import io.hikyaku.bench.client.SigV4Signer;
import io.hikyaku.bench.scenario.BenchConfig;
import io.hikyaku.bench.scenario.ScenarioRunner;
import io.hikyaku.bench.stats.ResultLine;
import io.hikyaku.bench.stats.Summary;
import io.netty.util.ResourceLeakDetector;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;

/** Command line: `run` one scenario against an SQS endpoint, or `summarize` result files. */
@Command(name = "hikyaku-bench", mixinStandardHelpOptions = true,
        subcommands = {BenchMain.Run.class, BenchMain.Summarize.class})
public final class BenchMain {

    public static void main(String[] args) {
        // Netty samples one buffer in 128 for leak tracking, each with a stack trace: client CPU
        // spent on debugging a load generator. Still on when asked for with -Dio.netty.leakDetection.level.
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
        System.exit(new CommandLine(new BenchMain()).execute(args));
    }

    @Command(name = "run", description = "Run one scenario and append its result line.")
    static final class Run implements Callable<Integer> {
        @Option(names = "--endpoint", required = true, description = "e.g. http://127.0.0.1:9324") URI endpoint;
        @Option(names = "--scenario", required = true, description = "send, send-single, cycle, cycle-at-rate, fifo, "
                + "backlog, preload, drain-stored, longpoll, startup, idle") String scenario;
        @Option(names = "--label", description = "name written instead of the scenario") String label;
        @Option(names = "--server", defaultValue = "unknown", description = "server name in the result") String server;
        @Option(names = "--server-pid", description = "pid of the server, for CPU and RSS") String serverPid;
        @Option(names = "--duration", defaultValue = "10", description = "measuring window, seconds") double duration;
        @Option(names = "--warmup", defaultValue = "2", description = "unmeasured load before the window, seconds")
        double warmup;
        @Option(names = "--producers", defaultValue = "8") int producers;
        @Option(names = "--consumers", defaultValue = "8") int consumers;
        @Option(names = "--body-size", defaultValue = "256") int bodySize;
        @Option(names = "--rate", defaultValue = "500", description = "msg/s for cycle-at-rate and longpoll sends") int rate;
        @Option(names = "--send-rate", defaultValue = "0", description = "send, send-single: requests/s from all "
                + "producers together, paced (0: as fast as replies come back)") int sendRate;
        @Option(names = "--groups", defaultValue = "100", description = "FIFO message groups") int groups;
        @Option(names = "--messages", defaultValue = "1000000", description = "backlog / preload size") long messages;
        @Option(names = "--waiters", defaultValue = "10000") int waiters;
        @Option(names = "--waiter-queues", defaultValue = "100") int waiterQueues;
        @Option(names = "--wait-seconds", defaultValue = "1", description = "consumer long-poll wait") int waitSeconds;
        @Option(names = "--drain-timeout", defaultValue = "300", description = "seconds") double drainTimeout;
        @Option(names = "--settle", defaultValue = "5", description = "seconds before memory is read") double settle;
        @Option(names = "--ceiling", description = "plain HTTP ceiling run (nginx): no queue, no check") boolean ceiling;
        @Option(names = "--server-cmd", description = "startup/idle: shell command starting the server") String serverCmd;
        @Option(names = "--queue-name", description = "preload/startup/drain-stored: queue holding stored messages") String queueName;
        @Option(names = "--results", defaultValue = "bench/results") Path results;
        @Option(names = "--io-threads", defaultValue = "2") int ioThreads;
        @Option(names = "--max-backlog", defaultValue = "500",
                description = "cycle/fifo: producers pause above this many unreceived messages") long maxBacklog;
        @Option(names = "--sigv4", description = "sign every request with SigV4 (keys from AWS_ACCESS_KEY_ID and "
                + "AWS_SECRET_ACCESS_KEY, region AWS_REGION or us-east-1), for servers that verify signatures") boolean sigv4;
        @Option(names = "--trace", description = "cycle, cycle-at-rate, fifo: write per-message timestamps "
                + "(monotonic ns: sent, send acknowledged, receive started, received) to this file") Path trace;

        @Override
        public Integer call() throws Exception {
            BenchConfig cfg = new BenchConfig(endpoint, scenario, label, server, serverPid, seconds(duration), seconds(warmup),
                    producers, consumers, bodySize, rate, sendRate, groups, messages, waiters, waiterQueues, waitSeconds,
                    seconds(drainTimeout), seconds(settle), ceiling, serverCmd, queueName, results, ioThreads, maxBacklog, trace);
            ResultLine line = ScenarioRunner.run(cfg, sigv4 ? SigV4Signer.fromEnvironment() : null);
            System.out.println(line.format());
            return 0;
        }

        private static Duration seconds(double s) {
            return Duration.ofMillis((long) (s * 1000));
        }
    }

    @Command(name = "summarize", description = "Print medians and ratios of result lines as a markdown table.")
    static final class Summarize implements Callable<Integer> {
        @Option(names = "--results", defaultValue = "bench/results") Path results;
        @Option(names = "--since", description = "ISO instant; older lines are ignored") Instant since;
        @Option(names = "--baseline", defaultValue = "elasticmq-memory") String baseline;

        @Override
        public Integer call() throws Exception {
            System.out.print(Summary.table(Summary.read(results, since), baseline));
            return 0;
        }
    }
}
