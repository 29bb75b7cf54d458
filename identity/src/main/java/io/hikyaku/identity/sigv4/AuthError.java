package io.hikyaku.identity.sigv4;

/**
 * The ways authentication (and the account check that stands in for authorization) fails, each with
 * the error code AWS answers (the Query {@code <Code>} and the JSON {@code x-amzn-query-error}) and
 * its HTTP status.
 */
public enum AuthError {
    /** Unknown access key, or a session token that does not belong to it. */
    INVALID_CLIENT_TOKEN_ID("InvalidClientTokenId", 403),
    /** Wrong signature, wrong scope, or a timestamp outside the 15-minute window. */
    SIGNATURE_DOES_NOT_MATCH("SignatureDoesNotMatch", 403),
    /** Missing or malformed parts of the Authorization header or presigned query. */
    INCOMPLETE_SIGNATURE("IncompleteSignature", 400),
    /** A temporary credential used after its expiration. */
    EXPIRED_TOKEN("ExpiredToken", 403),
    /** No credentials where some are required. */
    MISSING_AUTHENTICATION_TOKEN("MissingAuthenticationToken", 403),
    /** Authenticated (or anonymous), but not allowed. */
    ACCESS_DENIED("AccessDenied", 403),
    /** Not signed with SigV4 (SigV2): SQS's own error for "did not use SigV4". */
    INVALID_SECURITY("InvalidSecurity", 403);

    private final String code;
    private final int status;

    AuthError(String code, int status) {
        this.code = code;
        this.status = status;
    }

    public String code() {
        return code;
    }

    public int status() {
        return status;
    }
}
