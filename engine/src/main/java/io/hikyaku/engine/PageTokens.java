package io.hikyaku.engine;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** MaxResults checks and the opaque NextToken of ListQueues / ListDeadLetterSourceQueues. */
final class PageTokens {
    private PageTokens() {}

    static void checkMaxResults(Integer maxResults, int max) {
        if (maxResults != null && (maxResults < 1 || maxResults > max)) {
            throw Texts.invalidValue(maxResults, "MaxResults", "MaxResults must be an integer between 1 and " + max + ".");
        }
    }

    static String encode(String last) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(("v1:" + last).getBytes(StandardCharsets.UTF_8));
    }

    static String decode(String token) {
        if (token == null || token.isEmpty()) {
            return null;
        }
        try {
            String s = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
            if (s.startsWith("v1:")) {
                return s.substring(3);
            }
        } catch (IllegalArgumentException ignored) {
            // falls through to the error
        }
        throw Texts.invalidParameter("Invalid NextToken value.");
    }
}
