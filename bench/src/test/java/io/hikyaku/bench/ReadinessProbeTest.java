package io.hikyaku.bench;

import io.hikyaku.bench.client.ReadinessProbe;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ReadinessProbeTest {

    @Test
    void readyOnceTheServerAnswersListQueues() throws Exception {
        try (FakeSqsServer server = new FakeSqsServer(0)) {
            assertThat(new ReadinessProbe(URI.create("http://127.0.0.1:" + server.port())).ready(2_000)).isTrue();
        }
    }

    @Test
    void notReadyWhileNothingListens() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        assertThat(new ReadinessProbe(URI.create("http://127.0.0.1:" + port)).ready(500)).isFalse();
    }

    @Test
    void notReadyWhenTheListenerNeverAnswers() throws Exception {
        try (ServerSocket silent = new ServerSocket(0)) {
            assertThat(new ReadinessProbe(URI.create("http://127.0.0.1:" + silent.getLocalPort())).ready(300)).isFalse();
        }
    }

    @Test
    void readsTheStatusLine() throws Exception {
        assertThat(status("HTTP/1.1 200 OK\r\n")).isEqualTo(200);
        assertThat(status("HTTP/1.1 503 Service Unavailable\r\n")).isEqualTo(503);
        assertThat(status("garbage")).isEqualTo(-1);
        assertThat(status("")).isEqualTo(-1);
    }

    private static int status(String head) throws Exception {
        var m = ReadinessProbe.class.getDeclaredMethod("statusOf", java.io.InputStream.class);
        m.setAccessible(true);
        return (int) m.invoke(null, new ByteArrayInputStream(head.getBytes(StandardCharsets.US_ASCII)));
    }
}
