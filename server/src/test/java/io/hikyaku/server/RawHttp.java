package io.hikyaku.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** A minimal HTTP/1.1 client over a raw socket, so tests control every byte and see the connection. */
final class RawHttp implements AutoCloseable {

    record Response(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawHttp(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(5_000);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    void send(String text) throws IOException {
        send(text.getBytes(StandardCharsets.UTF_8));
    }

    void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** A POST of a JSON call with X-Amz-Target and the given extra header lines. */
    static String jsonCall(String action, String body, String... extraHeaders) {
        StringBuilder sb = new StringBuilder("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                .append("X-Amz-Target: AmazonSQS.").append(action).append("\r\n")
                .append("Content-Type: application/x-amz-json-1.0\r\n");
        for (String h : extraHeaders) {
            sb.append(h).append("\r\n");
        }
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        return sb.append("Content-Length: ").append(b.length).append("\r\n\r\n").append(body).toString();
    }

    Response read() throws IOException {
        return read(true);
    }

    /** Status and headers only (the answer to a HEAD request has no body whatever its Content-Length). */
    Response readHead() throws IOException {
        return read(false);
    }

    private Response read(boolean withBody) throws IOException {
        String statusLine = line();
        if (statusLine == null) {
            throw new IOException("connection closed before a response");
        }
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        Map<String, String> headers = new HashMap<>();
        for (String h = line(); h != null && !h.isEmpty(); h = line()) {
            int colon = h.indexOf(':');
            headers.put(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
        }
        int length = !withBody ? 0 : headers.containsKey("content-length") ? Integer.parseInt(headers.get("content-length")) : 0;
        byte[] body = in.readNBytes(length);
        return new Response(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    /** True when the server closed the connection (EOF or reset) within the socket timeout. */
    boolean closedByServer() throws IOException {
        try {
            return in.read() == -1;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    /** True when nothing arrives within {@code millis} (and the connection is still open). */
    boolean silentFor(int millis) throws IOException {
        int old = socket.getSoTimeout();
        socket.setSoTimeout(millis);
        try {
            int b = in.read();
            if (b == -1) {
                return false;
            }
            throw new IOException("unexpected byte " + b);
        } catch (SocketTimeoutException e) {
            return true;
        } finally {
            socket.setSoTimeout(old);
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1) {
            if (b == '\n') {
                String s = buf.toString(StandardCharsets.ISO_8859_1);
                return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
            }
            buf.write(b);
        }
        return buf.size() == 0 ? null : buf.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
