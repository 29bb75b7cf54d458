package io.hikyaku.engine.store;

/** A store could not read or persist data (I/O error, disk full, corruption). */
public class StoreException extends RuntimeException {
    public StoreException(String message) {
        super(message);
    }

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
