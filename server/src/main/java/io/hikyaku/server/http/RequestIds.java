package io.hikyaku.server.http;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/** Request ids in the form SQS uses (a random version-4 UUID), one per HTTP response. */
public final class RequestIds {

    /** The response header that carries the id. */
    public static final String HEADER = "x-amzn-RequestId";

    private RequestIds() {}

    /**
     * A random UUID from the thread's own generator: ids only need to be unique, not secret, and
     * {@link UUID#randomUUID()} would make every event loop share one SecureRandom.
     */
    public static String next() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L;                      // version 4
        long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;   // IETF variant
        return new UUID(high, low).toString();
    }
}
