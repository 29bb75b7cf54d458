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
        return new DefaultSqsService(store, clock);
    }
}
