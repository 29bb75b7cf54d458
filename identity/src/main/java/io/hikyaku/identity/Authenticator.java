package io.hikyaku.identity;

import io.hikyaku.identity.sigv4.AuthError;
import io.hikyaku.identity.sigv4.AuthException;
import io.hikyaku.identity.sigv4.SigV4Verifier;
import io.hikyaku.identity.sigv4.SignedRequest;
import io.hikyaku.identity.sigv4.SingleCredentialParts;
import io.hikyaku.identity.sts.Sessions;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Decides who a request comes from.
 *
 * <ul>
 *   <li>{@link AuthMode#SIGV4}: the signature is verified ({@link SigV4Verifier}) against the
 *       configured keys and live STS sessions; an unsigned request is {@link Principal#anonymous()}.</li>
 *   <li>{@link AuthMode#NONE}: nothing is verified. A configured or STS-issued access key id stands
 *       for its principal (an expired STS key is still refused with ExpiredToken, so role-assuming
 *       clients see the same life cycle as with AWS); a 12-digit key id is the root of that account;
 *       anything else, or no key, is the root of the default account.</li>
 * </ul>
 */
public final class Authenticator {

    private static final Pattern ACCOUNT = Pattern.compile("\\d{12}");

    private final AuthMode mode;
    private final Supplier<Identities> identities;
    private final Sessions sessions;
    private final Clock clock;
    private final String defaultAccount;
    private final SigV4Verifier verifier;

    public Authenticator(AuthMode mode, Identities identities, Sessions sessions, Clock clock, String defaultAccount) {
        this(mode, () -> identities, sessions, clock, defaultAccount);
    }

    /** @param identities the identities in force, read afresh for every request (they can be reloaded) */
    public Authenticator(AuthMode mode, Supplier<Identities> identities, Sessions sessions, Clock clock, String defaultAccount) {
        this.mode = mode;
        this.identities = identities;
        this.sessions = sessions;
        this.clock = clock;
        this.defaultAccount = defaultAccount;
        this.verifier = new SigV4Verifier(clock, this::credential);
    }

    /**
     * The outcome: who is calling, which service the signature was made for (null if unsigned or not
     * verified), and the access key id that stands for the caller (null when none does).
     */
    public record Authentication(Principal principal, String signedService, String accessKeyId) {}

    /** @throws AuthException with AWS's code and text when the request's credentials are refused */
    public Authentication authenticate(SignedRequest request) {
        SingleCredentialParts.check(request); // whatever the mode: every later reader sees the one value
        if (mode == AuthMode.SIGV4) {
            SigV4Verifier.Authenticated verified = verifier.verify(request);
            return verified == null
                    ? new Authentication(Principal.anonymous(), null, null)
                    : new Authentication(verified.credential().principal(), verified.service(), verified.credential().accessKeyId());
        }
        String keyId = SigV4Verifier.accessKeyId(request);
        String service = SigV4Verifier.scopeService(request);
        if (keyId == null) {
            return new Authentication(Principal.accountRoot(defaultAccount), service, null);
        }
        Optional<Credential> known = credential(keyId);
        if (known.isPresent()) {
            Credential c = known.get();
            if (c.temporary() && !clock.instant().isBefore(c.expiration())) {
                throw new AuthException(AuthError.EXPIRED_TOKEN, "The security token included in the request is expired");
            }
            return new Authentication(c.principal(), service, c.accessKeyId());
        }
        return new Authentication(Principal.accountRoot(ACCOUNT.matcher(keyId).matches() ? keyId : defaultAccount), service, null);
    }

    public AuthMode mode() {
        return mode;
    }

    /** A configured key, or a session whose parents are all still configured (a reload may have removed them). */
    private Optional<Credential> credential(String accessKeyId) {
        Identities now = identities.get();
        Optional<Credential> c = now.key(accessKeyId);
        return c.isPresent() ? c : sessions.find(accessKeyId, now);
    }
}
