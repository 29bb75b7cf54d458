package io.hikyaku.identity;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * A secret access key or session token. It never shows itself: {@link #toString()} is masked, so a
 * secret that reaches a log line, an error message or a debugger's summary stays hidden.
 */
public final class Secret {

    private final String value;

    public Secret(String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("a secret must not be empty");
        }
        this.value = value;
    }

    /** The secret itself, for signing only. */
    public String reveal() {
        return value;
    }

    /** Constant-time comparison with {@code other} (no early exit on the first differing byte). */
    public boolean matches(String other) {
        return other != null && MessageDigest.isEqual(value.getBytes(StandardCharsets.UTF_8), other.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
        return "****";
    }
}
