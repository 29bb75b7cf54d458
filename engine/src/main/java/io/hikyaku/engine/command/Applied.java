package io.hikyaku.engine.command;

import io.hikyaku.engine.Durable;
import io.hikyaku.engine.EngineException;
import java.util.concurrent.CompletableFuture;

/**
 * What applying a {@link Command Command&lt;R&gt;} gave: {@link Done} with the command's value (typed
 * by the command: a {@code SendMessage} gives a {@code SendResult}) and {@code written}, which
 * completes once the command's store batch is durable; or {@link Refused} with the SQS error shape
 * and text. A refused command changed nothing but the timers already due at its time, whose
 * effects were written.
 */
public sealed interface Applied<R> {

    CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    /** Completes when the command's store batch is durable (at once for a refusal). */
    CompletableFuture<Void> written();

    /** The value; a refusal has none ({@link IllegalStateException}: check {@link #refused()} first). */
    R value();

    /** Applied: {@code value} now, durable once {@code written} completes. */
    record Done<R>(R value, CompletableFuture<Void> written) implements Applied<R> {}

    /** Refused: {@code errorType} is the SQS error shape name, {@code errorMessage} its exact text. */
    record Refused<R>(String errorType, String errorMessage) implements Applied<R> {
        @Override
        public CompletableFuture<Void> written() {
            return DONE;
        }

        @Override
        public R value() {
            throw new IllegalStateException("refused (" + errorType + "): " + errorMessage);
        }
    }

    static <R> Applied<R> refused(EngineException e) {
        return new Refused<>(e.errorType(), e.getMessage());
    }

    default boolean refused() {
        return this instanceof Refused;
    }

    /** The refusal's error shape name, or null when applied. */
    default String errorType() {
        return this instanceof Refused<R> r ? r.errorType() : null;
    }

    /** The refusal's text, or null when applied. */
    default String errorMessage() {
        return this instanceof Refused<R> r ? r.errorMessage() : null;
    }

    /** The refusal as the exception the api answers with (null when applied). */
    default EngineException error() {
        return this instanceof Refused<R> r ? new EngineException(r.errorType(), r.errorMessage()) : null;
    }

    /** The value and its durability, or the refusal thrown as an {@link EngineException}. */
    default Durable<R> durable() {
        if (this instanceof Refused<R> r) {
            throw error();
        }
        return new Durable<>(value(), written());
    }
}
