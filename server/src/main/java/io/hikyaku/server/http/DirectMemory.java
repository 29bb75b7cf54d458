package io.hikyaku.server.http;

import io.netty.util.internal.PlatformDependent;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;

/**
 * How much of the JVM's direct memory (Netty's buffers, {@code -XX:MaxDirectMemorySize}) is in use.
 * Counting bytes per connection is not enough: Netty's allocator carves buffers out of larger chunks,
 * so a few retained bytes can pin far more. Partial heads are refused once real use passes
 * {@link #HEAD_SHARE} of the maximum, which keeps the rest for requests that arrive whole.
 */
final class DirectMemory {

    /** Partial heads may not grow once this share of direct memory is in use. */
    static final double HEAD_SHARE = 0.5;
    /** Bodies are not admitted once this share would be passed. */
    static final double BODY_SHARE = 0.75;

    private static final BufferPoolMXBean DIRECT = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
            .filter(b -> b.getName().equals("direct")).findFirst().orElse(null);
    private static final long MAX = PlatformDependent.maxDirectMemory();

    private DirectMemory() {}

    static long used() {
        long netty = PlatformDependent.usedDirectMemory(); // -1 unless Netty counts its own (cleaner-less) buffers
        long jdk = DIRECT == null ? 0 : DIRECT.getMemoryUsed();
        return Math.max(netty, jdk);
    }

    /** True when {@code more} bytes would take use past {@code share} of the maximum. */
    static boolean tight(double share, long more) {
        return MAX > 0 && used() + more > (long) (MAX * share);
    }
}
