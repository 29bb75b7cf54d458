package io.hikyaku.api;

import java.util.ArrayList;
import java.util.List;

/**
 * Client answers decided during an engine step but delivered after it, so that no client
 * callback (or durable-write wait) ever runs in the middle of one.
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
