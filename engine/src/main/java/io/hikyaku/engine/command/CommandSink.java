package io.hikyaku.engine.command;

import io.hikyaku.engine.QueueEngine;

/**
 * Where the host that applies commands hands each one, in apply order (the journal, the simulator's
 * record). Every call is made on the engine's applier thread, between commands, so an implementation
 * must be quick (buffer, never wait for a disk) and must not throw.
 */
public interface CommandSink {

    CommandSink NONE = new CommandSink() {
        @Override
        public void loaded(long loadedAt, QueueEngine engine) {
        }

        @Override
        public void applied(Command<?> command) {
        }
    };

    /**
     * An engine was loaded from the store, its load stamped {@code loadedAt}: at start, and again
     * when the engine is rebuilt after a storage failure. Replaying starts a new engine there.
     */
    void loaded(long loadedAt, QueueEngine engine);

    /** {@code command} was applied (refused or not: a refusal may still have run due timers). */
    void applied(Command<?> command);

    /** No command follows; {@code engine} holds the final state (e.g. to record its digest). */
    default void stopped(QueueEngine engine) {
    }
}
