package io.hikyaku.server.http;

import io.hikyaku.api.CallContext;
import io.hikyaku.protocol.HttpRequestData;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.function.IntSupplier;
import java.util.regex.Pattern;

/**
 * Decides who is calling and how queue URLs are written back. With {@code --auth none} signatures
 * are not verified: the access key id only selects the account, and only when it is exactly 12
 * digits, as LocalStack-style emulators do; with {@code --auth sigv4} authentication decides the
 * account and the SenderId and passes them in.
 */
public final class CallContextFactory {

    private static final Pattern ACCOUNT = Pattern.compile("\\d{12}");
    /** What a Host header may hold: a DNS name, IPv4, [IPv6], optional port. Anything else is ignored. */
    private static final Pattern HOST_HEADER = Pattern.compile("[A-Za-z0-9._\\-]+(:\\d{1,5})?|\\[[0-9A-Fa-f:.]+\\](:\\d{1,5})?");

    private final String defaultAccount;
    private final String region;
    private final String advertisedUrl;
    private final String reachableHost;
    private final IntSupplier port;

    /**
     * @param advertisedUrl base of queue URLs, or null to use the Host header
     * @param bindHost      the bound address, used when a request has no usable Host header
     * @param port          the bound port (known only once bound)
     */
    public CallContextFactory(String defaultAccount, String region, String advertisedUrl, String bindHost, IntSupplier port) {
        this.defaultAccount = defaultAccount;
        this.region = region;
        this.advertisedUrl = advertisedUrl;
        this.reachableHost = reachableHost(bindHost);
        this.port = port;
    }

    public CallContext create(HttpRequestData request, String requestId) {
        return new CallContext(accountOf(request), region, baseUrlOf(request), request.header("x-amzn-trace-id"), requestId,
                defaultAccount);
    }

    /** The context of a call whose account authentication has decided (the principal's account). */
    public CallContext create(HttpRequestData request, String requestId, String accountId) {
        return create(request, requestId, accountId, accountId);
    }

    /** As above, with the SenderId of the messages the principal sends (its unique id). */
    public CallContext create(HttpRequestData request, String requestId, String accountId, String senderId) {
        return new CallContext(accountId, region, baseUrlOf(request), request.header("x-amzn-trace-id"), requestId,
                defaultAccount, senderId);
    }

    /** The account a call without authentication acts in: a 12-digit access key id selects it, else the default. */
    public String accountOfUnauthenticated(HttpRequestData request) {
        return accountOf(request);
    }

    /** Base URL used for calls that come from no request (queues created at start-up). */
    public String defaultBaseUrl() {
        return advertisedUrl != null ? advertisedUrl : fallbackBaseUrl();
    }

    private String fallbackBaseUrl() {
        return "http://" + reachableHost + ":" + port.getAsInt();
    }

    String accountOf(HttpRequestData request) {
        // the first Authorization line, as the verifier reads it (a request repeating it is refused when authenticated)
        String keyId = accessKeyFromAuthorization(firstHeader(request, "authorization"));
        if (keyId == null) {
            keyId = accessKeyFromQuery(request.rawQuery());
        }
        return keyId != null && ACCOUNT.matcher(keyId).matches() ? keyId : defaultAccount;
    }

    private static String firstHeader(HttpRequestData request, String name) {
        for (var line : request.headerLines()) {
            if (line.getKey().equals(name)) {
                return line.getValue();
            }
        }
        return null;
    }

    String baseUrlOf(HttpRequestData request) {
        if (advertisedUrl != null) {
            return advertisedUrl;
        }
        String host = request.header("host");
        if (host != null && HOST_HEADER.matcher(host.trim()).matches()) {
            return (request.secure() ? "https://" : "http://") + host.trim();
        }
        return fallbackBaseUrl();
    }

    /** {@code AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/sqs/aws4_request, SignedHeaders=...}. */
    static String accessKeyFromAuthorization(String authorization) {
        if (authorization == null) {
            return null;
        }
        int at = authorization.indexOf("Credential=");
        if (at < 0) {
            return null;
        }
        return keyIdOf(authorization, at + "Credential=".length()); // read in place: this runs for every request
    }

    /** Presigned (query-string) SigV4: {@code X-Amz-Credential=AKID%2F20260101%2F...}. */
    static String accessKeyFromQuery(String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return null;
        }
        for (String pair : rawQuery.split("&")) {
            if (pair.startsWith("X-Amz-Credential=")) {
                try {
                    return keyIdOf(URLDecoder.decode(pair.substring("X-Amz-Credential=".length()), StandardCharsets.UTF_8), 0);
                } catch (IllegalArgumentException badEscape) {
                    return null;
                }
            }
        }
        return null;
    }

    /** The key id in {@code credential} from {@code from} on: up to the first '/', ',' or space. */
    private static String keyIdOf(String credential, int from) {
        int end = from;
        while (end < credential.length() && "/, ".indexOf(credential.charAt(end)) < 0) {
            end++;
        }
        return end == from ? null : credential.substring(from, end);
    }

    private static String reachableHost(String bindHost) {
        if (bindHost.equals("0.0.0.0") || bindHost.equals("::") || bindHost.equals("[::]")) {
            return "127.0.0.1";
        }
        return bindHost.contains(":") && !bindHost.startsWith("[") ? "[" + bindHost + "]" : bindHost;
    }
}
