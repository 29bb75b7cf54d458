package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The port probe before the start finds a taken port and never lets a client in. */
class ListenAddressTest {

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void aClientKnockingWhileThePortIsProbedIsNeverAccepted() throws Exception {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), freePort());
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger accepted = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        Thread knocker = new Thread(() -> {
            while (!stop.get()) {
                try (Socket client = new Socket()) {
                    client.connect(address, 1_000);
                    accepted.incrementAndGet();
                } catch (IOException expected) {
                    refused.incrementAndGet();
                }
            }
        }, "knocker");
        knocker.start();
        try {
            // A listening probe lets a few of these in (and resets them); a bound-only probe none.
            // At least 2,000 probes and 200 knocks, whatever else the machine is doing (at most 30 s).
            long deadline = System.nanoTime() + 30_000_000_000L;
            for (int i = 0; (i < 2_000 || refused.get() < 200) && System.nanoTime() < deadline; i++) {
                ListenAddress.checkFree("127.0.0.1", address);
            }
        } finally {
            stop.set(true);
            knocker.join(10_000);
        }
        assertThat(refused.get()).as("knocks while probing").isGreaterThanOrEqualTo(200);
        assertThat(accepted.get()).as("connections the probe accepted").isZero();
    }

    @Test
    void aPortAnotherSocketListensOnIsNamedAsTaken() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.setReuseAddress(true);
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), taken.getLocalPort());
            assertThatThrownBy(() -> ListenAddress.checkFree("127.0.0.1", address))
                    .hasMessageStartingWith("cannot listen on 127.0.0.1:" + taken.getLocalPort() + ": ");
        }
    }
}
