package io.hikyaku.api;

import java.util.ArrayList;
import java.util.List;

/**
 * Client answers decided under the engine lock but delivered after it is released, so that no
 * client callback (or durable-write wait) ever runs while the engine is held.
 */
final class Completions {

    private final List<Runnable> pending = new ArrayList<>();

    void add(Runnable completion) {
        pending.add(completion);
    }

    void run() {
        for (Runnable r : pending) {
            try {
                r.run();
            } catch (RuntimeException e) {
                // One client's completion must not stop the others.
                org.slf4j.LoggerFactory.getLogger(Completions.class).warn("A completion failed", e);
            }
        }
        pending.clear();
    }
}
