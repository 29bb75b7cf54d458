package io.hikyaku.server.sse;

import io.hikyaku.api.sse.KeyCaller;
import io.hikyaku.identity.RequestContext;
import io.hikyaku.server.auth.RequestAuthentication;

/**
 * An SQS caller's use of a KMS key, authorized as a direct KMS call of that principal would be
 * ({@link RequestAuthentication#kmsDenial}: its IAM policies and the key policy together, with the KMS condition
 * keys SSE adds: {@code kms:ViaService}, {@code kms:CallerAccount}, the {@code aws:sqs:arn} encryption context).
 */
public final class KmsKeyCallers {

    private KmsKeyCallers() {
    }

    public static KeyCaller of(RequestAuthentication authentication, RequestContext caller) {
        return (action, keyArn, keyAccount, keyPolicy, keys) ->
                authentication.kmsDenial(caller, new String[] {action, keyArn, keyAccount, keyPolicy}, keys);
    }
}
