package io.hikyaku.engine;

import io.hikyaku.engine.command.Command;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The engine applies commands in the order of their stamps: one stamped before the last applied one is refused. */
class TimeOrderTest {

    final EngineFixture f = new EngineFixture();

    @Test
    void aCommandStampedBeforeTheLastAppliedOneIsAClearErrorAndChangesNothing() {
        QueueRef q = f.create("q");
        f.advance(1000);
        f.send(q, "a");
        long applied = f.engine.appliedAt();
        assertThat(applied).isEqualTo(f.now);

        assertThatThrownBy(() -> f.engine.apply(new Command.SendMessage(q, new SendMessage("late", null, null, null, null, null, "s", f.nextId()), f.now - 1)).durable())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("time went back").hasMessageContaining(Long.toString(applied));
        assertThatThrownBy(() -> f.engine.tick(f.now - 1)).isInstanceOf(IllegalStateException.class);
        assertThat(f.counts(q).visible()).isEqualTo(1); // the late send was not applied
        assertThat(f.engine.appliedAt()).isEqualTo(applied);
    }

    @Test
    void theSameStampTwiceAndLaterStampsAreFine() {
        QueueRef q = f.create("q");
        f.send(q, "a");
        f.send(q, "b");
        f.advance(1);
        assertThat(EngineFixture.attributesAt(f.engine, q, List.of("ApproximateNumberOfMessages"), f.now))
                .containsEntry("ApproximateNumberOfMessages", "2");
    }

    @Test
    void aRestartedEngineStartsAtItsLoadStamp() {
        f.create("q");
        f.advance(5000);
        f.restart();
        assertThat(f.engine.appliedAt()).isEqualTo(f.now);
        assertThatThrownBy(() -> f.engine.tick(f.now - 1)).isInstanceOf(IllegalStateException.class);
    }
}
