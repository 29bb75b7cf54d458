package io.hikyaku.cluster;

import org.apache.ratis.metrics.MetricRegistries;
import org.apache.ratis.metrics.MetricRegistryInfo;
import org.apache.ratis.metrics.RatisMetricRegistry;
import org.apache.ratis.metrics.impl.RatisMetricRegistryImpl;
import org.apache.ratis.thirdparty.com.codahale.metrics.Snapshot;
import org.apache.ratis.thirdparty.com.codahale.metrics.Timer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Ratis' own timers of one node (its log worker's flush and fsync, a follower's handling of
 * AppendEntries, the leader's client writes): the stages of a replicated write that happen inside
 * Ratis, beside Hikyaku's own ({@link ReplicationStages}). Read from Ratis' global metric registries
 * (ratis-metrics-default), whose timers keep a decaying sample of recent durations.
 */
public final class RatisTimers {

    /** One Ratis timer: {@code name} is its registry's component and its own name. */
    public record Reading(String name, long count, double meanMillis, double p99Millis) {}

    private RatisTimers() {}

    /**
     * The mean of the timers of member {@code peerId} whose name is {@code name} or, for a name ending
     * in {@code *}, starts with it and does not end in {@code _heartbeat} (the leader's appenders, one per
     * follower: weighted by count); 0 when there is none yet.
     */
    static double meanMillis(String peerId, String name) {
        double total = 0;
        long count = 0;
        boolean prefix = name.endsWith("*");
        String stem = prefix ? name.substring(0, name.length() - 1) : name;
        for (Reading r : of(peerId)) {
            boolean match = prefix ? r.name().startsWith(stem) && !r.name().endsWith("_heartbeat") : r.name().equals(name);
            if (match) {
                total += r.meanMillis() * r.count();
                count += r.count();
            }
        }
        return count == 0 ? 0 : total / count;
    }

    /** The timers of the Raft member whose id starts with {@code peerId + "@"} (this JVM only). */
    static List<Reading> of(String peerId) {
        List<Reading> out = new ArrayList<>();
        String member = peerId + "@";
        for (RatisMetricRegistry registry : MetricRegistries.global().getMetricRegistries()) {
            MetricRegistryInfo info = registry.getMetricRegistryInfo();
            if (!(registry instanceof RatisMetricRegistryImpl impl)) {
                continue;
            }
            boolean ours = info.getPrefix() != null && info.getPrefix().startsWith(member);
            for (Map.Entry<String, Timer> e : impl.getDropWizardMetricRegistry().getTimers().entrySet()) {
                if (!ours && !e.getKey().contains(member)) {
                    continue;
                }
                Snapshot s = e.getValue().getSnapshot();
                String shortName = e.getKey().substring(e.getKey().lastIndexOf('.') + 1);
                out.add(new Reading(info.getMetricsComponentName() + "." + shortName, e.getValue().getCount(),
                        s.getMean() / 1e6, s.get99thPercentile() / 1e6));
            }
        }
        out.sort(java.util.Comparator.comparing(Reading::name));
        return out;
    }
}
