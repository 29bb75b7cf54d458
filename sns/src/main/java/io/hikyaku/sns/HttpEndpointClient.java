package io.hikyaku.sns;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * One HTTP/1.1 POST to a subscriber, to the address the allow-list checked (so a DNS answer that changes between
 * check and connect is never followed), with bounded connect and read times. HTTPS verifies the certificate and
 * the host name with the JVM's trust store (plus {@code --outbound-ca}'s certificates, {@link OutboundTrust}). Redirects are never followed: a 3xx is just the status. Only the
 * status line is read (at most 8 KiB of response), then the connection is closed.
 */
final class HttpEndpointClient {

    /** What a POST does: the status, or an I/O failure thrown. */
    interface Poster {
        int post(URI endpoint, Map<String, String> headers, byte[] body) throws IOException;
    }

    static final int CONNECT_TIMEOUT_MILLIS = 5_000;
    static final int READ_TIMEOUT_MILLIS = 15_000; // SNS's HTTP timeout
    private static final int MAX_STATUS_LINE = 8_192;

    private final OutboundAllowList allow;
    private final SSLSocketFactory tlsSockets;

    /** @param tls the TLS sockets of HTTPS deliveries ({@link OutboundTrust}) */
    HttpEndpointClient(OutboundAllowList allow, SSLSocketFactory tls) {
        this.allow = allow;
        this.tlsSockets = tls;
    }

    Poster poster() {
        return this::post;
    }

    int post(URI endpoint, Map<String, String> headers, byte[] body) throws IOException {
        InetAddress address = allow.resolve(endpoint);
        boolean tls = "https".equalsIgnoreCase(endpoint.getScheme());
        int port = endpoint.getPort() > 0 ? endpoint.getPort() : tls ? 443 : 80;
        Socket plain = new Socket();
        try (Socket closing = plain) {
            plain.connect(new InetSocketAddress(address, port), CONNECT_TIMEOUT_MILLIS);
            plain.setSoTimeout(READ_TIMEOUT_MILLIS);
            Socket socket = plain;
            if (tls) {
                SSLSocket ssl = (SSLSocket) tlsSockets.createSocket(plain, endpoint.getHost(), port, true);
                SSLParameters params = ssl.getSSLParameters();
                params.setEndpointIdentificationAlgorithm("HTTPS");
                if (!OutboundAllowList.Cidr.looksLikeAddress(endpoint.getHost())) {
                    params.setServerNames(List.of(new SNIHostName(endpoint.getHost())));
                }
                ssl.setSSLParameters(params);
                ssl.startHandshake();
                socket = ssl;
            }
            String path = endpoint.getRawPath() == null || endpoint.getRawPath().isEmpty() ? "/" : endpoint.getRawPath();
            if (endpoint.getRawQuery() != null) {
                path += "?" + endpoint.getRawQuery();
            }
            StringBuilder head = new StringBuilder("POST ").append(path).append(" HTTP/1.1\r\n")
                    .append("Host: ").append(endpoint.getRawAuthority().substring(endpoint.getRawAuthority().indexOf('@') + 1)).append("\r\n")
                    .append("Content-Length: ").append(body.length).append("\r\n")
                    .append("Connection: close\r\n");
            for (Map.Entry<String, String> h : headers.entrySet()) {
                head.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
            }
            if (endpoint.getRawUserInfo() != null) {
                head.append("Authorization: Basic ").append(java.util.Base64.getEncoder().encodeToString(
                        java.net.URLDecoder.decode(endpoint.getRawUserInfo(), StandardCharsets.UTF_8)
                                .getBytes(StandardCharsets.UTF_8))).append("\r\n");
            }
            head.append("\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.UTF_8));
            out.write(body);
            out.flush();
            return status(socket.getInputStream());
        }
    }

    private static int status(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0 || line.size() > MAX_STATUS_LINE) {
                throw new IOException("the endpoint closed the connection or sent no status line");
            }
            line.write(b);
        }
        String[] parts = line.toString(StandardCharsets.ISO_8859_1).trim().split(" ");
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
            throw new IOException("the endpoint did not answer HTTP/1.x");
        }
        try {
            return Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            throw new IOException("the endpoint sent a malformed status line");
        }
    }
}
