package io.hikyaku.bench.client;

/** A call that did not return 200: the scenarios count it as an error. */
public final class SqsCallException extends RuntimeException {
    private final int status;

    public SqsCallException(int status, String message) {
        super(status + " " + message);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
