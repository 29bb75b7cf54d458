package io.hikyaku.cloudwatch;

import java.util.List;
import java.util.Map;

/**
 * Metrics another service of this server keeps under its own AWS namespace (AWS/SNS, AWS/Scheduler, ...): once a
 * minute, at the sample, CloudWatch drains what the service gathered and files it as that service's datapoints for
 * the minute that ended, beside the AWS/SQS history (same resolution, retention and snapshot). GetMetricStatistics,
 * GetMetricData, ListMetrics and alarms read them like any other metric. Register with
 * {@link CloudWatch#serviceMetrics}.
 */
public interface ServiceMetrics {

    /**
     * A statistic set: {@code count} samples summing to {@code sum}, between {@code min} and {@code max}.
     *
     * @param namespace an {@code AWS/} namespace (PutMetricData refuses those, so callers cannot forge them)
     * @param unit      a CloudWatch unit ({@code Count}, {@code Bytes}, ...)
     */
    record Datapoint(String accountId, String namespace, String metricName, Map<String, String> dimensions, String unit,
                     double count, double sum, double min, double max) { }

    /** What was gathered since the last call, then forgotten by the service. Called on CloudWatch's sampling thread. */
    List<Datapoint> drain();
}
