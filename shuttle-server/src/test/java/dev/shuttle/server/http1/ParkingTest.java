package dev.shuttle.server.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.ConnectionListener;
import dev.shuttle.server.ConnectionState;
import dev.shuttle.server.ServerLimits;
import dev.shuttle.server.ServerTimeouts;
import dev.shuttle.server.core.KeepAliveTurn;
import dev.shuttle.server.core.KeepAliveTurns;
import dev.shuttle.server.core.ServerConnection;
import dev.shuttle.server.core.ServerEngine;
import dev.shuttle.transport.ReadinessWatcher;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** White-box check of what an idle connection holds: parked ones give their buffers back, unparked ones keep them. */
class ParkingTest {
    private static final int CONNECTIONS = 50;

    @ParameterizedTest(name = "parking={0}")
    @ValueSource(booleans = {true, false})
    void idleConnectionsHoldBuffersOnlyWithoutParking(boolean parking) throws Exception {
        ConnectionState idleState = parking ? ConnectionState.PARKED : ConnectionState.IDLE;
        CountDownLatch allIdle = new CountDownLatch(CONNECTIONS);
        ConnectionListener listener = (connection, from, to) -> {
            if (to == idleState) {
                allIdle.countDown();
            }
        };
        ServerEngine server = new ServerEngine(new ServerEngine.Config(
                (request, response) -> response.send("ok"), ServerLimits.defaults(), ServerTimeouts.defaults(),
                listener, parking, null), new Http1Only(KeepAliveTurn.YIELD));
        server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 128);
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < CONNECTIONS; i++) {
                Socket socket = new Socket();
                sockets.add(socket);
                socket.connect(server.localAddress());
                socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                readResponse(socket.getInputStream());
            }
            assertThat(allIdle.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(server.connections()).hasSize(CONNECTIONS).allSatisfy(connection -> {
                assertThat(connection.state()).isEqualTo(idleState);
                assertThat(connection.holdsBuffers()).isEqualTo(!parking);
            });
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
            server.shutdown(Duration.ofSeconds(2));
        }
    }

    @org.junit.jupiter.api.Test
    void aParkedTlsConnectionHoldsNoBufferEitherAndWakesForItsNextRequest() throws Exception {
        var certificate = dev.shuttle.transport.tls.SelfSignedCertificate.generate();
        CountDownLatch parked = new CountDownLatch(1);
        ServerEngine server = startParking(certificate.serverContext(), parked);
        try (Socket socket = certificate.clientContext().getSocketFactory()
                .createSocket("localhost", server.localAddress().getPort())) {
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            readResponse(socket.getInputStream());
            assertThat(parked.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(server.connections()).singleElement().satisfies(connection -> {
                assertThat(connection.tls()).isNotNull();
                assertThat(connection.holdsBuffers()).isFalse();
            });
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            readResponse(socket.getInputStream());
        } finally {
            server.shutdown(Duration.ofSeconds(2));
        }
        assertThat(server.buffers().allocations()).as("buffers were recycled").isLessThan(10);
    }

    @org.junit.jupiter.api.Test
    void aParkedConnectionClosedFromAnotherThreadLeavesTheWatcherAtOnce() throws Exception {
        CountDownLatch parked = new CountDownLatch(1);
        ServerEngine server = startParking(null, parked);
        try (Socket socket = new Socket()) {
            socket.connect(server.localAddress());
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            readResponse(socket.getInputStream());
            assertThat(parked.await(10, TimeUnit.SECONDS)).isTrue();
            ServerConnection connection = server.connections().iterator().next();
            ReadinessWatcher.Ticket ticket = connection.parkTicket();
            assertThat(ticket).isNotNull();

            connection.closeNow(); // from this thread, as a failing HTTP/2 handler or shutdown's cut-off would
            assertThat(ticket.isDone()).as("the park ended with the connection, not at its deadline").isTrue();
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
        } finally {
            server.shutdown(Duration.ofSeconds(2));
        }
    }

    /** A server answering "ok", with parking on; {@code parked} counts down at the first PARKED. */
    private static ServerEngine startParking(SSLContext tls, CountDownLatch parked) throws IOException {
        ConnectionListener listener = (connection, from, to) -> {
            if (to == ConnectionState.PARKED) {
                parked.countDown();
            }
        };
        ServerEngine server = new ServerEngine(new ServerEngine.Config(
                (request, response) -> response.send("ok"), ServerLimits.defaults(), ServerTimeouts.defaults(),
                listener, true, tls), new Http1Only(KeepAliveTurn.YIELD));
        server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        return server;
    }

    /** Reads one "ok" response with a Content-Length of 2: the head, then two bytes. */
    private static void readResponse(InputStream in) throws IOException {
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < end.length) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed");
            }
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        assertThat(new String(in.readNBytes(2), StandardCharsets.US_ASCII)).isEqualTo("ok");
    }
}
