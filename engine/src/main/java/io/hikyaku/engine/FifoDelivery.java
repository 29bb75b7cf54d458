package io.hikyaku.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * FIFO delivery: messages of a group leave strictly in send order, and a group with a message in
 * flight delivers nothing more. A group is ready when nothing of it is in flight and its oldest
 * message is visible; ready groups are served oldest head first.
 */
final class FifoDelivery implements Delivery {

    private static final class Group {
        final String id;
        final TreeMap<Long, Message> messages = new TreeMap<>();
        int inflight;
        long readyKey = -1;

        Group(String id) {
            this.id = id;
        }
    }

    private final Map<String, Group> groups = new HashMap<>();
    /** Ready groups by the seq of their oldest message. */
    private final TreeMap<Long, Group> ready = new TreeMap<>();
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
        Group g = groups.computeIfAbsent(m.groupId, Group::new);
        g.messages.put(m.seq, m);
        if (m.state == Message.State.INFLIGHT) {
            inflightChanged(g, 1);
        }
        refresh(g);
    }

    @Override
    public void removed(Message m) {
        Group g = groups.get(m.groupId);
        g.messages.remove(m.seq);
        if (m.state == Message.State.INFLIGHT) {
            inflightChanged(g, -1);
        }
        refresh(g);
        if (g.messages.isEmpty()) {
            groups.remove(g.id);
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
        refresh(g);
    }

    @Override
    public boolean hasDeliverable() {
        return !ready.isEmpty();
    }

    /**
     * Up to {@code max} deliverable messages: from each ready group (oldest head first) its leading
     * run of visible messages. Does not change anything.
     */
    List<Message> candidates(int max) {
        List<Message> out = new ArrayList<>();
        for (Group g : ready.values()) {
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

    private void refresh(Group g) {
        if (g.readyKey >= 0) {
            ready.remove(g.readyKey);
            g.readyKey = -1;
        }
        if (g.inflight == 0 && !g.messages.isEmpty()) {
            Message head = g.messages.firstEntry().getValue();
            if (head.state == Message.State.VISIBLE) {
                g.readyKey = head.seq;
                ready.put(head.seq, g);
            }
        }
    }
}
