package io.hikyaku.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * FIFO delivery (sqs-behaviours 78, 79). Within a group, messages leave in send order from the
 * oldest, up to the first one that is not visible (in flight or delayed): a visible message before an
 * in-flight one is delivered, the ones after it wait. A group is ready while its oldest message is
 * visible. Across groups, the group whose oldest message has been visible the longest goes first:
 * {@code Message.visibleAt} of a visible message is the moment it became visible (its send, the end
 * of its delay, or the end of its visibility timeout however that came about). Ties go to the older
 * message. Each group is drained, up to the receive's maximum, before the next one starts.
 *
 * <p>Only a change of a group's oldest message can move the group, so a send to a non-empty group
 * (the usual case) and a receive or delete of a message behind the head touch no index but the
 * group's own map.
 */
final class FifoDelivery implements Delivery {

    private static final class Group {
        final String id;
        final TreeMap<Long, Message> messages = new TreeMap<>();
        /** The oldest message (the first of {@link #messages}), kept so that most changes are O(1). */
        Message head;
        int inflight;
        /** While in {@link #ready}: the key it is filed under (its oldest message's visibleAt and seq). */
        boolean ready;
        long readyAt;
        long readySeq;

        Group(String id) {
            this.id = id;
        }
    }

    private static final Comparator<Group> BY_AVAILABLE_SINCE = (a, b) -> {
        int c = Long.compare(a.readyAt, b.readyAt);
        return c != 0 ? c : Long.compare(a.readySeq, b.readySeq);
    };

    private final Map<String, Group> groups = new HashMap<>();
    /** Groups whose oldest message is visible, longest visible first. */
    private final TreeSet<Group> ready = new TreeSet<>(BY_AVAILABLE_SINCE);
    /** Groups with at least one message in flight (a CloudWatch metric), kept as inflight counts change. */
    private long groupsWithInflight;

    long groupsWithInflight() {
        return groupsWithInflight;
    }

    private void inflightChanged(Group g, int delta) {
        int before = g.inflight;
        g.inflight += delta;
        if (before == 0 && g.inflight > 0) {
            groupsWithInflight++;
        } else if (before > 0 && g.inflight == 0) {
            groupsWithInflight--;
        }
    }

    @Override
    public void added(Message m) {
        Group g = groups.get(m.groupId);
        if (g == null) {
            g = new Group(m.groupId);
            groups.put(m.groupId, g);
        }
        g.messages.put(m.seq, m);
        if (m.state == Message.State.INFLIGHT) {
            inflightChanged(g, 1);
        }
        if (g.head == null || m.seq < g.head.seq) {
            g.head = m;
            refresh(g);
        }
    }

    @Override
    public void removed(Message m) {
        Group g = groups.get(m.groupId);
        g.messages.remove(m.seq);
        if (m.state == Message.State.INFLIGHT) {
            inflightChanged(g, -1);
        }
        if (g.messages.isEmpty()) {
            unready(g);
            groups.remove(g.id);
        } else if (g.head == m) {
            g.head = g.messages.firstEntry().getValue();
            refresh(g);
        }
    }

    @Override
    public void changed(Message m, Message.State before) {
        Group g = groups.get(m.groupId);
        if (before == Message.State.INFLIGHT) {
            inflightChanged(g, -1);
        }
        if (m.state == Message.State.INFLIGHT) {
            inflightChanged(g, 1);
        }
        if (g.head == m) {
            refresh(g);
        }
    }

    @Override
    public boolean hasDeliverable() {
        return !ready.isEmpty();
    }

    /**
     * Up to {@code max} deliverable messages: from each ready group (longest visible first) its
     * leading run of visible messages. Does not change anything.
     */
    List<Message> candidates(int max) {
        List<Message> out = new ArrayList<>();
        for (Group g : ready) {
            for (Message m : g.messages.values()) {
                if (out.size() >= max || m.state != Message.State.VISIBLE) {
                    break;
                }
                out.add(m);
            }
            if (out.size() >= max) {
                break;
            }
        }
        return out;
    }

    /** Files {@code g} under its oldest message, or takes it out when that message is not visible. */
    private void refresh(Group g) {
        Message head = g.head;
        if (head.state != Message.State.VISIBLE) {
            unready(g);
            return;
        }
        if (g.ready && g.readyAt == head.visibleAt && g.readySeq == head.seq) {
            return;
        }
        unready(g);
        g.readyAt = head.visibleAt;
        g.readySeq = head.seq;
        g.ready = true;
        ready.add(g);
    }

    private void unready(Group g) {
        if (g.ready) {
            ready.remove(g);
            g.ready = false;
        }
    }
}
