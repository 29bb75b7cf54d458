package io.hikyaku.bench.check;

/**
 * Outcome of the check after draining, by message id. {@code lost}: acknowledged and never received.
 * {@code unacknowledged}: received though its send was answered with an error (allowed: a failed
 * request may still have committed, e.g. across a cluster's leader change; standard queues deliver
 * at least once). {@code undeleted}: acknowledged, and no delete of it was acknowledged.
 */
public record CorrectnessReport(long sent, long received, long deleted, long lost, long duplicates,
                                long orderViolations, long unknown, long unacknowledged, long undeleted) {
    public boolean clean() {
        return lost == 0 && duplicates == 0 && orderViolations == 0 && unknown == 0 && undeleted == 0;
    }
}
