package io.hikyaku.identity.sigv4;

/** A request that failed authentication (or the account check), with AWS's code and message. */
public final class AuthException extends RuntimeException {

    private final AuthError error;

    public AuthException(AuthError error, String message) {
        super(message, null, false, false);
        this.error = error;
    }

    public AuthError error() {
        return error;
    }

    // Messages used in several places, worded as AWS words them.
    static final String INVALID_TOKEN = "The security token included in the request is invalid.";
    static final String EXPIRED_TOKEN = "The security token included in the request is expired";
    static final String BAD_SIGNATURE = "The request signature we calculated does not match the signature you provided. "
            + "Check your AWS Secret Access Key and signing method. Consult the service documentation for details.";
    static final String NOT_SIGV4 = "The request was not made over HTTPS or did not use SigV4 for signing.";
}
