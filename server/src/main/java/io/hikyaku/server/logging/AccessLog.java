package io.hikyaku.server.logging;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hikyaku.metrics.Exchange;
import io.hikyaku.metrics.RequestObserver;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The access log: one line per request on the {@code hikyaku.access} logger, with the request id,
 * principal (the access key id, never a secret), action, queue, status, error code and latency.
 * Never bodies, attributes or signatures. The time is the log line's own. In JSON format each field
 * is a key of the line's object.
 */
public final class AccessLog implements RequestObserver {

    public static final String LOGGER = "hikyaku.access";
    private static final Logger LOG = LoggerFactory.getLogger(LOGGER);

    @Override
    public void completed(Exchange e, int status, String errorCode, ObjectNode result, long endNanos) {
        if (!LOG.isInfoEnabled()) {
            return;
        }
        double millis = (endNanos - e.startNanos()) / (double) TimeUnit.MILLISECONDS.toNanos(1);
        String queue = e.queue() == null ? "-" : e.queue().accountId() + "/" + e.queue().name();
        double latency = Math.round(millis * 1000) / 1000.0; // a number in JSON lines, microsecond precision
        LOG.atInfo()
                .addKeyValue("requestId", e.requestId())
                .addKeyValue("principal", orDash(e.principal()))
                .addKeyValue("peer", orDash(e.peer()))
                .addKeyValue("action", orDash(e.action()))
                .addKeyValue("protocol", orDash(e.protocol()))
                .addKeyValue("queue", queue)
                .addKeyValue("status", status)
                .addKeyValue("error", orDash(errorCode))
                .addKeyValue("latencyMs", latency)
                .log("request");
    }

    private static String orDash(String s) {
        return s == null ? "-" : s;
    }
}
