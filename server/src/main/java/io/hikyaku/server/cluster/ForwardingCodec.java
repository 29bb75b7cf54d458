package io.hikyaku.server.cluster;

import io.hikyaku.protocol.HttpRequestData;
import io.hikyaku.protocol.HttpResponseData;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bytes a follower sends its leader for a request it forwards, and the bytes of the answer: the
 * whole request as it arrived (method, raw path and query, every header line in order, so that
 * SigV4 verifies on the leader with the Host the client signed; the body; the client's address and
 * whether it came over TLS) and the follower's request id, so both nodes log the same one. A
 * version byte leads each message; decoding checks every length against what is there.
 */
public final class ForwardingCodec {

    /** What a forwarded request carries. */
    public record Forwarded(String requestId, HttpRequestData request) {}

    private static final byte REQUEST_V1 = 1;
    private static final byte RESPONSE_V1 = 2;
    /** Header lines at most in one forwarded message (Netty's header size limit keeps real ones far below). */
    static final int MAX_HEADER_LINES = 1_000;

    private ForwardingCodec() {}

    public static byte[] encodeRequest(String requestId, HttpRequestData r) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(r.body().length + 512);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(REQUEST_V1);
            text(out, requestId);
            text(out, r.method());
            text(out, r.path());
            text(out, r.rawPath());
            text(out, r.rawQuery());
            out.writeInt(r.headerLines().size());
            for (Map.Entry<String, String> line : r.headerLines()) {
                text(out, line.getKey());
                text(out, line.getValue());
            }
            text(out, r.sourceIp());
            out.writeBoolean(r.secure());
            out.writeInt(r.body().length);
            out.write(r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in memory: never
        }
        return bytes.toByteArray();
    }

    /** @throws IllegalArgumentException for bytes that are not a forwarded request of this version */
    public static Forwarded decodeRequest(byte[] message) {
        ByteBuffer in = ByteBuffer.wrap(message);
        try {
            expect(in, REQUEST_V1, "request");
            String requestId = required(text(in), "request id");
            String method = required(text(in), "method");
            String path = required(text(in), "path");
            String rawPath = required(text(in), "raw path");
            String rawQuery = required(text(in), "query");
            int count = count(in, MAX_HEADER_LINES, "header lines");
            List<Map.Entry<String, String>> lines = new ArrayList<>(count);
            Map<String, String> headers = new HashMap<>();
            for (int i = 0; i < count; i++) {
                String name = required(text(in), "header name");
                String value = required(text(in), "header value");
                lines.add(Map.entry(name, value));
                headers.put(name, value); // as the server's own conversion: the last value wins
            }
            String sourceIp = text(in);
            boolean secure = in.get() != 0;
            byte[] body = bytes(in);
            done(in);
            return new Forwarded(requestId, new HttpRequestData(method, path, rawQuery, headers, body, rawPath, lines,
                    sourceIp, secure));
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("a forwarded request cut short or malformed", e);
        }
    }

    public static byte[] encodeResponse(HttpResponseData r) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(r.body().length + 256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(RESPONSE_V1);
            out.writeInt(r.status());
            out.writeInt(r.headers().size());
            for (Map.Entry<String, String> h : r.headers().entrySet()) {
                text(out, h.getKey());
                text(out, h.getValue());
            }
            out.writeInt(r.body().length);
            out.write(r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** @throws IllegalArgumentException for bytes that are not a forwarded response of this version */
    public static HttpResponseData decodeResponse(byte[] message) {
        ByteBuffer in = ByteBuffer.wrap(message);
        try {
            expect(in, RESPONSE_V1, "response");
            int status = in.getInt();
            if (status < 100 || status > 599) {
                throw new IllegalArgumentException("a forwarded response with status " + status);
            }
            int count = count(in, MAX_HEADER_LINES, "headers");
            Map<String, String> headers = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                headers.put(required(text(in), "header name"), required(text(in), "header value"));
            }
            byte[] body = bytes(in);
            done(in);
            return new HttpResponseData(status, headers, body);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("a forwarded response cut short or malformed", e);
        }
    }

    /** Null is length -1. */
    private static void text(DataOutputStream out, String s) throws IOException {
        if (s == null) {
            out.writeInt(-1);
            return;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String text(ByteBuffer in) {
        int n = in.getInt();
        if (n == -1) {
            return null;
        }
        return new String(take(in, n), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(ByteBuffer in) {
        return take(in, in.getInt());
    }

    private static byte[] take(ByteBuffer in, int n) {
        if (n < 0 || n > in.remaining()) {
            throw new IllegalArgumentException("a forwarded message announces " + n + " bytes, " + in.remaining() + " remain");
        }
        byte[] b = new byte[n];
        in.get(b);
        return b;
    }

    private static String required(String value, String what) {
        if (value == null) {
            throw new IllegalArgumentException("a forwarded message without its " + what);
        }
        return value;
    }

    private static int count(ByteBuffer in, int max, String what) {
        int n = in.getInt();
        if (n < 0 || n > max) {
            throw new IllegalArgumentException("a forwarded message with " + n + " " + what + " (at most " + max + ")");
        }
        return n;
    }

    private static void expect(ByteBuffer in, byte version, String what) {
        byte got = in.get();
        if (got != version) {
            throw new IllegalArgumentException("not a forwarded " + what + " this node understands (version byte " + got + ")");
        }
    }

    private static void done(ByteBuffer in) {
        if (in.hasRemaining()) {
            throw new IllegalArgumentException("a forwarded message with " + in.remaining() + " bytes after its end");
        }
    }
}
