package io.hikyaku.metrics;

/** A queue as metrics label it: its account and name (CloudWatch's QueueName dimension, per account). */
public record QueueKey(String accountId, String name) {

    /**
     * The queue a request addresses: its {@code QueueUrl} ({@code scheme://host/account/name}), or,
     * for a Query request sent to a queue URL, the request path. Null when it names none.
     */
    static QueueKey fromUrlOrPath(String queueUrl, String path) {
        QueueKey fromUrl = queueUrl == null ? null : fromPath(pathOf(queueUrl));
        return fromUrl != null ? fromUrl : fromPath(path);
    }

    private static String pathOf(String url) {
        int scheme = url.indexOf("://");
        if (scheme < 0) {
            return url;
        }
        int slash = url.indexOf('/', scheme + 3);
        return slash < 0 ? "" : url.substring(slash);
    }

    /** {@code /account/name} (a trailing slash allowed); anything else is null. */
    private static QueueKey fromPath(String path) {
        if (path == null || path.length() < 4 || path.charAt(0) != '/') {
            return null;
        }
        int end = path.endsWith("/") ? path.length() - 1 : path.length();
        int mid = path.indexOf('/', 1);
        if (mid <= 1 || mid >= end - 1 || path.indexOf('/', mid + 1) >= 0 && path.indexOf('/', mid + 1) < end) {
            return null;
        }
        return new QueueKey(path.substring(1, mid), path.substring(mid + 1, end));
    }
}
