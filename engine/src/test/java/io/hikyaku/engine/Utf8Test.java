package io.hikyaku.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.junit.jupiter.api.Test;

class Utf8Test {

    private static final String[] TEXTS = {"", "plain", "héllo", "emoji \uD83D\uDE00", "lone \uD800 surrogate",
            "a".repeat(64 * 1024 + 1), "\u00ff".repeat(1000)};

    @Test
    void lengthIsTheLengthOfGetBytes() {
        for (String s : TEXTS) {
            assertEquals(s.getBytes(StandardCharsets.UTF_8).length, Utf8.encodedLength(s));
        }
    }

    @Test
    void sizeLimitLengthCountsEachLoneSurrogateAsThreeBytes() {
        assertEquals(0, Utf8.length(null));
        assertEquals(5 + 3 + 10, Utf8.length("lone \uD800 surrogate"));
        assertEquals(6 + 4, Utf8.length("emoji \uD83D\uDE00"));
        assertEquals(6, Utf8.length("héllo"));
    }

    @Test
    void updateDigestsTheBytesOfGetBytes() throws Exception {
        for (String s : TEXTS) {
            MessageDigest ours = MessageDigest.getInstance("MD5");
            Utf8.update(ours, s);
            byte[] expected = MessageDigest.getInstance("MD5").digest(s.getBytes(StandardCharsets.UTF_8));
            assertArrayEquals(expected, ours.digest());
        }
    }
}
