package io.hikyaku.engine;

import java.util.concurrent.CompletableFuture;

/**
 * The result of a mutating command: {@code value} is known at once; {@code written} completes when
 * the command's store batch is durable (exceptionally with a StoreException if it could not be
 * persisted). Acknowledge the client only after {@code written}.
 */
public record Durable<T>(T value, CompletableFuture<Void> written) {

    /** A future of the value that completes once the change is durable. */
    public CompletableFuture<T> future() {
        return written.thenApply(v -> value);
    }
}
