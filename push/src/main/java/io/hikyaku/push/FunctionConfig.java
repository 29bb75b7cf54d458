package io.hikyaku.push;

import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A "function": an HTTP endpoint that Hikyaku POSTs Lambda's SQS event to, declared in the config file.
 *
 * @param name           the function name mappings refer to (Lambda's rules: 1-64 of letters, digits, - and _)
 * @param url            where the event is POSTed (http or https)
 * @param timeoutSeconds how long a call may take (1-900, Lambda's range; default 3 like Lambda); a
 *                       slower answer counts as a failed invocation
 * @param headers        extra request headers sent with every call (e.g. an API key)
 * @param signingSecret  when set, every call carries an HMAC-SHA256 signature of its timestamp and body
 *                       (see {@link RequestSigner}); null for none
 */
public record FunctionConfig(String name, URI url, int timeoutSeconds, Map<String, String> headers, String signingSecret) {

    public static final int DEFAULT_TIMEOUT_SECONDS = 3;
    public static final int MAX_TIMEOUT_SECONDS = 900;
    static final Pattern NAME = Pattern.compile("[a-zA-Z0-9_-]{1,64}");

    public FunctionConfig {
        Objects.requireNonNull(name, "function name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("function name must be 1-64 letters, digits, '-' or '_': " + name);
        }
        Objects.requireNonNull(url, "function " + name + ": url");
        if (url.getScheme() == null || !(url.getScheme().equals("http") || url.getScheme().equals("https")) || url.getHost() == null) {
            throw new IllegalArgumentException("function " + name + ": url must be an absolute http:// or https:// URL: " + url);
        }
        if (timeoutSeconds < 1 || timeoutSeconds > MAX_TIMEOUT_SECONDS) {
            throw new IllegalArgumentException("function " + name + ": timeoutSeconds must be 1-" + MAX_TIMEOUT_SECONDS + ": " + timeoutSeconds);
        }
        headers = headers == null ? Map.of() : Map.copyOf(headers);
        for (String h : headers.keySet()) {
            if (RequestSigner.reserved(h)) {
                throw new IllegalArgumentException("function " + name + ": header " + h + " is set by Hikyaku itself");
            }
        }
        if (signingSecret != null && signingSecret.isEmpty()) {
            throw new IllegalArgumentException("function " + name + ": signingSecret must not be empty");
        }
    }

    @Override
    public String toString() {
        return "FunctionConfig[" + name + " -> " + url + ", timeout " + timeoutSeconds + " s" + (signingSecret == null ? "" : ", signed") + "]";
    }
}
