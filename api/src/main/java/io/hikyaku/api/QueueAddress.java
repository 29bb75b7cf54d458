package io.hikyaku.api;

import io.hikyaku.engine.QueueRef;
import io.hikyaku.protocol.ApiException;
import java.util.Optional;

/**
 * The one parser of queue addresses, used by every layer (authorization, shard routing, the actions,
 * metrics, the access log) through {@link SqsRequests}: nothing else reads a queue URL, a request
 * path or a queue ARN.
 *
 * <p>Only the path of a queue URL counts ({@code /{account}/{name}}), whatever the scheme and host,
 * so URLs minted by Amazon SQS or another endpoint still resolve. As in Amazon SQS, a bare queue name
 * is the caller's queue of that name (sqs-behaviours 76), and a URL without an account/name path
 * names no queue (77: QueueDoesNotExist, not an address error). ElasticMQ's URLs,
 * {@code /queue/{name}}, name the default account's queue.
 *
 * <p>A request whose QueueUrl is absent <em>or empty</em> is addressed by its HTTP path (Query requests
 * sent to the queue URL, as AWS documents; JSON requests POSTed to it; SDK v1's {@code /name}). The
 * empty value is read as absent because that is what the actions always did; what makes it safe is
 * that authorization reads the very queue resolved here (docs/security.md).
 */
public final class QueueAddress {

    /** The path segment ElasticMQ writes where Amazon SQS writes the account id. */
    static final String ELASTICMQ_SEGMENT = "queue";

    private QueueAddress() {}

    /**
     * The queue a QueueUrl (or, when it is absent or empty, the request path) names.
     *
     * @param callerAccount the caller's account (bare names are its queues); null: bare names name no queue
     * @throws ApiException MissingParameter when neither names anything, QueueDoesNotExist when the URL names no queue
     */
    public static QueueRef resolve(String queueUrl, String requestPath, String callerAccount, String defaultAccount) {
        if (queueUrl == null || queueUrl.isEmpty()) {
            Optional<QueueRef> fromPath = parsePath(requestPath);
            if (fromPath.isPresent()) {
                return inAccount(fromPath.get(), defaultAccount);
            }
            String single = singleSegment(requestPath);
            if (single != null) {
                if (callerAccount == null) {
                    throw Errors.noSuchQueue();
                }
                return new QueueRef(callerAccount, single); // SDK v1 sends a bare-name QueueUrl as the path (76)
            }
            throw Errors.missing("QueueUrl");
        }
        if (queueUrl.indexOf('/') < 0) { // a bare name: no scheme, no path
            if (callerAccount == null) {
                throw Errors.noSuchQueue();
            }
            return new QueueRef(callerAccount, queueUrl);
        }
        return parseUrl(queueUrl).map(q -> inAccount(q, defaultAccount)).orElseThrow(Errors::noSuchQueue);
    }

    /** The one segment of a path like {@code /name} (query and trailing slash ignored), else null. */
    private static String singleSegment(String path) {
        if (path == null) {
            return null;
        }
        String p = withoutQueryAndTrailingSlash(path);
        return p.length() > 1 && p.lastIndexOf('/') == 0 ? p.substring(1) : null;
    }

    /** {@code q}, with ElasticMQ's {@code queue} segment read as the default account. */
    private static QueueRef inAccount(QueueRef q, String defaultAccount) {
        if (defaultAccount != null && q.accountId().equals(ELASTICMQ_SEGMENT)) {
            return new QueueRef(defaultAccount, q.name());
        }
        return q;
    }

    /** {@code scheme://host[:port]/{account}/{name}} or just the path, in either case by its path. */
    static Optional<QueueRef> parseUrl(String url) {
        String path = url;
        int scheme = url.indexOf("://");
        if (scheme >= 0) {
            int slash = url.indexOf('/', scheme + 3);
            path = slash < 0 ? "" : url.substring(slash);
        }
        return parsePath(path);
    }

    /** The last two segments of a path, {@code /{account}/{name}}; query and trailing slash ignored. */
    public static Optional<QueueRef> parsePath(String path) {
        if (path == null) {
            return Optional.empty();
        }
        String p = withoutQueryAndTrailingSlash(path);
        int last = p.lastIndexOf('/');
        if (last <= 0) {
            return Optional.empty();
        }
        String name = p.substring(last + 1);
        int prev = p.lastIndexOf('/', last - 1);
        String account = p.substring(prev + 1, last);
        if (name.isEmpty() || account.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new QueueRef(account, name));
    }

    private static String withoutQueryAndTrailingSlash(String path) {
        int q = path.indexOf('?');
        String p = q >= 0 ? path.substring(0, q) : path;
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p;
    }

    /** {@code {baseUrl}/{account}/{name}}: the URL we hand out for a queue. */
    static String url(String baseUrl, QueueRef queue) {
        return baseUrl + "/" + queue.accountId() + "/" + queue.name();
    }

    /** {@code arn:aws:sqs:{region}:{account}:{name}}, or empty when not an SQS queue ARN. */
    public static Optional<QueueRef> parseArn(String arn) {
        if (arn == null) {
            return Optional.empty();
        }
        String[] parts = arn.split(":", -1);
        if (parts.length != 6 || !parts[0].equals("arn") || !parts[2].equals("sqs")
                || parts[4].isEmpty() || parts[5].isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new QueueRef(parts[4], parts[5]));
    }
}
