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
 * @param account        the 12-digit account the function belongs to, or null for the server's default
 *                       account; only mappings of that account may invoke it (Lambda's rule: a mapping and
 *                       its function are in one account)
 */
public record FunctionConfig(String name, URI url, int timeoutSeconds, Map<String, String> headers, String signingSecret,
                             String account) {

    public static final int DEFAULT_TIMEOUT_SECONDS = 3;
    public static final int MAX_TIMEOUT_SECONDS = 900;
    static final Pattern NAME = Pattern.compile("[a-zA-Z0-9_-]{1,64}");
    private static final Pattern ACCOUNT = Pattern.compile("\\d{12}");

    /** A function of the default account. */
    public FunctionConfig(String name, URI url, int timeoutSeconds, Map<String, String> headers, String signingSecret) {
        this(name, url, timeoutSeconds, headers, signingSecret, null);
    }

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
        if (account != null && !ACCOUNT.matcher(account).matches()) {
            throw new IllegalArgumentException("function " + name + ": account must be a 12-digit account id: " + account);
        }
    }

    /** The same function with another timeout (SAM templates give one). */
    public FunctionConfig withTimeout(int seconds) {
        return new FunctionConfig(name, url, seconds, headers, signingSecret, account);
    }

    @Override
    public String toString() {
        return "FunctionConfig[" + (account == null ? "" : account + ":") + name + " -> " + url + ", timeout " + timeoutSeconds + " s" + (signingSecret == null ? "" : ", signed") + "]";
    }
}
