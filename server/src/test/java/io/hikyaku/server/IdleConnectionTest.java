package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.server.http.IdleConnections;
import io.hikyaku.testsupport.MutableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Keep-alive connections idle for five minutes are closed; a parked request or a slow upload is not idle. */
class IdleConnectionTest {

    final MutableClock clock = new MutableClock(Instant.parse("2026-01-02T03:04:05Z"));
    FakeService service;
    HikyakuServer server;

    @BeforeEach
    void start() {
        service = new FakeService();
        server = HikyakuServer.start(ServerConfig.defaults().withPort(0).withStorage(StorageMode.MEMORY).withClock(clock),
                new FakeCodec(), service);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aConnectionIdleForFiveMinutesIsClosedAndOneJustUnderIsNot() throws Exception {
        try (RawHttp http = new RawHttp(server.port())) {
            http.send(RawHttp.jsonCall("Echo", "{}"));
            assertThat(http.read().status()).isEqualTo(200);

            clock.advance(Duration.ofMillis(IdleConnections.IDLE_MILLIS - 1));
            server.sweepIdleConnections();
            assertThat(http.silentFor(300)).as("still open just under the limit").isTrue();

            http.send(RawHttp.jsonCall("Echo", "{}")); // activity restarts the idle time
            assertThat(http.read().status()).isEqualTo(200);
            clock.advance(Duration.ofMillis(IdleConnections.IDLE_MILLIS - 1));
            server.sweepIdleConnections();
            assertThat(http.silentFor(300)).isTrue();

            clock.advance(Duration.ofMillis(1));
            server.sweepIdleConnections();
            assertThat(http.closedByServer()).isTrue();
        }
    }

    @Test
    void aConnectionThatNeverSentARequestIsClosedToo() throws Exception {
        try (RawHttp http = new RawHttp(server.port())) {
            assertThat(http.silentFor(200)).isTrue(); // connected and registered
            clock.advance(Duration.ofMillis(IdleConnections.IDLE_MILLIS));
            server.sweepIdleConnections();
            assertThat(http.closedByServer()).isTrue();
        }
    }

    @Test
    void aParkedRequestKeepsItsConnectionOpenAndIsStillAnswered() throws Exception {
        var parked = service.park("Wait");
        try (RawHttp http = new RawHttp(server.port())) {
            http.send(RawHttp.jsonCall("Wait", "{}"));
            assertThat(http.silentFor(200)).isTrue();

            clock.advance(Duration.ofMillis(IdleConnections.IDLE_MILLIS * 2));
            server.sweepIdleConnections();
            assertThat(http.silentFor(300)).as("a request in flight is not idle").isTrue();

            parked.complete(FakeCodec.JSON.createObjectNode().put("done", true));
            assertThat(http.read().status()).isEqualTo(200);
        }
    }

    @Test
    void aSlowUploadIsNotIdleButIsClosedOnceItTakesLongerThanTheBodyTimeout() throws Exception {
        long bodyTimeout = io.hikyaku.server.http.ConnectionLimits.DEFAULTS.bodyTimeoutMillis();
        try (RawHttp http = new RawHttp(server.port())) {
            String body = "{\"n\":7}";
            http.send("POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: AmazonSQS.Echo\r\nContent-Length: " + body.length()
                    + "\r\n\r\n" + body.substring(0, 3));
            assertThat(http.silentFor(200)).isTrue();

            clock.advance(Duration.ofMillis(bodyTimeout - 1));
            server.sweepIdleConnections();
            http.send(body.substring(3));
            assertThat(http.read().status()).isEqualTo(200);
        }
        try (RawHttp http = new RawHttp(server.port())) {
            http.send("POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: AmazonSQS.Echo\r\nContent-Length: 7\r\n\r\n{\"n");
            assertThat(http.silentFor(200)).isTrue();
            clock.advance(Duration.ofMillis(bodyTimeout));
            server.sweepIdleConnections();
            assertThat(http.closedByServer()).as("slowloris on the body").isTrue();
        }
    }
}
