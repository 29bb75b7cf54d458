package io.hikyaku.metrics;

/** A queue as metrics label it: its account and name (CloudWatch's QueueName dimension, per account). */
public record QueueKey(String accountId, String name) {

    /**
     * The queue a request addresses: its {@code QueueUrl} ({@code scheme://host/account/name}), or,
     * for a Query request sent to a queue URL, the request path. Null when it names none.
     */
    static QueueKey fromUrlOrPath(String queueUrl, String path) {
        QueueKey fromUrl = queueUrl == null ? null : fromPath(queueUrl, pathStart(queueUrl));
        return fromUrl != null ? fromUrl : path == null ? null : fromPath(path, 0);
    }

    /** Where the path of {@code url} starts (read in place: this runs for every request). */
    private static int pathStart(String url) {
        int scheme = url.indexOf("://");
        if (scheme < 0) {
            return 0;
        }
        int slash = url.indexOf('/', scheme + 3);
        return slash < 0 ? url.length() : slash;
    }

    /** {@code /account/name} (a trailing slash allowed) from {@code from} on; anything else is null. */
    private static QueueKey fromPath(String s, int from) {
        if (s.length() - from < 4 || s.charAt(from) != '/') {
            return null;
        }
        int end = s.endsWith("/") ? s.length() - 1 : s.length();
        int mid = s.indexOf('/', from + 1);
        if (mid <= from + 1 || mid >= end - 1) {
            return null;
        }
        int third = s.indexOf('/', mid + 1);
        if (third >= 0 && third < end) {
            return null;
        }
        return new QueueKey(s.substring(from + 1, mid), s.substring(mid + 1, end));
    }
}
