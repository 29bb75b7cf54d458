package io.hikyaku.engine.command;

import io.hikyaku.engine.EngineException;
import java.util.concurrent.CompletableFuture;

/**
 * What applying a {@link Command} gave: either a value (the same value the matching engine method
 * returns: QueueInfo, SendResult, batch outcomes, ...) with {@code written} completing once the
 * command's store batch is durable, or a refusal ({@code errorType} and {@code errorMessage}, the
 * SQS error shape and text). A refused command changed nothing but the timers already due at its
 * time, whose effects were written.
 */
public record Result(Object value, CompletableFuture<Void> written, String errorType, String errorMessage) {

    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    public static Result ok(Object value, CompletableFuture<Void> written) {
        return new Result(value, written, null, null);
    }

    /** The result of an engine method that changed state. */
    public static Result of(io.hikyaku.engine.Durable<?> durable) {
        return new Result(durable.value(), durable.written(), null, null);
    }

    public static Result refused(EngineException e) {
        return new Result(null, DONE, e.errorType(), e.getMessage());
    }

    public boolean refused() {
        return errorType != null;
    }

    /** The refusal as the exception the engine methods throw (null when applied). */
    public EngineException error() {
        return errorType == null ? null : new EngineException(errorType, errorMessage);
    }

    /** The value, typed by the caller who knows which command it applied. */
    @SuppressWarnings("unchecked")
    public <T> T as() {
        return (T) value;
    }
}
