package io.hikyaku.server.scheduler;

import io.hikyaku.cloudwatch.CloudWatch;
import io.hikyaku.scheduler.SchedulerMetrics;
import java.util.Map;

/**
 * The Scheduler's invocation outcomes as CloudWatch's AWS/Scheduler metrics of the schedule's account: each one
 * twice, as AWS publishes them, without dimensions (all schedules) and with {@code ScheduleGroup}.
 */
public final class SchedulerCloudWatch implements SchedulerMetrics {

    static final String NAMESPACE = "AWS/Scheduler";

    private final CloudWatch cloudWatch;

    public SchedulerCloudWatch(CloudWatch cloudWatch) {
        this.cloudWatch = cloudWatch;
    }

    @Override
    public void count(String account, String group, String metric) {
        cloudWatch.recordServiceMetric(account, NAMESPACE, metric, Map.of(), 1);
        cloudWatch.recordServiceMetric(account, NAMESPACE, metric, Map.of("ScheduleGroup", group), 1);
    }
}
