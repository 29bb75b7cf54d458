package io.hikyaku.bench.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.nio.charset.StandardCharsets;

/**
 * The HTTP head of one action's POST, encoded once: per request only Content-Length changes, so a
 * request is these bytes, the length and the body, written as a single buffer. The header names,
 * their case and order are those Netty's HttpRequestEncoder wrote for the DefaultFullHttpRequest
 * this replaces, so the bytes on the wire are the same.
 */
final class RequestHead {
    static final String CONTENT_TYPE = "application/x-amz-json-1.0";
    /** Looks like SigV4; the servers under test do not verify signatures. */
    static final String FAKE_AUTHORIZATION = "AWS4-HMAC-SHA256 Credential=bench/20260101/us-east-1/sqs/aws4_request, "
            + "SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=" + "0".repeat(64);
    static final String DATE = "20260101T000000Z";

    /** Everything up to the Content-Length value, and everything after it up to the body. */
    private final byte[] beforeLength;
    private final byte[] afterLength;

    RequestHead(String hostHeader, String action) {
        beforeLength = ascii("POST / HTTP/1.1\r\n"
                + "host: " + hostHeader + "\r\n"
                + "content-type: " + CONTENT_TYPE + "\r\n"
                + "content-length: ");
        afterLength = ascii("\r\n"
                + "X-Amz-Target: AmazonSQS." + action + "\r\n"
                + "X-Amz-Date: " + DATE + "\r\n"
                + "authorization: " + FAKE_AUTHORIZATION + "\r\n"
                + "\r\n");
    }

    /** The whole request, head and body, in one buffer from alloc. */
    ByteBuf request(ByteBufAllocator alloc, byte[] body) {
        String length = Integer.toString(body.length);
        ByteBuf buf = alloc.buffer(beforeLength.length + length.length() + afterLength.length + body.length);
        buf.writeBytes(beforeLength);
        buf.writeCharSequence(length, StandardCharsets.US_ASCII);
        buf.writeBytes(afterLength);
        buf.writeBytes(body);
        return buf;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
