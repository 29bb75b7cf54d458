package io.hikyaku.engine;

import io.hikyaku.engine.store.Keyspace;
import io.hikyaku.engine.store.Store;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.TreeMap;

/**
 * The state digest ({@link QueueEngine#digest()}): SHA-256 over the engine's state in a canonical
 * order. In memory: the last applied time, the queue id counter, then every queue by id (names,
 * settings, tags, policy statements, counts, sequence bounds) with every indexed message in
 * sequence order (state, deadline, receive count and times, receipt nonce). In the store: every
 * entry of every keyspace in key order (what a restart would load). Every field is written with its
 * length or a fixed width, so different states cannot run together into the same bytes.
 */
final class StateDigest {

    private final MessageDigest sha;

    private StateDigest() {
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    static String of(QueueEngine engine, Store store) {
        StateDigest d = new StateDigest();
        d.i64(engine.appliedAt());
        d.i64(engine.queueIdCounter());
        TreeMap<Long, QueueState> byId = new TreeMap<>(engine.queues.byId);
        d.i64(byId.size());
        for (QueueState q : byId.values()) {
            d.queue(q);
        }
        for (Keyspace space : Keyspace.values()) {
            d.str(space.name());
            store.scan(space, new byte[0], (k, v) -> {
                if (!ownKey(engine, space, k)) {
                    return true;
                }
                d.bytes(k);
                d.bytes(v);
                return true;
            });
        }
        return java.util.HexFormat.of().formatHex(d.sha.digest());
    }

    /**
     * Whether a store entry is this engine's: everything with one shard; with several, the keys of
     * its queues (and of queues it is still cleaning up), its own id counter, and the deleted names
     * and move tasks of its accounts.
     */
    private static boolean ownKey(QueueEngine engine, Keyspace space, byte[] k) {
        EngineShard shard = engine.shard;
        if (shard.count() == 1) {
            return true;
        }
        switch (space) {
            case META:
                if (EngineShard.isCounterKey(k)) {
                    return java.util.Arrays.equals(k, shard.counterKey());
                }
                if (java.util.Arrays.equals(k, shard.appliedAtKey())) {
                    return true;
                }
                return k.length == 9 && ownQueue(engine, java.nio.ByteBuffer.wrap(k, 1, 8).getLong());
            case HOUSEKEEPING:
                String rest = new String(k, 1, k.length - 1, StandardCharsets.UTF_8);
                if (k[0] == 'n' || k[0] == 'o') { // a deleted name, a send-once record: by account
                    return shard.owns(rest.substring(0, Math.max(0, rest.indexOf('\0'))));
                }
                return k[0] == 't' && engine.tasks.byId.containsKey(rest);
            default:
                return k.length >= 8 && ownQueue(engine, Keys.queueIdOf(k));
        }
    }

    private static boolean ownQueue(QueueEngine engine, long queueId) {
        return engine.queues.byId.containsKey(queueId) || engine.cleanups.covers(queueId);
    }

    private void queue(QueueState q) {
        i64(q.id);
        str(q.accountId);
        str(q.name);
        str(q.region);
        i64(q.fifo ? 1 : 0);
        i64(q.createdAt);
        i64(q.lastModifiedAt);
        i64(q.lastPurgeAt);
        map(new TreeMap<>(q.settings.values));
        map(q.tags);
        i64(q.permissions.size());
        for (PolicyDocument.Statement s : q.permissions) {
            str(s.label());
            str(String.join(",", s.accountIds()));
            str(String.join(",", s.actions()));
        }
        i64(q.visibleCount());
        i64(q.inflight);
        i64(q.delayed);
        i64(q.nextSeq);
        i64(q.purgedBelow);
        i64(q.tail);
        i64(q.uncountedFrom);
        i64(q.uncountedTo);
        i64(q.dedup.size());
        q.messages.visitFrom(1, Integer.MAX_VALUE, m -> {
            i64(m.seq);
            str(m.groupId);
            i64(m.sentAt);
            str(m.state.name());
            i64(m.visibleAt);
            i64(m.receiveCount);
            i64(m.firstReceiveAt);
            i64(m.lastReceiveAt);
            i64(m.nonce);
            return true;
        });
        i64(-1);
    }

    private void map(Map<String, String> m) {
        i64(m.size());
        for (Map.Entry<String, String> e : m.entrySet()) {
            str(e.getKey());
            str(e.getValue());
        }
    }

    private void str(String s) {
        if (s == null) {
            i64(-1);
        } else {
            bytes(s.getBytes(StandardCharsets.UTF_8));
        }
    }

    private void bytes(byte[] b) {
        i64(b.length);
        sha.update(b);
    }

    private void i64(long v) {
        for (int i = 56; i >= 0; i -= 8) {
            sha.update((byte) (v >>> i));
        }
    }
}
