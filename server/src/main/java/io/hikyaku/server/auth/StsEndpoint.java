package io.hikyaku.server.auth;

import io.hikyaku.identity.Principal;
import io.hikyaku.identity.sts.StsException;
import io.hikyaku.identity.sts.StsOperations;
import io.hikyaku.identity.sts.StsService;
import io.hikyaku.identity.sts.StsXml;
import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * STS on the SQS port: a request whose SigV4 scope names {@code sts}, or an unsigned Query request
 * with {@code Version=2011-06-15}. Query protocol only (as STS itself, and as {@link StsOperations}
 * says), XML in STS's namespace.
 */
final class StsEndpoint {

    private static final Map<String, String> XML = Map.of("content-type", StsXml.CONTENT_TYPE);

    private final StsService sts;

    StsEndpoint(StsService sts) {
        this.sts = sts;
    }

    /** True when the request is meant for STS rather than SQS. */
    static boolean isSts(HttpRequestData raw, String scopeService) {
        if (scopeService != null) {
            return scopeService.equals("sts");
        }
        if (!FormParams.mentionsStsVersion(raw)) {
            return false;
        }
        try {
            return StsService.VERSION.equals(FormParams.of(raw).get("Version"));
        } catch (IllegalArgumentException malformed) {
            return false;
        }
    }

    /** @param callerKeyId the access key id standing for {@code caller}, or null */
    HttpResponseData handle(HttpRequestData raw, Principal caller, String callerKeyId, String requestId, Instant now) {
        String target = raw.header("x-amz-target");
        if (target != null) {
            // the JSON shape: refused unless the operation table accepts it for that operation (none does)
            String action = target.substring(target.indexOf('.') + 1);
            StsOperations.Operation op = StsOperations.find(action);
            if (op == null || !op.protocols().contains(StsOperations.Protocol.JSON)) {
                return error(StsOperations.invalidAction(action), requestId);
            }
        }
        Map<String, String> params;
        try {
            params = FormParams.of(raw);
        } catch (IllegalArgumentException e) {
            return error(new StsException("MalformedQueryString", 400, "The query string is malformed."), requestId);
        }
        String action = params.get("Action");
        try {
            String members = sts.handle(action, params, caller, conditionKeys(raw, now), callerKeyId);
            return new HttpResponseData(200, XML, StsXml.result(action, members, requestId));
        } catch (StsException e) {
            return error(e, requestId);
        }
    }

    /** The global condition keys a trust policy may test: aws:SourceIp, aws:SecureTransport, aws:CurrentTime, aws:EpochTime, aws:UserAgent. */
    static Map<String, List<String>> conditionKeys(HttpRequestData raw, Instant now) {
        Map<String, List<String>> keys = new HashMap<>();
        if (raw.sourceIp() != null) {
            keys.put("aws:SourceIp", List.of(raw.sourceIp()));
        }
        keys.put("aws:SecureTransport", List.of(Boolean.toString(raw.secure())));
        keys.put("aws:CurrentTime", List.of(DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS))));
        keys.put("aws:EpochTime", List.of(Long.toString(now.getEpochSecond())));
        if (raw.header("user-agent") != null) {
            keys.put("aws:UserAgent", List.of(raw.header("user-agent")));
        }
        return keys;
    }

    static HttpResponseData error(StsException e, String requestId) {
        return error(e.code(), e.status(), e.getMessage(), requestId);
    }

    static HttpResponseData error(String code, int status, String message, String requestId) {
        return new HttpResponseData(status, XML, StsXml.error(code, message, requestId));
    }
}
