package io.hikyaku.api;

import io.hikyaku.engine.QueueRef;
import java.util.Optional;

/**
 * Finds the queue a request names. Only the path of a queue URL counts ({@code /{account}/{name}}),
 * whatever the scheme and host, so URLs minted by Amazon SQS or another endpoint still resolve.
 * As in Amazon SQS, a bare queue name is the caller's queue of that name (sqs-behaviours 76), and a
 * URL without an account/name path names no queue (77: QueueDoesNotExist, not an address error).
 * ElasticMQ's URLs, {@code /queue/{name}}, name the default account's queue.
 */
final class QueueUrls {

    /** The path segment ElasticMQ writes where Amazon SQS writes the account id. */
    static final String ELASTICMQ_SEGMENT = "queue";

    private QueueUrls() {}

    /**
     * The queue of {@code input}'s QueueUrl; a request without one may name its queue in the HTTP
     * path (Query requests sent to the queue URL, JSON requests POSTed to it).
     */
    static QueueRef resolve(Input input, String requestPath) {
        String url = input.string("QueueUrl");
        CallContext caller = input.caller();
        if (url == null || url.isEmpty()) {
            Optional<QueueRef> fromPath = parsePath(requestPath);
            if (fromPath.isPresent()) {
                return inAccount(fromPath.get(), caller);
            }
            String single = singleSegment(requestPath);
            if (single != null && caller != null) {
                // SDK v1 sends a bare-name QueueUrl as the request path: the caller's queue (76)
                return new QueueRef(caller.accountId(), single);
            }
            throw Errors.missing("QueueUrl");
        }
        if (url.indexOf('/') < 0 && caller != null) {
            return new QueueRef(caller.accountId(), url); // a bare name: no scheme, no path
        }
        return parseUrl(url).map(q -> inAccount(q, caller)).orElseThrow(Errors::noSuchQueue);
    }

    /** The one segment of a path like {@code /name} (query and trailing slash ignored), else null. */
    private static String singleSegment(String path) {
        if (path == null) {
            return null;
        }
        int q = path.indexOf('?');
        String p = q >= 0 ? path.substring(0, q) : path;
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p.length() > 1 && p.lastIndexOf('/') == 0 ? p.substring(1) : null;
    }

    /** {@code q}, with ElasticMQ's {@code queue} segment read as the default account. */
    private static QueueRef inAccount(QueueRef q, CallContext caller) {
        if (caller != null && q.accountId().equals(ELASTICMQ_SEGMENT)) {
            return new QueueRef(caller.defaultAccountId(), q.name());
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
    static Optional<QueueRef> parsePath(String path) {
        if (path == null) {
            return Optional.empty();
        }
        int q = path.indexOf('?');
        if (q >= 0) {
            path = path.substring(0, q);
        }
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        int last = path.lastIndexOf('/');
        if (last <= 0) {
            return Optional.empty();
        }
        String name = path.substring(last + 1);
        int prev = path.lastIndexOf('/', last - 1);
        String account = path.substring(prev + 1, last);
        if (name.isEmpty() || account.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new QueueRef(account, name));
    }

    /** {@code {baseUrl}/{account}/{name}}: the URL we hand out for a queue. */
    static String url(String baseUrl, QueueRef queue) {
        return baseUrl + "/" + queue.accountId() + "/" + queue.name();
    }

    /** {@code arn:aws:sqs:{region}:{account}:{name}}, or empty when not an SQS queue ARN. */
    static Optional<QueueRef> parseArn(String arn) {
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
