package io.hikyaku.engine;

import java.util.UUID;

/**
 * Exact, reversible compact forms of the ids the engine keeps for a long time: a canonical
 * lower-case UUID as two longs, and our 20-digit FIFO sequence number as its number. Anything
 * else is reported as "not compact", so the caller keeps the text: the text returned later is
 * always the text given.
 */
final class CompactIds {

    private CompactIds() {
    }

    /** {high, low} of a canonical lower-case UUID ("8-4-4-4-12" hex), or null for any other text. */
    static long[] parseUuid(String text) {
        if (text == null || text.length() != 36) {
            return null;
        }
        long high = 0;
        long low = 0;
        int digits = 0;
        for (int i = 0; i < 36; i++) {
            char c = text.charAt(i);
            if (i == 8 || i == 13 || i == 18 || i == 23) {
                if (c != '-') {
                    return null;
                }
                continue;
            }
            int v;
            if (c >= '0' && c <= '9') {
                v = c - '0';
            } else if (c >= 'a' && c <= 'f') {
                v = c - 'a' + 10;
            } else {
                return null;
            }
            if (digits < 16) {
                high = (high << 4) | v;
            } else {
                low = (low << 4) | v;
            }
            digits++;
        }
        return new long[] {high, low};
    }

    static String uuidText(long high, long low) {
        return new UUID(high, low).toString();
    }

    /**
     * The number n of a sequence number in the form {@link SendRules#sequenceNumber} writes ("1"
     * and n in 19 zero-padded digits), or -1 for null or any other text.
     */
    static long parseSequenceNumber(String text) {
        if (text == null || text.length() != 20 || text.charAt(0) != '1') {
            return -1;
        }
        long n = 0;
        for (int i = 1; i < 20; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            int d = c - '0';
            if (n > (Long.MAX_VALUE - d) / 10) {
                return -1; // beyond a long: keep the text
            }
            n = n * 10 + d;
        }
        return n;
    }
}
