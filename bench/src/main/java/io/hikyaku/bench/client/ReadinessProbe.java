package io.hikyaku.bench.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * One ListQueues over a plain blocking socket, for timing a server's start-up. The Netty client's
 * first request in a fresh JVM costs tens of milliseconds of its own class loading and JIT, on
 * the same 2 cores the starting server needs; this probe's path is a few JDK classes, so the
 * time measured is the server's, not the tool's.
 */
public final class ReadinessProbe {
    private static final byte[] BODY = "{}".getBytes(StandardCharsets.US_ASCII);

    private final String host;
    private final int port;
    private final byte[] request;

    public ReadinessProbe(URI endpoint) {
        this.host = endpoint.getHost();
        this.port = endpoint.getPort() > 0 ? endpoint.getPort() : 80;
        String head = "POST / HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n"
                + "Content-Type: " + RequestHead.CONTENT_TYPE + "\r\n"
                + "X-Amz-Target: AmazonSQS.ListQueues\r\n"
                + "X-Amz-Date: " + RequestHead.DATE + "\r\n"
                + "Authorization: " + RequestHead.FAKE_AUTHORIZATION + "\r\n"
                + "Content-Length: " + BODY.length + "\r\nConnection: close\r\n\r\n";
        byte[] h = head.getBytes(StandardCharsets.US_ASCII);
        this.request = new byte[h.length + BODY.length];
        System.arraycopy(h, 0, request, 0, h.length);
        System.arraycopy(BODY, 0, request, h.length, BODY.length);
    }

    /** True when the server answered this ListQueues with 200; false when it is not there yet or not OK. */
    public boolean ready(int timeoutMillis) {
        try (Socket s = new Socket()) {
            s.setTcpNoDelay(true);
            s.setSoTimeout(timeoutMillis);
            s.connect(new InetSocketAddress(host, port), timeoutMillis);
            OutputStream out = s.getOutputStream();
            out.write(request);
            out.flush();
            return statusOf(s.getInputStream()) == 200;
        } catch (IOException notYet) {
            return false;
        }
    }

    /** The status code of "HTTP/1.1 200 OK", read up to the end of the status line; -1 if malformed. */
    static int statusOf(InputStream in) throws IOException {
        byte[] line = new byte[64];
        int n = 0;
        for (int b; n < line.length && (b = in.read()) >= 0 && b != '\n'; ) {
            line[n++] = (byte) b;
        }
        String status = new String(line, 0, n, StandardCharsets.US_ASCII);
        int sp = status.indexOf(' ');
        if (!status.startsWith("HTTP/1.") || sp < 0 || status.length() < sp + 4) {
            return -1;
        }
        try {
            return Integer.parseInt(status.substring(sp + 1, sp + 4));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
