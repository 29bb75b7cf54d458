package io.hikyaku.api;

import io.hikyaku.engine.store.Store;
import java.time.Clock;

/** Builds the SQS service over a store. The clock is the only time source (tests pass a fake one). */
public final class SqsServices {

    private SqsServices() {}

    /**
     * A ready service: state is loaded from {@code store}; timers (visibility, delays, retention,
     * long-poll deadlines) run on one internal scheduler thread that {@link SqsService#close()} stops.
     */
    public static SqsService create(Store store, Clock clock) {
        return new DefaultSqsService(store, clock, true);
    }

    /**
     * The same; {@code cooldowns} false drops Amazon SQS's 60-second waits (after PurgeQueue, before a
     * deleted queue's name is free, while a DeduplicationScope change propagates): a deviation from
     * SQS for test suites.
     */
    public static SqsService create(Store store, Clock clock, boolean cooldowns) {
        return new DefaultSqsService(store, clock, cooldowns);
    }
}
