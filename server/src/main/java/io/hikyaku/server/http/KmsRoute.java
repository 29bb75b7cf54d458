package io.hikyaku.server.http;

import io.hikyaku.identity.RequestContext;
import io.hikyaku.kms.KmsApi;
import io.hikyaku.kms.KmsException;
import io.hikyaku.kms.KmsRequests;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import io.hikyaku.server.auth.RequestAuthentication;

/**
 * A KMS request: with auth sigv4 authorized as {@code kms:<Op>} on the key it acts on (IAM and the key policy,
 * with the KMS condition keys; ReEncrypt also {@code kms:ReEncryptTo} on its destination), then served in the
 * caller's account. An operation KMS does not have is refused by the API (UnknownOperationException).
 */
final class KmsRoute {

    private KmsRoute() {
    }

    static HttpResponseData serve(KmsApi api, RequestAuthentication authentication, RequestContext caller,
                                  HttpRequestData raw, String account) {
        try {
            return authorizedAndServed(api, authentication, caller, raw, account);
        } catch (RuntimeException e) { // a bug answers 500, never a dropped connection
            org.slf4j.LoggerFactory.getLogger(KmsRoute.class).error("KMS request failed", e);
            return KmsRequests.error(new KmsException("KMSInternalException", 500, "An internal error occurred"));
        }
    }

    private static HttpResponseData authorizedAndServed(KmsApi api, RequestAuthentication authentication, RequestContext caller,
                                                        HttpRequestData raw, String account) {
        if (api == null) {
            return KmsRequests.error(new KmsException("KMSInternalException", 503, "KMS is not running"));
        }
        if (caller != null && authentication != null) {
            var keys = KmsApi.conditionKeys(raw, account);
            String denial = authentication.kmsDenial(caller, api.authorizationTarget(raw, account), keys);
            String[] destination = denial == null ? api.destinationTarget(raw, account) : null;
            if (destination != null) {
                denial = authentication.kmsDenial(caller, destination, keys);
            }
            if (denial != null) {
                return KmsRequests.accessDenied(denial);
            }
        }
        return api.handle(raw, account);
    }
}
