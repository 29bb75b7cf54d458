package io.hikyaku.metrics;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Told the outcome of every request the server answers (metrics, the access log). Must be quick. */
public interface RequestObserver {

    /**
     * @param exchange  what was known when the request arrived
     * @param status    the HTTP status sent
     * @param errorCode the error code sent (e.g. {@code QueueDoesNotExist}), or null on success
     * @param result    the action's result in JSON 1.0 shape on success, else null
     * @param endNanos  {@link System#nanoTime()} when the answer was ready
     */
    void completed(Exchange exchange, int status, String errorCode, ObjectNode result, long endNanos);
}
