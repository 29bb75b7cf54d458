package io.hikyaku.api.sse;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * Data keys in memory, as SQS keeps them: a data key for encrypting is reused for the queue's
 * {@code KmsDataKeyReusePeriodSeconds} (per queue, key and principal: data keys are not shared between
 * principals) and for at most {@link #maxUses} messages; a data key opened for decrypting is kept for the same
 * period. So there is no key service call per message, and the AES key object is made once per data key.
 *
 * <p>Why a bound on uses: NIST SP 800-38D allows at most 2^32 GCM encryptions per key with random 96-bit nonces
 * (beyond that a nonce collision, which breaks GCM, becomes more likely than 2^-32). At 50,000 messages/s a key
 * kept the longest period (86,400 s) would see 4.3 x 10^9 messages, past that limit; {@value #DEFAULT_MAX_USES}
 * (2^30) keeps every key 4x below it. The nonces here are a random 32-bit prefix per data key and a 64-bit use
 * counter (unique under one key, and no random draw per message); the bound stays as if they were random, so
 * that no key is ever used near GCM's limits, and a message body of up to 2^32 segments has nonces of its own.
 */
public final class DataKeyCache {

    public static final long DEFAULT_MAX_USES = 1L << 30;
    /** Opened data keys kept at most (the least recently used goes first). */
    static final int MAX_OPENED = 4096;

    /** A data key in use for encrypting. */
    static final class Entry {
        final SseKeys.WrappedKey key;
        final SecretKey aes;
        final long expiresAt;
        final AtomicLong uses = new AtomicLong();
        /** The first 4 bytes of every nonce under this key (random); the other 8 count the uses. */
        private final int noncePrefix;

        Entry(SseKeys.WrappedKey key, long expiresAt) {
            this.key = key;
            this.noncePrefix = RANDOM.nextInt();
            this.aes = new SecretKeySpec(key.plaintext(), "AES");
            java.util.Arrays.fill(key.plaintext(), (byte) 0); // the key object holds its own copy
            this.expiresAt = expiresAt;
        }

        /**
         * The nonce of use number {@code use} (1, 2, ...): the random prefix and the counter, so no two messages
         * under one data key share a nonce (a counter cannot collide, where random nonces would by chance).
         */
        byte[] nonce(long use) {
            return java.nio.ByteBuffer.allocate(12).putInt(noncePrefix).putLong(use).array();
        }
    }

    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

    private record Opened(SecretKey aes, long expiresAt) { }

    private final Clock clock;
    private final long maxUses;
    private final ConcurrentHashMap<String, Entry> sealing = new ConcurrentHashMap<>();
    private final Map<java.nio.ByteBuffer, Opened> opened = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<java.nio.ByteBuffer, Opened> eldest) {
            return size() > MAX_OPENED;
        }
    };
    private final AtomicLong generated = new AtomicLong();
    private final AtomicLong decrypted = new AtomicLong();

    public DataKeyCache(Clock clock, long maxUses) {
        this.clock = clock;
        this.maxUses = maxUses;
    }

    /** A data key and the nonce of this use of it. */
    record Use(Entry entry, byte[] nonce) { }

    /** The data key to encrypt one more message with (a new one, from {@code fresh}, when due) and its nonce. */
    Use forSealing(String cacheKey, int reuseSeconds, Supplier<SseKeys.WrappedKey> fresh) {
        long now = clock.millis();
        Entry e = sealing.get(cacheKey);
        long use = e == null || now >= e.expiresAt ? Long.MAX_VALUE : e.uses.incrementAndGet();
        if (use > maxUses) {
            e = new Entry(fresh.get(), now + reuseSeconds * 1000L);
            generated.incrementAndGet();
            use = e.uses.incrementAndGet();
            sealing.put(cacheKey, e);
            if (sealing.size() > MAX_OPENED) {
                sealing.values().removeIf(old -> now >= old.expiresAt);
            }
        }
        return new Use(e, e.nonce(use));
    }

    /** The AES key of a wrapped data key, opened by {@code open} when not kept (or kept too long). */
    SecretKey forOpening(java.nio.ByteBuffer wrapped, int reuseSeconds, Supplier<byte[]> open) {
        long now = clock.millis();
        synchronized (opened) {
            Opened o = opened.get(wrapped);
            if (o != null && now < o.expiresAt) {
                return o.aes;
            }
        }
        byte[] plain = open.get();
        SecretKey aes = new SecretKeySpec(plain, "AES");
        java.util.Arrays.fill(plain, (byte) 0);
        decrypted.incrementAndGet();
        synchronized (opened) {
            opened.put(wrapped, new Opened(aes, now + reuseSeconds * 1000L));
        }
        return aes;
    }

    /** Data keys generated so far (each a GenerateDataKey on the queue's key, or on the SQS owned key). */
    public long generated() {
        return generated.get();
    }

    /** Data keys opened so far (each a Decrypt of a wrapped data key). */
    public long decrypted() {
        return decrypted.get();
    }
}
