package io.hikyaku.cluster;

import io.hikyaku.engine.store.MemoryStore;
import org.apache.ratis.protocol.ClientId;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What the state machine does with entries Ratis replays below the store's applied index. */
class StoreStateMachineTest {

    /**
     * At a restart the store can hold more than the latest snapshot (it applied entries after it), and
     * Ratis replays from the snapshot: a configuration entry in that range (Ratis applies it itself)
     * must not move the applied index back (BaseStateMachine refuses that and stops the node).
     */
    @Test
    void entriesRatisAppliesItselfBelowTheAppliedIndexLeaveItAlone() {
        ReplicatedStore store = new ReplicatedStore(new MemoryStore(), 60_000);
        StoreStateMachine sm = new StoreStateMachine(store, new SwappableStore(new MemoryStore()), null,
                ClientId.randomId(), () -> {}, () -> {});
        sm.notifyTermIndexUpdated(2, 126); // as if the store held index 126 at start
        sm.notifyTermIndexUpdated(2, 122); // replayed from the snapshot at 112: a configuration entry
        assertThat(sm.getLastAppliedTermIndex().getIndex()).isEqualTo(126);
        sm.notifyTermIndexUpdated(2, 127);
        assertThat(sm.getLastAppliedTermIndex().getIndex()).isEqualTo(127);
        store.close();
    }
}
