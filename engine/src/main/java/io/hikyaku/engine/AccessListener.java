package io.hikyaku.engine;

/**
 * Told each change of what authorizing a request on a queue reads ({@link QueueAccess}): a queue
 * created or deleted, its Policy or tags changed. Called under the engine's lock, synchronously, so
 * a reader outside the lock (authorization) keeps its own copy current without taking the lock.
 */
@FunctionalInterface
public interface AccessListener {

    AccessListener NONE = (queue, access) -> { };

    /** {@code access} is the queue's Policy and tags as of now, or null when the queue is gone. */
    void changed(QueueRef queue, QueueAccess access);
}
