package io.hikyaku.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.api.ServiceView;
import io.hikyaku.engine.EngineEvents;
import io.hikyaku.engine.IndexUsage;
import io.hikyaku.engine.MoveTaskInfo;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.QueueSnapshot;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The index budget's gauges and the per-queue count of sends refused for memory, as a scrape shows them. */
class IndexMetricsTest {

    private IndexUsage usage = new IndexUsage(1000, 1000, 250, 40);
    private EngineEvents events;

    private final ServiceView view = new ServiceView() {
        @Override public List<QueueSnapshot> queueSnapshots() {
            return List.of(new QueueSnapshot("000000000000", "q", false, 1250, 0, 0, -1, 0));
        }
        @Override public List<MoveTaskInfo> moveTasks() { return List.of(); }
        @Override public int parkedReceives() { return 0; }
        @Override public void setEngineEvents(EngineEvents e) { events = e; }
        @Override public IndexUsage indexUsage() { return usage; }
    };

    private String scrape(HikyakuMetrics metrics) {
        return new String(metrics.scrape(null).body(), StandardCharsets.UTF_8);
    }

    @Test
    void gaugesFollowTheUsageAndRefusalsAreCountedPerQueue() {
        try (HikyakuMetrics metrics = new HikyakuMetrics(Clock.fixed(Instant.ofEpochMilli(1_700_000_000_000L), ZoneOffset.UTC))) {
            metrics.watch(view);
            String text = scrape(metrics);
            assertThat(text).contains("hikyaku_index_budget 1000.0", "hikyaku_index_messages 1000.0",
                    "hikyaku_index_spilled_messages 250.0", "hikyaku_index_dedup_entries 40.0");
            events.sendRefused(new QueueRef("000000000000", "q"));
            events.sendRefused(new QueueRef("000000000000", "q"));
            usage = new IndexUsage(1000, 600, 0, 40);
            text = scrape(metrics);
            assertThat(text).contains("hikyaku_index_messages 600.0", "hikyaku_index_spilled_messages 0.0",
                    "hikyaku_sqs_sends_refused_for_memory_total{account=\"000000000000\",queue=\"q\"} 2.0");
        }
    }

    @Test
    void aServiceThatDoesNotKnowItsUsageGetsNoIndexGauges() {
        ServiceView plain = new ServiceView() {
            @Override public List<QueueSnapshot> queueSnapshots() { return List.of(); }
            @Override public List<MoveTaskInfo> moveTasks() { return List.of(); }
            @Override public int parkedReceives() { return 0; }
            @Override public void setEngineEvents(EngineEvents e) { }
        };
        try (HikyakuMetrics metrics = new HikyakuMetrics(Clock.systemUTC())) {
            metrics.watch(plain);
            assertThat(scrape(metrics)).doesNotContain("hikyaku_index_");
        }
    }
}
