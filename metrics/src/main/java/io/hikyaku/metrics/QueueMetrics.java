package io.hikyaku.metrics;

import io.hikyaku.api.ServiceView;
import io.hikyaku.engine.EngineEvents;
import io.hikyaku.engine.MoveTaskInfo;
import io.hikyaku.engine.QueueRef;
import io.hikyaku.engine.QueueSnapshot;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-queue metrics. Counters are counted as requests complete ({@link RequestMetrics}) and as the
 * engine reports dedup hits and dead-letter moves; gauges are read from the service's pure
 * {@link ServiceView} just before each scrape, and counters of queues that no longer exist go away then.
 */
final class QueueMetrics implements EngineEvents {

    private final MeterRegistry registry;
    private final Clock clock;
    private final Map<QueueKey, QueueMeters> meters = new ConcurrentHashMap<>();
    private final Map<String, Counter> moves = new ConcurrentHashMap<>();
    final Consumers consumers = new Consumers();
    private final MultiGauge visible;
    private final MultiGauge notVisible;
    private final MultiGauge delayed;
    private final MultiGauge ageOfOldest;
    private final MultiGauge groupsWithInflight;
    private final MultiGauge activeConsumers;
    private final MultiGauge backlogPerConsumer;
    private final MultiGauge taskMoved;
    private final MultiGauge taskToMove;
    private volatile int queueCount;
    private ServiceView view;

    QueueMetrics(MeterRegistry registry, Clock clock) {
        this.registry = registry;
        this.clock = clock;
        visible = gauge(MetricNames.VISIBLE, "Messages available for retrieval (ApproximateNumberOfMessagesVisible)", null);
        notVisible = gauge(MetricNames.NOT_VISIBLE, "Messages in flight (ApproximateNumberOfMessagesNotVisible)", null);
        delayed = gauge(MetricNames.DELAYED, "Delayed messages (ApproximateNumberOfMessagesDelayed)", null);
        ageOfOldest = gauge(MetricNames.AGE_OF_OLDEST, "Age of the oldest message in the queue (ApproximateAgeOfOldestMessage)", "seconds");
        groupsWithInflight = gauge(MetricNames.GROUPS_WITH_INFLIGHT,
                "FIFO: message groups with messages in flight (ApproximateNumberOfGroupsWithInflightMessages)", null);
        activeConsumers = gauge(MetricNames.ACTIVE_CONSUMERS,
                "Distinct receivers (access key id and client IP) that called ReceiveMessage in the last 60 s", null);
        backlogPerConsumer = gauge(MetricNames.BACKLOG_PER_CONSUMER,
                "Visible messages divided by active consumers (by 1 when there are none)", null);
        taskMoved = gauge(MetricNames.MOVE_TASK_MOVED, "Messages a move task has moved so far", null);
        taskToMove = gauge(MetricNames.MOVE_TASK_TO_MOVE, "Messages a move task set out to move", null);
        Gauge.builder(MetricNames.QUEUES, this, m -> m.queueCount).description("Queues that exist").register(registry);
    }

    private MultiGauge gauge(String name, String help, String unit) {
        MultiGauge.Builder b = MultiGauge.builder(name).description(help);
        if (unit != null) {
            b.baseUnit(unit);
        }
        return b.register(registry);
    }

    void watch(ServiceView service) {
        this.view = service;
        service.setEngineEvents(this);
    }

    QueueMeters of(QueueKey queue) {
        QueueMeters m = meters.get(queue);
        return m != null ? m : meters.computeIfAbsent(queue, q -> new QueueMeters(registry, q));
    }

    /** Reads every queue once and sets the gauges; forgets queues that are gone. */
    void refresh() {
        if (view == null) {
            return;
        }
        List<QueueSnapshot> queues = view.queueSnapshots();
        long now = clock.millis();
        List<MultiGauge.Row<?>> vis = new ArrayList<>();
        List<MultiGauge.Row<?>> nv = new ArrayList<>();
        List<MultiGauge.Row<?>> del = new ArrayList<>();
        List<MultiGauge.Row<?>> age = new ArrayList<>();
        List<MultiGauge.Row<?>> groups = new ArrayList<>();
        List<MultiGauge.Row<?>> cons = new ArrayList<>();
        List<MultiGauge.Row<?>> backlog = new ArrayList<>();
        Set<QueueKey> present = new HashSet<>();
        for (QueueSnapshot q : queues) {
            QueueKey key = new QueueKey(q.accountId(), q.name());
            present.add(key);
            Tags tags = MetricNames.queueTags(key);
            vis.add(MultiGauge.Row.of(tags, q.visible()));
            nv.add(MultiGauge.Row.of(tags, q.notVisible()));
            del.add(MultiGauge.Row.of(tags, q.delayed()));
            age.add(MultiGauge.Row.of(tags, q.oldestSentAt() < 0 ? 0 : Math.max(0, now - q.oldestSentAt()) / 1000));
            if (q.fifo()) {
                groups.add(MultiGauge.Row.of(tags, q.groupsWithInflight()));
            }
            int active = consumers.active(key, now);
            cons.add(MultiGauge.Row.of(tags, active));
            backlog.add(MultiGauge.Row.of(tags, (double) q.visible() / Math.max(1, active)));
        }
        visible.register(vis, true);
        notVisible.register(nv, true);
        delayed.register(del, true);
        ageOfOldest.register(age, true);
        groupsWithInflight.register(groups, true);
        activeConsumers.register(cons, true);
        backlogPerConsumer.register(backlog, true);
        queueCount = queues.size();
        for (QueueKey gone : new ArrayList<>(meters.keySet())) {
            if (!present.contains(gone)) {
                QueueMeters m = meters.remove(gone);
                m.all().forEach(registry::remove);
                consumers.forget(gone);
            }
        }
        refreshMoveTasks();
    }

    private void refreshMoveTasks() {
        List<MultiGauge.Row<?>> moved = new ArrayList<>();
        List<MultiGauge.Row<?>> toMove = new ArrayList<>();
        Set<Tags> seen = new HashSet<>();
        for (MoveTaskInfo t : view.moveTasks()) {
            // One series per source and status: the newest task of each (ListMessageMoveTasks' order is newest first).
            // The account label keeps two accounts' same-named queues apart (issue 35).
            Tags tags = Tags.of("account", accountOf(t.sourceArn()), "source", nameOf(t.sourceArn()), "destination",
                    t.destinationArn() == null ? "" : nameOf(t.destinationArn()), "status", t.status());
            if (seen.add(tags)) {
                moved.add(MultiGauge.Row.of(tags, t.approximateNumberOfMessagesMoved()));
                toMove.add(MultiGauge.Row.of(tags, t.approximateNumberOfMessagesToMove()));
            }
        }
        taskMoved.register(moved, true);
        taskToMove.register(toMove, true);
    }

    /** The account of {@code arn:aws:sqs:region:account:name}. */
    private static String accountOf(String arn) {
        String[] parts = arn.split(":", 6);
        return parts.length == 6 ? parts[4] : "";
    }

    private static String nameOf(String arn) {
        return arn.substring(arn.lastIndexOf(':') + 1);
    }

    // ---- engine events (under the engine lock: counters only) ----

    @Override
    public void deduplicated(QueueRef queue) {
        of(new QueueKey(queue.accountId(), queue.name())).deduplicated.increment();
    }

    @Override
    public void sendRefused(QueueRef queue) {
        of(new QueueKey(queue.accountId(), queue.name())).refusedForMemory.increment();
    }

    @Override
    public void movedToDeadLetterQueue(QueueRef source, QueueRef deadLetterQueue) {
        move(MetricNames.MOVED_TO_DLQ, "Messages moved to a dead-letter queue after maxReceiveCount receives",
                source, deadLetterQueue, "dead_letter_queue");
    }

    @Override
    public void movedByTask(QueueRef source, QueueRef destination) {
        move(MetricNames.MOVED_BY_TASK, "Messages moved by message move tasks (redrive)", source, destination, "destination");
    }

    private void move(String name, String help, QueueRef from, QueueRef to, String toLabel) {
        String key = name + '\0' + from.accountId() + '\0' + from.name() + '\0' + to.name();
        Counter c = moves.get(key);
        if (c == null) {
            c = moves.computeIfAbsent(key, k -> Counter.builder(name).description(help)
                    .tags("account", from.accountId(), "queue", from.name(), toLabel, to.name()).register(registry));
        }
        c.increment();
    }
}
