package io.hikyaku.server;

/**
 * The engine's index budget when none is configured: half of the max heap at {@link #BYTES_PER_ENTRY}
 * bytes an entry (an indexed message costs ~100-120 bytes, more with a MessageGroupId; a FIFO
 * deduplication entry ~128). The other half covers request buffers, the body cache (16 MiB),
 * the loader and the GC's headroom. Under the launcher's -Xmx1g that is 3,355,443 entries.
 */
public final class MemoryBudget {

    static final long BYTES_PER_ENTRY = 160;

    private MemoryBudget() {}

    /** {@code configured} when set (> 0), else derived from {@code maxHeapBytes}. */
    public static long resolve(long configured, long maxHeapBytes) {
        if (configured > 0) {
            return configured;
        }
        return Math.max(1_000, maxHeapBytes / 2 / BYTES_PER_ENTRY);
    }

    /** For this JVM: from {@link Runtime#maxMemory()}. */
    public static long resolve(long configured) {
        return resolve(configured, Runtime.getRuntime().maxMemory());
    }
}
