package io.hikyaku.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Standard-queue delivery: oldest visible message first, except that noisy tenants (MessageGroupId)
 * are passed over while a quiet tenant has a visible message (SQS fair queues).
 *
 * <p>A tenant <em>meets the load condition</em> while it holds at least 30 in-flight messages and more
 * than 10% of the queue's in-flight messages (the in-flight share also stands for SQS's "share of recent
 * consumer processing time": see ENGINE.md). It is <em>noisy</em> while it meets the condition, and it
 * stays noisy afterwards (sticky) until its backlog (visible + in flight + delayed) is drained or five
 * consecutive minutes pass without a send to it, by the commands' timestamps. A message without group
 * id is its own, always quiet, tenant.
 *
 * <p>Every operation is O(log T) in the number of tenants (plus at most 9 cheap checks: each tenant
 * meeting the condition holds more than a tenth of all in-flight messages, so at most 9 do at once);
 * nothing scans messages or all tenants. A pick takes the older of the oldest quiet tenant's head and the
 * oldest ungrouped message; when neither exists, the noisy tenant with the fewest messages in flight
 * (ties: oldest head).
 */
final class FairDelivery implements Delivery {

    static final int NOISY_MIN_INFLIGHT = 30;
    /** A noisy tenant with no send for this long is quiet again (unless it meets the condition now). */
    static final long QUIET_AFTER_NO_SENDS_MS = 5 * 60_000L;

    private static final class Tenant {
        final String id;
        final TreeMap<Long, Message> visible = new TreeMap<>();
        /** In {@link #heavy} exactly while this is at least {@link #NOISY_MIN_INFLIGHT}. */
        int inflight;
        int delayed;
        /** The newest SentTimestamp of a message that entered this tenant's backlog. */
        long lastSendAt = Long.MIN_VALUE;
        /** Meets the load condition now (kept up to date after every in-flight change). */
        boolean condition;
        /** Noisy beyond the condition until drained or five minutes without sends; in {@link #stickyByLastSend} exactly while set. */
        boolean sticky;
        /** The oldest visible seq it is indexed under (-1: not indexed), and in which index. */
        long headKey = -1;
        boolean placedNoisy;

        Tenant(String id) {
            this.id = id;
        }

        boolean noisy() {
            return condition || sticky;
        }

        int backlog() {
            return visible.size() + inflight + delayed;
        }
    }

    private static final Comparator<Tenant> FEWEST_INFLIGHT_OLDEST_HEAD =
            Comparator.<Tenant>comparingInt(t -> t.inflight).thenComparingLong(t -> t.headKey);
    private static final Comparator<Tenant> MOST_INFLIGHT =
            Comparator.<Tenant>comparingInt(t -> -t.inflight).thenComparing(t -> t.id);
    private static final Comparator<Tenant> BY_LAST_SEND =
            Comparator.<Tenant>comparingLong(t -> t.lastSendAt).thenComparing(t -> t.id);

    /** Visible messages without a group id, by seq (they nearly always arrive in seq order). */
    private final AppendOrderedSet ungroupedVisible = new AppendOrderedSet(AppendOrderedSet.Order.BY_SEQ);
    private final Map<String, Tenant> tenants = new HashMap<>();
    /** Quiet tenants with a visible message, by the seq of their oldest visible message. */
    private final TreeMap<Long, Tenant> quietByHead = new TreeMap<>();
    /** Noisy tenants with a visible message, fewest in flight first. */
    private final TreeSet<Tenant> noisyWithVisible = new TreeSet<>(FEWEST_INFLIGHT_OLDEST_HEAD);
    /** Tenants with at least {@link #NOISY_MIN_INFLIGHT} in flight, most first: the only ones that can meet the condition. */
    private final TreeSet<Tenant> heavy = new TreeSet<>(MOST_INFLIGHT);
    /** Sticky tenants by their last send: the first ones are the next to turn quiet. */
    private final TreeSet<Tenant> stickyByLastSend = new TreeSet<>(BY_LAST_SEND);
    /** The tenants that meet the condition (at most 9), and a scratch list for recomputing them. */
    private final List<Tenant> meeting = new ArrayList<>();
    private final List<Tenant> scratch = new ArrayList<>();
    private int totalInflight;
    /** While the Loader rebuilds the queue, the condition is evaluated once at the end, not per message. */
    private boolean loading;

    @Override
    public void added(Message m) {
        Tenant t = null;
        if (m.groupId != null) {
            expire(m.sentAt); // a send after five silent minutes finds the tenant quiet already
            t = tenants.computeIfAbsent(m.groupId, Tenant::new);
            if (m.sentAt > t.lastSendAt) {
                if (t.sticky) {
                    stickyByLastSend.remove(t);
                    t.lastSendAt = m.sentAt;
                    stickyByLastSend.add(t);
                } else {
                    t.lastSendAt = m.sentAt;
                }
            }
            if (t.noisy()) {
                setFlags(t, t.condition, true); // a noisy tenant that keeps sending stays noisy (never while loading)
            }
        }
        enter(m, m.state);
    }

    @Override
    public void removed(Message m) {
        leave(m, m.state);
        if (m.groupId != null) {
            dropIfDrained(tenants.get(m.groupId));
        }
    }

    @Override
    public void changed(Message m, Message.State before) {
        leave(m, before);
        enter(m, m.state);
    }

    @Override
    public boolean hasDeliverable() {
        return !ungroupedVisible.isEmpty() || !quietByHead.isEmpty() || !noisyWithVisible.isEmpty();
    }

    /** The next message to deliver at {@code now}, or null. Only lets due sticky tenants turn quiet. */
    Message next(long now) {
        expire(now);
        Message ungrouped = ungroupedVisible.first();
        Message quiet = quietByHead.isEmpty() ? null : quietByHead.firstEntry().getValue().visible.firstEntry().getValue();
        if (ungrouped != null || quiet != null) {
            return quiet == null || (ungrouped != null && ungrouped.seq < quiet.seq) ? ungrouped : quiet;
        }
        return noisyWithVisible.isEmpty() ? null : noisyWithVisible.first().visible.firstEntry().getValue();
    }

    /** Whether the tenant {@code groupId} is noisy at {@code now} (for tests and metrics). */
    boolean isNoisy(String groupId, long now) {
        expire(now);
        Tenant t = groupId == null ? null : tenants.get(groupId);
        return t != null && t.noisy();
    }

    /** Called by the Loader around the rebuild: the condition is evaluated once on the rebuilt state. */
    void beginLoad() {
        loading = true;
    }

    void endLoad() {
        loading = false;
        refreshCondition();
    }

    // ---- counts ----

    private void enter(Message m, Message.State s) {
        if (m.groupId == null) {
            if (s == Message.State.VISIBLE) {
                ungroupedVisible.add(m);
            } else if (s == Message.State.INFLIGHT) {
                totalInflight++;
                refreshCondition();
            }
            return;
        }
        Tenant t = tenants.computeIfAbsent(m.groupId, Tenant::new);
        switch (s) {
            case DELAYED -> t.delayed++;
            case VISIBLE -> {
                t.visible.put(m.seq, m);
                if (m.seq < t.headKey || t.headKey < 0) {
                    reindexHead(t);
                }
            }
            case INFLIGHT -> {
                totalInflight++;
                changeInflight(t, 1);
                refreshCondition();
            }
        }
    }

    private void leave(Message m, Message.State s) {
        if (m.groupId == null) {
            if (s == Message.State.VISIBLE) {
                ungroupedVisible.remove(m);
            } else if (s == Message.State.INFLIGHT) {
                totalInflight--;
                refreshCondition();
            }
            return;
        }
        Tenant t = tenants.get(m.groupId);
        switch (s) {
            case DELAYED -> t.delayed--;
            case VISIBLE -> {
                t.visible.remove(m.seq);
                if (m.seq == t.headKey) {
                    reindexHead(t);
                }
            }
            case INFLIGHT -> {
                totalInflight--;
                changeInflight(t, -1);
                refreshCondition();
            }
        }
    }

    /** A drained tenant is forgotten, and with it its noisiness. */
    private void dropIfDrained(Tenant t) {
        if (t != null && t.backlog() == 0) {
            setFlags(t, false, false); // nothing in flight: it does not meet the condition either
            tenants.remove(t.id);
        }
    }

    // ---- noisiness ----

    /**
     * Re-evaluates the load condition after the in-flight total or a tenant's in-flight count changed:
     * the tenants meeting it are a prefix of {@link #heavy} (at most 9). A tenant that starts to meet
     * it becomes sticky-noisy; one that stops meeting it stays noisy only while sticky.
     */
    private void refreshCondition() {
        if (loading || (heavy.isEmpty() && meeting.isEmpty())) {
            return;
        }
        scratch.clear();
        for (Tenant t : heavy) {
            if (t.inflight * 10L <= totalInflight) {
                break;
            }
            scratch.add(t);
        }
        if (scratch.equals(meeting)) {
            return;
        }
        for (Tenant t : meeting) {
            if (!scratch.contains(t)) {
                setFlags(t, false, t.sticky);
            }
        }
        for (Tenant t : scratch) {
            if (!t.condition) {
                setFlags(t, true, true);
            }
        }
        meeting.clear();
        meeting.addAll(scratch);
    }

    /** Sticky tenants with no send for five minutes up to {@code now} lose their stickiness. */
    private void expire(long now) {
        while (!stickyByLastSend.isEmpty()) {
            Tenant t = stickyByLastSend.first();
            if (t.lastSendAt > now - QUIET_AFTER_NO_SENDS_MS) {
                return;
            }
            setFlags(t, t.condition, false);
        }
    }

    // ---- indexes: an entry is taken out before its key fields change and put back after ----

    private void setFlags(Tenant t, boolean condition, boolean sticky) {
        boolean wasNoisy = t.noisy();
        if (t.sticky != sticky) {
            if (sticky) {
                t.sticky = true;
                stickyByLastSend.add(t);
            } else {
                stickyByLastSend.remove(t);
                t.sticky = false;
            }
        }
        t.condition = condition;
        if (wasNoisy != t.noisy() && t.headKey >= 0) {
            reindexHead(t);
        }
    }

    private void changeInflight(Tenant t, int delta) {
        boolean inNoisy = t.headKey >= 0 && t.placedNoisy;
        if (inNoisy) {
            noisyWithVisible.remove(t);
        }
        if (t.inflight >= NOISY_MIN_INFLIGHT) {
            heavy.remove(t);
        }
        t.inflight += delta;
        if (inNoisy) {
            noisyWithVisible.add(t);
        }
        if (t.inflight >= NOISY_MIN_INFLIGHT) {
            heavy.add(t);
        }
    }

    /** Puts the tenant under its current oldest visible message in the index its noisiness says. */
    private void reindexHead(Tenant t) {
        if (t.headKey >= 0) {
            if (t.placedNoisy) {
                noisyWithVisible.remove(t);
            } else {
                quietByHead.remove(t.headKey);
            }
            t.headKey = -1;
        }
        if (!t.visible.isEmpty()) {
            t.headKey = t.visible.firstKey();
            t.placedNoisy = t.noisy();
            if (t.placedNoisy) {
                noisyWithVisible.add(t);
            } else {
                quietByHead.put(t.headKey, t);
            }
        }
    }
}
