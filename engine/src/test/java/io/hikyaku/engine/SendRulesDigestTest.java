package io.hikyaku.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class SendRulesDigestTest {

    private static String reference(String body) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        return HexFormat.of().formatHex(md.digest(body.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void contentDigestIsTheSha256OfTheUtf8Body() throws Exception {
        String[] bodies = {"", "hello", "x".repeat(256), "héllo wörld", "emoji \uD83D\uDE00",
                "lone surrogate \uD800 here", "a".repeat(64 * 1024), "a".repeat(64 * 1024 + 1),
                "\u00ff".repeat(70_000), "short after long"};
        for (String body : bodies) {
            assertEquals(reference(body), SendRules.sha256Hex(body), () -> "body of " + body.length() + " chars");
        }
        // a known value, not only agreement with the JDK: SHA-256 of "hello"
        assertEquals("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824", SendRules.sha256Hex("hello"));
    }
}
