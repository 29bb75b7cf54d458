package io.hikyaku.engine;

/** One entry of a batch command: either {@code value} (success) or {@code error}. */
public record BatchOutcome<T>(T value, EngineException error) {

    public boolean ok() {
        return error == null;
    }
}
