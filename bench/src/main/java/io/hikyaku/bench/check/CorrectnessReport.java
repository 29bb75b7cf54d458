package io.hikyaku.bench.check;

/** Outcome of the sent = received = deleted check after draining. */
public record CorrectnessReport(long sent, long received, long deleted, long lost, long duplicates,
                                long orderViolations, long unknown) {
    public boolean clean() {
        return lost == 0 && duplicates == 0 && orderViolations == 0 && unknown == 0 && received == sent
                && deleted == sent;
    }
}
