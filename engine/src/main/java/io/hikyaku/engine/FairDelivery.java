package io.hikyaku.engine;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Standard-queue delivery: oldest visible message first, except that tenants (MessageGroupId) that
 * are noisy are passed over while a quiet tenant has a visible message (SQS fair queues).
 *
 * <p>A tenant is noisy when it holds at least 30 in-flight messages and more than 10% of the
 * queue's in-flight messages; a message without group id is its own (always quiet) tenant. Since
 * each noisy tenant holds more than a tenth of all in-flight messages there are at most 9 of them,
 * so skipping noisy tenants while walking tenants in head order costs O(10 log n). When every
 * candidate is noisy, the noisy tenant with the fewest messages in flight is served.
 */
final class FairDelivery implements Delivery {

    static final int NOISY_MIN_INFLIGHT = 30;

    private static final class Tenant {
        final String id;
        final TreeMap<Long, Message> visible = new TreeMap<>();
        int inflight;
        long headKey = -1;

        Tenant(String id) {
            this.id = id;
        }
    }

    private final TreeMap<Long, Message> ungroupedVisible = new TreeMap<>();
    private final Map<String, Tenant> tenants = new HashMap<>();
    /** Tenants with a visible message, by the seq of their oldest visible message. */
    private final TreeMap<Long, Tenant> byHead = new TreeMap<>();
    private int totalInflight;

    @Override
    public void added(Message m) {
        enter(m, m.state);
    }

    @Override
    public void removed(Message m) {
        leave(m, m.state);
    }

    @Override
    public void changed(Message m, Message.State before) {
        leave(m, before);
        enter(m, m.state);
    }

    @Override
    public boolean hasDeliverable() {
        return !ungroupedVisible.isEmpty() || !byHead.isEmpty();
    }

    /** The next message to deliver, or null. Does not change anything. */
    Message next() {
        Message ungrouped = ungroupedVisible.isEmpty() ? null : ungroupedVisible.firstEntry().getValue();
        Tenant noisyChoice = null;
        for (Tenant t : byHead.values()) {
            if (!isNoisy(t)) {
                Message head = t.visible.firstEntry().getValue();
                return ungrouped == null || head.seq < ungrouped.seq ? head : ungrouped;
            }
            if (ungrouped == null && (noisyChoice == null || t.inflight < noisyChoice.inflight)) {
                noisyChoice = t;
            }
        }
        if (ungrouped != null) {
            return ungrouped;
        }
        return noisyChoice == null ? null : noisyChoice.visible.firstEntry().getValue();
    }

    boolean isNoisy(String groupId) {
        Tenant t = groupId == null ? null : tenants.get(groupId);
        return t != null && isNoisy(t);
    }

    private boolean isNoisy(Tenant t) {
        return t.inflight >= NOISY_MIN_INFLIGHT && t.inflight * 10L > totalInflight;
    }

    private void enter(Message m, Message.State s) {
        if (s == Message.State.INFLIGHT) {
            totalInflight++;
        }
        if (m.groupId == null) {
            if (s == Message.State.VISIBLE) {
                ungroupedVisible.put(m.seq, m);
            }
            return;
        }
        if (s == Message.State.DELAYED) {
            return;
        }
        Tenant t = tenants.computeIfAbsent(m.groupId, Tenant::new);
        if (s == Message.State.INFLIGHT) {
            t.inflight++;
        } else {
            t.visible.put(m.seq, m);
            reindex(t);
        }
    }

    private void leave(Message m, Message.State s) {
        if (s == Message.State.INFLIGHT) {
            totalInflight--;
        }
        if (m.groupId == null) {
            if (s == Message.State.VISIBLE) {
                ungroupedVisible.remove(m.seq);
            }
            return;
        }
        if (s == Message.State.DELAYED) {
            return;
        }
        Tenant t = tenants.get(m.groupId);
        if (s == Message.State.INFLIGHT) {
            t.inflight--;
        } else {
            t.visible.remove(m.seq);
            reindex(t);
        }
        if (t.inflight == 0 && t.visible.isEmpty()) {
            tenants.remove(t.id);
        }
    }

    private void reindex(Tenant t) {
        if (t.headKey >= 0) {
            byHead.remove(t.headKey);
            t.headKey = -1;
        }
        if (!t.visible.isEmpty()) {
            t.headKey = t.visible.firstKey();
            byHead.put(t.headKey, t);
        }
    }
}
