package io.hikyaku.engine;

/** What callers need to know about an existing queue (the api builds the URL from account and name). */
public record QueueInfo(String accountId, String name, String region, String arn, boolean fifo) {
    public QueueRef ref() {
        return new QueueRef(accountId, name);
    }
}
