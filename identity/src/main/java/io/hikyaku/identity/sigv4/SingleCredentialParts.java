package io.hikyaku.identity.sigv4;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The parts of a request that say who signed it must each appear once. With two
 * {@code Authorization} headers one reader (the verifier) would take the first and another (a log,
 * the account selection) the last, so an unsigned value could ride along a signed one; such a
 * request is refused before anything reads them.
 */
public final class SingleCredentialParts {

    private static final Set<String> QUERY = Set.of("X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date", "X-Amz-Expires",
            "X-Amz-SignedHeaders", "X-Amz-Signature", "X-Amz-Security-Token");

    private SingleCredentialParts() {}

    /**
     * The bit of a header that must appear once (authorization, x-amz-date, x-amz-security-token,
     * x-amz-content-sha256), or -1; by length first: most names are none of them, and this runs for each
     * header line of every request.
     */
    private static int indexOf(String name) {
        return switch (name.length()) {
            case 13 -> name.equals("authorization") ? 0 : -1;
            case 10 -> name.equals("x-amz-date") ? 1 : -1;
            case 20 -> name.equals("x-amz-security-token") ? 2 : name.equals("x-amz-content-sha256") ? 3 : -1;
            default -> -1;
        };
    }

    /** @throws AuthException IncompleteSignature naming the first part that appears more than once */
    public static void check(SignedRequest request) {
        int seen = 0; // one bit per name of indexOf: this runs for every request, so no set is built
        for (Map.Entry<String, String> h : request.headers()) {
            int i = indexOf(h.getKey());
            if (i < 0) {
                continue;
            }
            if ((seen & (1 << i)) != 0) {
                throw new AuthException(AuthError.INCOMPLETE_SIGNATURE, "The request must not repeat the " + h.getKey() + " header.");
            }
            seen |= 1 << i;
        }
        String query = request.rawQuery();
        if (query == null || query.isEmpty()) {
            return;
        }
        Set<String> names = new HashSet<>();
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String name = Canonical.decode(eq < 0 ? pair : pair.substring(0, eq));
            if (QUERY.contains(name) && !names.add(name)) {
                throw new AuthException(AuthError.INCOMPLETE_SIGNATURE, "The request must not repeat the " + name + " parameter.");
            }
        }
    }
}
