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
    /** For signed requests: the line after Content-Length's, up to the per-request date and signature. */
    private final byte[] targetLine;
    private final String hostHeader;
    private final String target;

    RequestHead(String hostHeader, String action) {
        this.hostHeader = hostHeader;
        this.target = "AmazonSQS." + action;
        targetLine = ascii("\r\nX-Amz-Target: " + target + "\r\n");
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

    /**
     * The whole request signed by signer (SigV4 with the current time), or unsigned with the fixed
     * fake Authorization when signer is null.
     */
    ByteBuf request(ByteBufAllocator alloc, byte[] body, SigV4Signer signer) {
        if (signer == null) {
            return request(alloc, body);
        }
        SigV4Signer.Signature sig = signer.sign(hostHeader, target, CONTENT_TYPE, body);
        String length = Integer.toString(body.length);
        String rest = "X-Amz-Date: " + sig.amzDate() + "\r\nauthorization: " + sig.authorization() + "\r\n\r\n";
        ByteBuf buf = alloc.buffer(beforeLength.length + length.length() + targetLine.length + rest.length() + body.length);
        buf.writeBytes(beforeLength);
        buf.writeCharSequence(length, StandardCharsets.US_ASCII);
        buf.writeBytes(targetLine);
        buf.writeCharSequence(rest, StandardCharsets.US_ASCII);
        buf.writeBytes(body);
        return buf;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
