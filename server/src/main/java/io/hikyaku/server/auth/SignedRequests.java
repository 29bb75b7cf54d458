package io.hikyaku.server.auth;

import io.hikyaku.identity.sigv4.SignedRequest;
import io.hikyaku.protocol.HttpRequestData;

/** The SigV4 view of a received request. */
final class SignedRequests {

    private SignedRequests() {}

    static SignedRequest of(HttpRequestData raw) {
        return new SignedRequest(raw.method(), raw.rawPath(), raw.rawQuery(), raw.headerLines(), raw.body());
    }
}
