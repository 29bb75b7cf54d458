package io.hikyaku.sns;

import java.util.Map;
import java.util.TreeMap;

/** One topic of the state: its identity, the attributes set on it (only those) and its tags. */
final class Topic {

    final String arn;
    final String account;
    final String region;
    final String name;
    final boolean fifo;
    final long createdMillis;
    /** Attributes set by CreateTopic or SetTopicAttributes, by name; defaults are computed when read. */
    final Map<String, String> attributes = new TreeMap<>();
    final Map<String, String> tags = new TreeMap<>();
    int subscriptionsDeleted;

    Topic(String arn, String account, String region, String name, boolean fifo, long createdMillis) {
        this.arn = arn;
        this.account = account;
        this.region = region;
        this.name = name;
        this.fifo = fifo;
        this.createdMillis = createdMillis;
    }
}
