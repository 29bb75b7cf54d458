package io.hikyaku.api;

import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The random values the engine needs, made here because the engine is deterministic. Message and
 * task ids need uniqueness only (fast thread-local random); receipt nonces make receipt handles
 * unguessable, so they come from a SecureRandom.
 */
final class Ids {

    private final SecureRandom secure = new SecureRandom();

    /** A random (version 4) UUID string. */
    String uuid() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        long msb = (r.nextLong() & ~0xF000L) | 0x4000L;
        long lsb = (r.nextLong() & ~(0xC000000000000000L)) | 0x8000000000000000L;
        return new UUID(msb, lsb).toString();
    }

    long receiptNonce() {
        return secure.nextLong();
    }
}
