package io.hikyaku.identity.sigv4;

import java.util.List;

/**
 * The authentication parts of a SigV4 request, from the Authorization header or the presigned
 * query, before anything is checked against a key.
 *
 * @param presigned     true when they came from the query string
 * @param credential    {@code AKID/date/region/service/aws4_request} as sent
 * @param signedHeaders lower-case header names
 * @param signedHeaderLine the names joined with ';' (the canonical request's signed-headers line)
 * @param signature     the hex signature sent
 * @param amzDate       X-Amz-Date (or the Date header turned into the same basic format)
 * @param expiresSeconds presigned validity in seconds, or -1 for the header form
 * @param securityToken X-Amz-Security-Token (header or query), or null
 */
record SigV4Parts(boolean presigned, String credential, List<String> signedHeaders, String signedHeaderLine, String signature, String amzDate,
                  long expiresSeconds, String securityToken) {}
