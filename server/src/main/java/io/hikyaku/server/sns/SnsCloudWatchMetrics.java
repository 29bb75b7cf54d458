package io.hikyaku.server.sns;

import io.hikyaku.cloudwatch.ServiceMetrics;
import io.hikyaku.sns.SnsService;
import io.hikyaku.sns.TopicMetricPoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * SNS's per-topic datapoints as the CloudWatch API's AWS/SNS metrics (dimension TopicName), drained at each
 * minute's sample; nothing while SNS is not running.
 */
public final class SnsCloudWatchMetrics implements ServiceMetrics {

    static final String NAMESPACE = "AWS/SNS";

    private final Supplier<SnsService> sns;

    public SnsCloudWatchMetrics(Supplier<SnsService> sns) {
        this.sns = sns;
    }

    @Override
    public List<Datapoint> drain() {
        SnsService service = sns.get();
        List<Datapoint> out = new ArrayList<>();
        if (service == null) {
            return out;
        }
        for (TopicMetricPoint p : service.drainTopicMetrics()) {
            out.add(new Datapoint(p.accountId(), NAMESPACE, p.metricName(), Map.of("TopicName", p.topicName()), p.unit(),
                    p.count(), p.sum(), p.min(), p.max()));
        }
        return out;
    }
}
