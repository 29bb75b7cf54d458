package io.hikyaku.server.scheduler;

import io.hikyaku.scheduler.SchedulerMetrics;
import io.hikyaku.scheduler.SchedulerService;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.Supplier;

/**
 * The Scheduler's totals in {@code /metrics}: each AWS/Scheduler metric name as a counter,
 * {@code InvocationAttemptCount} as {@code hikyaku_scheduler_invocation_attempt_count_total} and so on, read
 * from the running service at each scrape (zero while the Scheduler is not started), and the gauge
 * {@code hikyaku_scheduler_schedules} (schedules stored).
 */
public final class SchedulerMeters {

    private final Supplier<SchedulerService> scheduler;

    private SchedulerMeters(Supplier<SchedulerService> scheduler) {
        this.scheduler = scheduler;
    }

    /** Micrometer holds a meter's object weakly: the gauge holds it strongly, the counters share it. */
    public static void bind(MeterRegistry registry, Supplier<SchedulerService> service) {
        SchedulerMeters meters = new SchedulerMeters(service);
        Gauge.builder("hikyaku.scheduler.schedules", meters, m -> {
            SchedulerService s = m.scheduler.get();
            return s == null ? 0 : s.scheduleCount();
        }).description("Schedules stored (every account)").strongReference(true).register(registry);
        for (String name : SchedulerMetrics.NAMES) {
            FunctionCounter.builder("hikyaku.scheduler." + dotted(name), meters, m -> m.read(name))
                    .description("Scheduler invocations: AWS/Scheduler " + name).register(registry);
        }
    }

    /** {@code InvocationAttemptCount} -> {@code invocation.attempt.count}. */
    static String dotted(String camel) {
        return camel.replaceAll("([a-z])([A-Z])", "$1.$2").toLowerCase(java.util.Locale.ROOT);
    }

    private double read(String name) {
        SchedulerService s = scheduler.get();
        Long v = s == null ? null : s.counters().get(name);
        return v == null ? 0 : v;
    }
}
