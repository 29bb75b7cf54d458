package io.hikyaku.api;

import io.hikyaku.engine.QueueEngine;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Says in the log, at most once a minute, why memory pressure changes what clients see: messages
 * past the engine's index budget spilled to disk (paged in as queues drain), or sends refused with
 * RequestThrottled (ENGINE.md "Memory"). Runs after every engine call, on the applier: two
 * counter reads unless there is news. The clock only spaces the lines; the engine never sees it.
 */
final class MemoryReport {

    static final long INTERVAL_MS = 60_000;

    private final Consumer<String> log;
    private long lastAt = Long.MIN_VALUE;
    private long lastRefused;
    private boolean spilling;

    MemoryReport(Consumer<String> log) {
        this.log = log;
    }

    void check(QueueEngine engine, LongSupplier clock) {
        long refused = engine.refusedSends();
        if (refused < lastRefused) {
            lastRefused = 0; // an engine reloaded after a storage failure counts from zero
        }
        long spilled = engine.spilledMessages();
        boolean news = refused > lastRefused || (spilled > 0) != spilling;
        if (!news) {
            return;
        }
        long now = clock.getAsLong();
        if (lastAt != Long.MIN_VALUE && now - lastAt < INTERVAL_MS) {
            return;
        }
        lastAt = now;
        if (refused > lastRefused) {
            log.accept("memory: " + (refused - lastRefused) + " sends refused with RequestThrottled: the in-memory index"
                    + " budget of " + engine.indexBudget() + " entries is used up (" + engine.indexedMessages()
                    + " indexed messages); receives and deletes continue; see --max-indexed-messages");
            lastRefused = refused;
        }
        if (spilled > 0 && !spilling) {
            log.accept("memory: " + spilled + " messages are kept on disk only (past a queue's index window of "
                    + engine.indexWindow() + " messages or the in-memory index budget of " + engine.indexBudget()
                    + " entries) and paged in as queues drain (counts include them)");
        } else if (spilled == 0 && spilling) {
            log.accept("memory: every stored message is indexed again (" + engine.indexedMessages() + ")");
        }
        spilling = spilled > 0;
    }
}
