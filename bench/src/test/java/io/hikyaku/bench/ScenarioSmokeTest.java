package io.hikyaku.bench;

import io.hikyaku.bench.scenario.BenchConfig;
import io.hikyaku.bench.scenario.ScenarioRunner;
import io.hikyaku.bench.stats.ResultLine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Every scenario, about a second each, against the in-test fake SQS endpoint. */
@Timeout(30)
class ScenarioSmokeTest {
    private static FakeSqsServer server;
    private static final String SELF_PID = Long.toString(ProcessHandle.current().pid());
    @TempDir
    static Path results;

    @BeforeAll
    static void start() throws Exception {
        server = new FakeSqsServer(0);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static BenchConfig config(String scenario, URI endpoint, String serverCmd) {
        return new BenchConfig(endpoint, scenario, null, "fake", SELF_PID, Duration.ofMillis(1000), Duration.ofMillis(200), 4, 4, 256, 200, 0,
                20, 2000, 50, 5, 1, Duration.ofSeconds(15), Duration.ofMillis(300), false, serverCmd, null,
                results, 1, 500, null);
    }

    private static URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.port());
    }

    @ParameterizedTest
    @ValueSource(strings = {"send", "send-single", "cycle", "cycle-at-rate", "fifo", "backlog", "longpoll"})
    void queueScenarioRunsCleanly(String scenario) throws Exception {
        ResultLine line = ScenarioRunner.run(config(scenario, endpoint(), null));
        assertThat(line.scenario()).isEqualTo(scenario);
        assertThat(line.errors()).as(line.format()).isZero();
        assertThat(line.extra()).as(line.format()).containsEntry("check", "ok").containsEntry("lost", "0")
                .containsEntry("dup", "0").containsEntry("order_violations", "0");
        assertThat(Long.parseLong(line.extra().get("sent"))).as(line.format()).isPositive();
        assertThat(line.msgsPerSec()).isPositive();
        assertThat(line.p50Ms()).isPositive();
        assertThat(line.p99Ms()).isGreaterThanOrEqualTo(line.p50Ms());
        assertThat(line.serverRssMib()).isPositive();
        assertThat(line.clientCpuUsPerMsg()).isGreaterThanOrEqualTo(0);
        assertThat(Files.readString(results.resolve(line.time().toString().substring(0, 10) + "-" + scenario
                + ".txt"))).contains("scenario=" + scenario + " server=fake");
    }

    @Test
    void longpollReportsTotalAndMarginalMemoryPerWaiter() throws Exception {
        ResultLine line = ScenarioRunner.run(config("longpoll", endpoint(), null));
        assertThat(line.extra()).as(line.format()).containsKeys("rss_before_mib", "rss_half_mib", "rss_parked_mib",
                "rss_per_waiter_kib", "rss_marginal_per_waiter_kib");
        double before = Double.parseDouble(line.extra().get("rss_before_mib"));
        double half = Double.parseDouble(line.extra().get("rss_half_mib"));
        double parked = Double.parseDouble(line.extra().get("rss_parked_mib"));
        assertThat(before).isPositive();
        assertThat(half).isPositive();
        assertThat(parked).isPositive();
        assertThat(Double.parseDouble(line.extra().get("rss_marginal_per_waiter_kib")))
                .isCloseTo((parked - half) * 1024 / 25, org.assertj.core.data.Offset.offset(0.3 * 1024 / 25 + 0.01));
    }

    @Test
    void cycleAtRateHoldsTheTargetRate() throws Exception {
        ResultLine line = ScenarioRunner.run(config("cycle-at-rate", endpoint(), null));
        assertThat(line.msgsPerSec()).as(line.format()).isBetween(100.0, 300.0); // target 200 msg/s
    }

    @Test
    void traceHasOneLinePerReceivedMessageInTimeOrder() throws Exception {
        BenchConfig c = config("cycle-at-rate", endpoint(), null);
        java.nio.file.Path file = results.resolve("trace.txt");
        ResultLine line = ScenarioRunner.run(new BenchConfig(c.endpoint(), c.scenario(), null, c.server(), c.serverPid(),
                c.duration(), c.warmup(), c.producers(), c.consumers(), c.bodySize(), c.rate(), c.sendRate(), c.groups(), c.messages(),
                c.waiters(), c.waiterQueues(), c.waitSeconds(), c.drainTimeout(), c.settle(), false, null, null, results,
                1, 500, file));
        java.util.List<String> lines = Files.readAllLines(file);
        assertThat(lines.get(0)).startsWith("# seq sent_ns acked_ns poll_started_ns received_ns");
        java.util.List<String> rows = lines.subList(1, lines.size());
        assertThat((long) rows.size()).isEqualTo(Long.parseLong(line.extra().get("received")));
        for (String row : rows) {
            long[] f = java.util.Arrays.stream(row.split(" ")).mapToLong(Long::parseLong).toArray();
            assertThat(f).as(row).hasSize(5);
            assertThat(f[1]).as(row).isPositive();          // sent
            assertThat(f[2]).as(row).isGreaterThan(f[1]);   // send acknowledged after it was sent
            assertThat(f[4]).as(row).isGreaterThan(f[1]).isGreaterThan(f[3]); // received after sent and after the poll began
        }
    }

    @Test
    void cycleReportsHowFullTheReceivesWere() throws Exception {
        ResultLine line = ScenarioRunner.run(config("cycle", endpoint(), null));
        assertThat(Double.parseDouble(line.extra().get("receives_s"))).as(line.format()).isPositive();
        assertThat(Double.parseDouble(line.extra().get("msgs_per_receive"))).as(line.format()).isBetween(0.01, 10.0);
        // The median round trip of each call a virtual user waits on: reported, and a plausible time.
        for (String call : new String[] {"send_call_p50_ms", "receive_call_p50_ms", "delete_call_p50_ms"}) {
            assertThat(Double.parseDouble(line.extra().get(call))).as(call + " in " + line.format())
                    .isPositive().isLessThan(10_000.0);
        }
    }

    @Test
    void backlogPreloadsExactlyTheRequestedCount() throws Exception {
        ResultLine line = ScenarioRunner.run(config("backlog", endpoint(), null));
        assertThat(line.extra()).containsEntry("preloaded", "2000").containsEntry("deleted", "2000");
    }

    @Test
    void ceilingModeNeedsNoQueue() throws Exception {
        BenchConfig c = config("send", endpoint(), null);
        BenchConfig ceiling = new BenchConfig(c.endpoint(), "send", "send-ceiling", "fake", SELF_PID, c.duration(), c.warmup(), 2,
                2, 256, 100, 0, 10, 10, 10, 1, 1, c.drainTimeout(), c.settle(), true, null, null, results, 1, 500, null);
        long before = server.requests();
        ResultLine line = ScenarioRunner.run(ceiling);
        // The fake answers an unknown queue with 400, which the ceiling run must count as errors.
        assertThat(line.scenario()).isEqualTo("send-ceiling");
        assertThat(line.errors()).isPositive();
        assertThat(server.requests()).isGreaterThan(before);
        assertThat(line.extra()).doesNotContainKey("check");
    }

    @Test
    void pacedSendHoldsItsRequestRate() throws Exception {
        BenchConfig c = config("send", endpoint(), null);
        BenchConfig paced = new BenchConfig(c.endpoint(), "send", "send-paced", "fake", SELF_PID, Duration.ofMillis(2000),
                c.warmup(), 4, 4, 256, 100, 200, 10, 10, 10, 1, 1, c.drainTimeout(), c.settle(), false, null, null, results,
                1, 500, null);
        ResultLine line = ScenarioRunner.run(paced);
        // 200 requests/s over 2 s from 4 producers, one every 20 ms each: the closed loop does far more here.
        assertThat(Double.parseDouble(line.extra().get("requests_s"))).as(line.format()).isBetween(150.0, 230.0);
        assertThat(line.extra()).containsEntry("send_rate", "200").containsEntry("check", "ok");
    }

    @ParameterizedTest
    @ValueSource(strings = {"startup", "idle"})
    void processScenariosStartAndStopTheServer(String scenario) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String javaBin = ProcessHandle.current().info().command().orElse("java");
        String cmd = "exec '" + javaBin + "' -cp '" + System.getProperty("java.class.path") + "' "
                + FakeSqsServer.class.getName() + " " + port;
        ResultLine line = ScenarioRunner.run(config(scenario, URI.create("http://127.0.0.1:" + port), cmd));
        double startupMs = Double.parseDouble(line.extra().get("startup_ms"));
        assertThat(startupMs).as(line.format()).isBetween(1.0, 15_000.0);
        assertThat(line.serverRssMib()).as(line.format()).isPositive();
        // stopped again: the port is free
        try (ServerSocket s = new ServerSocket(port, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            assertThat(s.getLocalPort()).isEqualTo(port);
        }
    }
}
