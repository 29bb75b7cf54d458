package io.hikyaku.server;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Orders start-up queues so every dead-letter queue is created before the queues that use it. */
final class QueueOrder {

    private QueueOrder() {}

    /**
     * @throws IllegalArgumentException for a duplicate name or a dead-letter cycle
     */
    static List<QueueDefinition> deadLetterQueuesFirst(List<QueueDefinition> queues) {
        Map<String, QueueDefinition> byName = new LinkedHashMap<>();
        for (QueueDefinition q : queues) {
            if (byName.put(key(q.account(), q.name()), q) != null) {
                throw new IllegalArgumentException("queue " + q.name() + " is defined twice"
                        + (q.account() == null ? "" : " in account " + q.account()));
            }
        }
        List<QueueDefinition> ordered = new ArrayList<>();
        Set<String> done = new HashSet<>();
        Map<String, Boolean> visiting = new HashMap<>();
        for (QueueDefinition q : queues) {
            visit(q, byName, done, visiting, ordered);
        }
        return ordered;
    }

    private static void visit(QueueDefinition q, Map<String, QueueDefinition> byName, Set<String> done,
                              Map<String, Boolean> visiting, List<QueueDefinition> ordered) {
        String key = key(q.account(), q.name());
        if (done.contains(key)) {
            return;
        }
        if (visiting.putIfAbsent(key, true) != null) {
            throw new IllegalArgumentException("dead-letter queues form a cycle through " + q.name());
        }
        QueueDefinition dlq = q.deadLetterQueue() == null ? null : byName.get(key(q.account(), q.deadLetterQueue()));
        if (dlq != null) {
            visit(dlq, byName, done, visiting, ordered); // a DLQ not in the list must already exist
        }
        done.add(key);
        ordered.add(q);
    }

    /** Queues are named per account (null = the default account). */
    private static String key(String account, String name) {
        return (account == null ? "" : account) + "/" + name;
    }
}
