package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.epoll.Epoll;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The server runs on native epoll where it loads, and on NIO when told to; both serve. */
class TransportTest {

    @AfterEach
    void clearProperty() {
        System.clearProperty(NettyTransport.PROPERTY);
    }

    @Test
    void epollWhereAvailable() throws Exception {
        boolean shipped = System.getProperty("os.name").toLowerCase().contains("linux")
                && System.getProperty("os.arch").matches("amd64|x86_64|aarch64");
        if (shipped) { // the two native jars the server ships
            assertThat(Epoll.isAvailable()).as("the shipped native library loads: %s", Epoll.unavailabilityCause()).isTrue();
        }
        assertServes(Epoll.isAvailable() ? "epoll" : "nio");
    }

    @Test
    void nioWhenAsked() throws Exception {
        System.setProperty(NettyTransport.PROPERTY, "nio");
        assertServes("nio");
    }

    @Test
    void epollWhenAskedAndAvailable() throws Exception {
        assumeTrue(Epoll.isAvailable());
        System.setProperty(NettyTransport.PROPERTY, "EPOLL");
        assertServes("epoll");
    }

    @Test
    void anUnknownTransportIsRefused() {
        System.setProperty(NettyTransport.PROPERTY, "io_uring");
        assertThatThrownBy(NettyTransport::chosen).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("must be auto, epoll or nio");
    }

    private static void assertServes(String transport) throws Exception {
        try (HikyakuServer server = HikyakuServer.start(ServerConfig.defaults().withPort(0)
                .withStorage(StorageMode.MEMORY), new FakeCodec(), new FakeService())) {
            assertThat(server.transportName()).isEqualTo(transport);
            HttpResponse<String> r = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(server.endpoint() + "/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
        }
    }
}
