package io.hikyaku.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.engine.store.Keyspace;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * The stored last applied time (META "applied-at", ENGINE.md "Journal"): ticks record it, and a
 * load starts at the later of it and the time it is given, so a load given an earlier time (a
 * replica, a replay, a clock that stepped back while the server was down) computes the same state.
 */
class AppliedAtTest {

    private final EngineFixture f = new EngineFixture();

    private Long stored() {
        byte[] v = f.store.get(Keyspace.META, Keys.APPLIED_AT);
        return v == null ? null : ByteBuffer.wrap(v, 1, 8).getLong();
    }

    @Test
    void aTickStoresItsTimeAndALoadGivenAnEarlierTimeStartsThere() {
        f.restart(); // stamped: T0
        QueueRef q = f.create("q");
        f.send(q, "a");
        assertThat(f.receive(q, 1, 30)).hasSize(1);
        assertThat(stored()).as("commands alone do not write it").isNull();
        f.advanceSeconds(31);
        f.engine.tick(f.now); // the visibility expiry: nothing to write but the time (first time)
        assertThat(stored()).isEqualTo(f.now);
        long tickedAt = f.now;

        QueueEngine replica = new QueueEngine(f.store, "us-east-1", f.now - 3_600_000); // given an hour earlier
        assertThat(replica.appliedAt()).isEqualTo(tickedAt);
        assertThat(replica.digest()).as("the same state as a load at the stored time")
                .isEqualTo(new QueueEngine(f.store, "us-east-1", tickedAt).digest());
        assertThat(replica.digest()).isEqualTo(new QueueEngine(f.store, "us-east-1", Long.MIN_VALUE).digest());
        assertThatThrownBy(() -> replica.tick(tickedAt - 1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("time went back");
        f.engine = replica;
        assertThat(f.receive(q, 1)).as("visible again: its expiry was due at the stored time").hasSize(1);

        QueueEngine later = new QueueEngine(f.store, "us-east-1", tickedAt + 5_000);
        assertThat(later.appliedAt()).as("a later given time wins").isEqualTo(tickedAt + 5_000);
    }

    @Test
    void aTickWithNothingElseToWriteStoresTheTimeAtMostOnceASecond() {
        f.restart();
        f.engine.tick(f.now);
        assertThat(stored()).isEqualTo(f.now);
        long first = f.now;
        f.advance(400);
        f.engine.tick(f.now);
        assertThat(stored()).as("0.4 s later, nothing else written: kept").isEqualTo(first);
        f.advance(600);
        f.engine.tick(f.now);
        assertThat(stored()).as("a second later").isEqualTo(f.now);
    }

    @Test
    void aTickThatWritesAnywayCarriesTheTime() {
        f.restart();
        QueueRef q = f.create("q", "MessageRetentionPeriod", "60");
        f.send(q, "a");
        f.advance(500);
        f.send(q, "b");
        f.advance(59_501);
        f.engine.tick(f.now); // retention removes "a": a batch is written, the time rides along
        assertThat(stored()).isEqualTo(f.now);
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(1, 0, 0));
        f.advance(500);
        f.engine.tick(f.now); // "b" too, half a second later
        assertThat(stored()).as("within a second of the last, but the tick wrote anyway").isEqualTo(f.now);
        assertThat(f.counts(q)).isEqualTo(new QueueCounts(0, 0, 0));
    }
}
