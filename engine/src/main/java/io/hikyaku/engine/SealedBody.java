package io.hikyaku.engine;

/**
 * A message body sealed by the api's encryption at rest (SSE): {@code U+0001 "hk" version ":" size ":" ciphertext},
 * where {@code size} is what the plaintext body and attributes count towards MaximumMessageSize. The engine never
 * opens it; it only needs the size, so that a sealed message is refused exactly where its plaintext would be.
 * U+0001 is not a character a client may send (MessageContent refuses it), so no client body looks sealed.
 */
public final class SealedBody {

    public static final char MARKER = '\u0001';
    public static final String PREFIX = MARKER + "hk";

    private SealedBody() {
    }

    public static boolean isSealed(String body) {
        return body != null && !body.isEmpty() && body.charAt(0) == MARKER;
    }

    /** The plaintext size the header declares; -1 when the header is damaged (then the stored length counts). */
    public static long countedSize(String body) {
        int first = body.indexOf(':');
        int second = first < 0 ? -1 : body.indexOf(':', first + 1);
        if (second < 0) {
            return -1;
        }
        try {
            return Long.parseLong(body, first + 1, second, 10);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
