package io.hikyaku.api;

import io.hikyaku.engine.AccessListener;
import io.hikyaku.engine.QueueAccess;
import io.hikyaku.engine.QueueEngine;
import io.hikyaku.engine.QueueRef;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every queue's Policy and tags (immutable {@link QueueAccess}) for authorization, read by any
 * thread without reaching the engine: the engine publishes each change here on its applier thread, before the change is answered,
 * so the next request sees it; an engine (re)loaded from the store replaces the whole content.
 */
final class AccessSnapshots implements AccessListener {

    private final ConcurrentHashMap<QueueRef, QueueAccess> byQueue = new ConcurrentHashMap<>();

    /** Takes {@code engine}'s queues (at start and after a reload) and follows its changes from now on. */
    void follow(QueueEngine engine) {
        Set<QueueRef> present = new HashSet<>();
        engine.forEachAccess((queue, access) -> {
            byQueue.put(queue, access);
            present.add(queue);
        });
        byQueue.keySet().retainAll(present); // queues the reloaded store does not have (a delete that failed to write)
        engine.setAccessListener(this);
    }

    @Override
    public void changed(QueueRef queue, QueueAccess access) {
        if (access == null) {
            byQueue.remove(queue);
        } else {
            byQueue.put(queue, access);
        }
    }

    /** The queue's Policy and tags, or null when there is no such queue. */
    QueueAccess get(String accountId, String name) {
        return byQueue.get(new QueueRef(accountId, name));
    }
}
