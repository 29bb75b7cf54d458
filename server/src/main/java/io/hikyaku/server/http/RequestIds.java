package io.hikyaku.server.http;

import java.util.UUID;

/** Request ids in the form SQS uses (a random UUID), one per HTTP response. */
public final class RequestIds {

    /** The response header that carries the id. */
    public static final String HEADER = "x-amzn-RequestId";

    private RequestIds() {}

    public static String next() {
        return UUID.randomUUID().toString();
    }
}
