package io.hikyaku.engine.determinism;

/**
 * Deliberately what the engine must never do (a clock, randomness, a thread, a monitor): the
 * determinism check is shown to fail on it. Test code only; nothing calls it.
 */
final class PlantedNondeterminism {

    private final Object monitor = new Object();

    long stampWithTheClock() {
        return System.currentTimeMillis();
    }

    String drawAnId() {
        return java.util.UUID.randomUUID().toString();
    }

    void startAThread() {
        new Thread(() -> {}).start();
    }

    long lockedRead(long value) {
        synchronized (monitor) {
            return value;
        }
    }
}
