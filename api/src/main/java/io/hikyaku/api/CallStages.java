package io.hikyaku.api;

import java.util.concurrent.atomic.LongAdder;

/**
 * Where a client call's time goes between its hand-overs, summed over every service in the process
 * (metrics: the server exports each stage's count and total). A call waits in its shard's command
 * queue ({@link Stage#QUEUED}), runs on the applier ({@link Stage#APPLIED}), then waits for what its
 * answer depends on to be durable ({@link Stage#ANSWERED}: the fsync and every hand-over after it; not
 * for receives, which may wait for messages: {@link Stage#RECEIVED} is a receive's wait from the moment
 * it took its messages). A write's completion waits for the answers thread ({@link Stage#HANDED_OVER}). Two clock reads and two
 * adds per stage: cheap enough to leave on.
 */
public final class CallStages {

    public enum Stage {
        QUEUED("queued"), APPLIED("applied"), ANSWERED("answered"), RECEIVED("received"), HANDED_OVER("handed_over");

        private final String label;

        Stage(String label) {
            this.label = label;
        }

        /** The metric tag. */
        public String label() {
            return label;
        }
    }

    private static final LongAdder[] NANOS = adders();
    private static final LongAdder[] COUNTS = adders();

    private CallStages() {}

    private static LongAdder[] adders() {
        LongAdder[] a = new LongAdder[Stage.values().length];
        for (int i = 0; i < a.length; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }

    static void record(Stage stage, long nanos) {
        NANOS[stage.ordinal()].add(nanos);
        COUNTS[stage.ordinal()].increment();
    }

    /** Calls (or writes, for HANDED_OVER) that went through {@code stage} so far. */
    public static long count(Stage stage) {
        return COUNTS[stage.ordinal()].sum();
    }

    /** Their time in the stage, summed, in nanoseconds. */
    public static long totalNanos(Stage stage) {
        return NANOS[stage.ordinal()].sum();
    }
}
