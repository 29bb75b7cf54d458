package io.hikyaku.server.auth;

import io.hikyaku.identity.AuthMode;
import io.hikyaku.identity.Authenticator;
import io.hikyaku.identity.NewKeys;
import io.hikyaku.identity.Principal;
import io.hikyaku.identity.sigv4.AuthException;
import io.hikyaku.identity.sigv4.SigV4Verifier;
import io.hikyaku.identity.sigv4.SignedRequest;
import io.hikyaku.identity.sts.Sessions;
import io.hikyaku.identity.sts.StsService;
import io.hikyaku.protocol.ApiException;
import io.hikyaku.protocol.ApiRequest;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import io.hikyaku.protocol.ProtocolCodec;
import io.hikyaku.server.SecurityConfig;
import java.time.Clock;

/**
 * The authenticate step of a request's path (decode -> authenticate -> authorize -> ...), at the
 * HTTP boundary: verifies the request (or, with auth none, reads its key id), answers STS requests
 * itself, and for SQS requests hands back the principal whose account the call acts in.
 */
public final class RequestAuthentication {

    private final Authenticator authenticator;
    private final StsEndpoint sts;
    private final AccountIsolation isolation;
    private final boolean enforce;

    public RequestAuthentication(SecurityConfig security, String defaultAccount, String region, Clock clock) {
        Sessions sessions = new Sessions(clock);
        this.enforce = security.auth() == AuthMode.SIGV4;
        this.authenticator = new Authenticator(security.auth(), security.identities(), sessions, clock, defaultAccount);
        this.sts = new StsEndpoint(new StsService(security.identities(), sessions, new NewKeys(), clock, enforce));
        this.isolation = new AccountIsolation(region);
    }

    /** Either the principal of an SQS call, or a response to send as it is (STS, or an authentication failure). */
    public record Outcome(Principal principal, HttpResponseData response) {}

    public Outcome authenticate(HttpRequestData raw, ProtocolCodec codec, String requestId) {
        SignedRequest signed = SignedRequests.of(raw);
        boolean forSts = StsEndpoint.isSts(raw, SigV4Verifier.scopeService(signed));
        Principal principal;
        try {
            principal = authenticator.authenticate(signed).principal();
        } catch (AuthException e) {
            HttpResponseData refusal = forSts
                    ? StsEndpoint.error(e.error().code(), e.error().status(), e.getMessage(), requestId)
                    : codec.encodeError(raw, null, new ApiException(e.error().code(), e.getMessage()), requestId);
            return new Outcome(null, refusal);
        }
        if (forSts) {
            return new Outcome(principal, sts.handle(raw, principal, requestId));
        }
        return new Outcome(principal, null);
    }

    /**
     * The authorize step, until policies are enforced: with auth sigv4 a principal acts only on its
     * own account's queues; with auth none everything is allowed, as before.
     *
     * @throws ApiException AccessDenied
     */
    public void authorize(Principal principal, ApiRequest request) {
        if (enforce) {
            isolation.check(principal, request);
        }
    }
}
