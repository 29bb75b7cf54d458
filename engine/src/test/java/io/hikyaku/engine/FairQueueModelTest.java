package io.hikyaku.engine;

import io.hikyaku.engine.command.Command;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Random sends, receives, deletes, visibility resets and clock moves on a fair queue, checked pick by
 * pick against a brute-force model of the fair-queue rules that rescans every tenant at every step (so
 * it shares none of FairDelivery's indexes).
 */
class FairQueueModelTest {

    private static final long WINDOW = FairDelivery.QUIET_AFTER_NO_SENDS_MS;

    private static final class T {
        final TreeSet<Long> visible = new TreeSet<>();
        int inflight;
        boolean cond;
        boolean sticky;
        long lastSend = Long.MIN_VALUE;

        boolean noisy() {
            return cond || sticky;
        }
    }

    private final Map<String, T> tenants = new HashMap<>();
    private final TreeSet<Long> ungrouped = new TreeSet<>();
    private final Map<Long, String> tenantOf = new HashMap<>();
    private int total;

    private void expire(long now) {
        for (T t : tenants.values()) {
            if (t.sticky && now - t.lastSend >= WINDOW) {
                t.sticky = false;
            }
        }
    }

    private void recheck() {
        for (T t : tenants.values()) {
            boolean c = t.inflight >= 30 && t.inflight * 10L > total;
            if (c && !t.cond) {
                t.sticky = true;
            }
            t.cond = c;
        }
    }

    private void drop(String id) {
        T t = tenants.get(id);
        if (t != null && t.visible.isEmpty() && t.inflight == 0) {
            tenants.remove(id);
        }
    }

    private void modelSend(long seq, String tenant, long now) {
        tenantOf.put(seq, tenant);
        if (tenant == null) {
            ungrouped.add(seq);
            return;
        }
        expire(now);
        T t = tenants.computeIfAbsent(tenant, k -> new T());
        t.visible.add(seq);
        t.lastSend = Math.max(t.lastSend, now);
        if (t.noisy()) {
            t.sticky = true;
        }
    }

    private Long modelPick(long now) {
        expire(now);
        Long best = ungrouped.isEmpty() ? null : ungrouped.first();
        for (T t : tenants.values()) {
            if (!t.noisy() && !t.visible.isEmpty() && (best == null || t.visible.first() < best)) {
                best = t.visible.first();
            }
        }
        if (best != null) {
            return best;
        }
        T choice = null;
        for (T t : tenants.values()) {
            if (!t.visible.isEmpty() && (choice == null || t.inflight < choice.inflight
                    || (t.inflight == choice.inflight && t.visible.first() < choice.visible.first()))) {
                choice = t;
            }
        }
        return choice == null ? null : choice.visible.first();
    }

    private void modelInflight(long seq, int delta) {
        String id = tenantOf.get(seq);
        total += delta;
        if (id == null) {
            if (delta < 0) {
                ungrouped.add(seq); // back to visible
            } else {
                ungrouped.remove(seq);
            }
        } else {
            T t = tenants.get(id);
            t.inflight += delta;
            if (delta > 0) {
                t.visible.remove(seq);
            } else {
                t.visible.add(seq);
            }
        }
        recheck();
    }

    private void modelDelete(long seq) {
        String id = tenantOf.remove(seq);
        total--;
        if (id != null) {
            tenants.get(id).inflight--;
        }
        recheck();
        if (id != null) {
            drop(id);
        }
    }

    @Test
    void picksMatchTheBruteForceModel() {
        for (long seed = 1; seed <= 4; seed++) {
            run(seed);
        }
    }

    private void run(long seed) {
        tenants.clear();
        ungrouped.clear();
        tenantOf.clear();
        total = 0;
        EngineFixture f = new EngineFixture();
        QueueRef q = f.create("model");
        Random random = new Random(seed);
        String[] names = {"A", "B", "C", "D", "E", "F"};
        boolean[] active = new boolean[names.length];
        Map<Long, ReceivedMessage> inflight = new HashMap<>();
        List<Long> inflightSeqs = new ArrayList<>();
        long seq = 0;
        int picks = 0;
        for (int op = 0; op < 2500; op++) {
            if (op % 150 == 0) {
                for (int i = 0; i < active.length; i++) {
                    active[i] = random.nextInt(3) != 0;
                }
            }
            f.advance(random.nextInt(8) == 0 ? random.nextInt(200_000) : random.nextInt(3_000));
            int kind = random.nextInt(10);
            if (kind < 4) {
                int n = 1 + random.nextInt(8);
                for (int i = 0; i < n; i++) {
                    int k = random.nextInt(names.length + 1);
                    String tenant = k == names.length ? null : names[k];
                    if (tenant != null && !active[k]) {
                        continue;
                    }
                    seq++;
                    f.engine.apply(new Command.SendMessage(q, new SendMessage(seq + ":" + tenant, null, null, null, tenant, null, "s",
                            f.nextId()), f.now)).durable();
                    modelSend(seq, tenant, f.now);
                }
            } else if (kind < 7) {
                int max = 1 + random.nextInt(10);
                List<ReceivedMessage> got = f.receive(q, max, 43_200);
                List<Long> expected = new ArrayList<>();
                for (int i = 0; i < max; i++) {
                    Long next = modelPick(f.now);
                    if (next == null) {
                        break;
                    }
                    expected.add(next);
                    modelInflight(next, +1);
                }
                List<Long> actual = new ArrayList<>();
                for (ReceivedMessage m : got) {
                    long s = Long.parseLong(m.body().substring(0, m.body().indexOf(':')));
                    actual.add(s);
                    inflight.put(s, m);
                    inflightSeqs.add(s);
                }
                assertThat(actual).as("seed %d op %d", seed, op).isEqualTo(expected);
                picks += actual.size();
            } else if (!inflightSeqs.isEmpty()) {
                int n = 1 + random.nextInt(Math.min(15, inflightSeqs.size()));
                for (int i = 0; i < n && !inflightSeqs.isEmpty(); i++) {
                    long s = inflightSeqs.remove(random.nextInt(inflightSeqs.size()));
                    ReceivedMessage m = inflight.remove(s);
                    if (kind == 9) { // back to visible
                        f.engine.apply(new Command.ChangeVisibility(q, m.receiptHandle(), 0, f.now)).durable();
                        modelInflight(s, -1);
                    } else {
                        f.delete(q, m);
                        modelDelete(s);
                    }
                }
            }
            expire(f.now);
            for (Iterator<Map.Entry<String, T>> it = tenants.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<String, T> e = it.next();
                assertThat(f.engine.queues.find(q).fair().isNoisy(e.getKey(), f.now))
                        .as("seed %d op %d tenant %s", seed, op, e.getKey()).isEqualTo(e.getValue().noisy());
            }
        }
        assertThat(picks).isGreaterThan(1000);
    }
}
