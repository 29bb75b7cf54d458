package io.hikyaku.engine.store;

/**
 * A store could not read or persist data (I/O error, disk full, corruption).
 *
 * <p>For a failed write, {@link #outcomeUnknown()} tells the two cases apart: false, the batch was not
 * applied at all (reads never saw it); true, it was applied (reads see it) but could not be made
 * durable (a failed fsync), so whether it survives depends on what the store does next (see
 * {@link Store#resume()}).
 */
public class StoreException extends RuntimeException {

    private final boolean outcomeUnknown;

    public StoreException(String message) {
        this(message, null, false);
    }

    public StoreException(String message, Throwable cause) {
        this(message, cause, false);
    }

    public StoreException(String message, Throwable cause, boolean outcomeUnknown) {
        super(message, cause);
        this.outcomeUnknown = outcomeUnknown;
    }

    /** True when the failed batch was applied but is not known to be durable. */
    public boolean outcomeUnknown() {
        return outcomeUnknown;
    }
}
