package dev.shuttle.server.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.ConnectionListener;
import dev.shuttle.server.ConnectionState;
import dev.shuttle.server.ServerLimits;
import dev.shuttle.server.ServerTimeouts;
import dev.shuttle.server.core.ServerConnection;
import dev.shuttle.server.core.KeepAliveTurn;
import dev.shuttle.server.core.KeepAliveTurns;
import dev.shuttle.server.core.ServerEngine;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Between a response and parking, a connection takes {@link KeepAliveTurns#TURNS} turns looking for its
 * next request. The turn is replaced by a test hook, so arrivals are staged instead of left to scheduling.
 */
class KeepAliveTurnsTest {
    private static final byte[] REQUEST = "GET / HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final List<ConnectionState> states = new CopyOnWriteArrayList<>();
    /** One permit per PARKED transition. */
    private final Semaphore parks = new Semaphore(0);
    private ServerEngine server;

    private void start(boolean parking, KeepAliveTurn turn) throws IOException {
        ConnectionListener listener = (connection, from, to) -> {
            states.add(to);
            if (to == ConnectionState.PARKED) {
                parks.release();
            }
        };
        server = new ServerEngine(new ServerEngine.Config((request, response) -> response.send("ok"),
                ServerLimits.defaults(), ServerTimeouts.defaults(), listener, parking, null),
                new Http1Only(turn));
        server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (server != null) {
            server.shutdown(Duration.ofSeconds(2));
        }
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.connect(server.localAddress(), 5000);
        socket.setSoTimeout(10_000);
        return socket;
    }

    @Test
    void requestArrivingDuringATurnIsServedWithoutParking() throws Exception {
        AtomicReference<Socket> client = new AtomicReference<>();
        AtomicInteger turns = new AtomicInteger();
        start(true, connection -> {
            if (turns.incrementAndGet() == 1) {
                // The client's next request arrives while the connection is between two looks.
                client.get().getOutputStream().write(REQUEST);
                awaitBytes(connection);
            }
        });
        try (Socket socket = connect()) {
            client.set(socket);
            socket.getOutputStream().write(REQUEST);
            readOk(socket.getInputStream());
            readOk(socket.getInputStream()); // the second request went out from the hook
            assertThat(parks.tryAcquire(10, TimeUnit.SECONDS)).isTrue();
        }
        // One turn found the second request; after it nothing came, so all turns were taken before parking.
        assertThat(turns.get()).isEqualTo(1 + KeepAliveTurns.TURNS);
        assertThat(states).startsWith(ConnectionState.NEW, ConnectionState.ACTIVE, ConnectionState.IDLE,
                ConnectionState.ACTIVE, ConnectionState.IDLE, ConnectionState.PARKED);
        assertThat(server.stats().requests()).isEqualTo(2);
    }

    @Test
    void silentClientParksAfterTheTurnsWithoutBuffers() throws Exception {
        AtomicInteger turns = new AtomicInteger();
        start(true, connection -> turns.incrementAndGet());
        try (Socket socket = connect()) {
            socket.getOutputStream().write(REQUEST);
            readOk(socket.getInputStream());
            assertThat(parks.tryAcquire(10, TimeUnit.SECONDS)).isTrue();
            assertThat(turns.get()).isEqualTo(KeepAliveTurns.TURNS);
            assertThat(server.connections()).singleElement().satisfies(connection -> {
                assertThat(connection.state()).isEqualTo(ConnectionState.PARKED);
                assertThat(connection.holdsBuffers()).isFalse();
            });
            // Parked, it still wakes for the next request.
            socket.getOutputStream().write(REQUEST);
            readOk(socket.getInputStream());
        }
    }

    @Test
    void connectionWhoseTurnsFindNothingStopsTakingThemAndRetriesNowAndThen() throws Exception {
        AtomicInteger turns = new AtomicInteger();
        start(true, connection -> turns.incrementAndGet());
        try (Socket socket = connect()) {
            for (int i = 1; i <= KeepAliveTurns.PROBE_EVERY; i++) {
                socket.getOutputStream().write(REQUEST);
                readOk(socket.getInputStream());
                // Parked before the next request leaves, so no turn can find it.
                assertThat(parks.tryAcquire(10, TimeUnit.SECONDS)).isTrue();
            }
        }
        // The first request's turns found nothing; the next ones parked at once; the 16th tried the turns again.
        assertThat(turns.get()).isEqualTo(2 * KeepAliveTurns.TURNS);
        assertThat(server.stats().requests()).isEqualTo(KeepAliveTurns.PROBE_EVERY);
    }

    @Test
    void withoutParkingNoTurnIsTaken() throws Exception {
        AtomicInteger turns = new AtomicInteger();
        start(false, connection -> turns.incrementAndGet());
        try (Socket socket = connect()) {
            socket.getOutputStream().write(REQUEST);
            readOk(socket.getInputStream());
            socket.getOutputStream().write(REQUEST);
            readOk(socket.getInputStream());
        }
        assertThat(turns.get()).isZero();
        assertThat(states).doesNotContain(ConnectionState.PARKED);
    }

    /** Spins (it runs on the connection's thread, as a turn does) until the staged bytes reached the server socket. */
    private static void awaitBytes(ServerConnection connection) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (connection.channel().socket().getInputStream().available() == 0) {
            if (System.nanoTime() > deadline) {
                throw new IOException("the staged request never reached the server socket");
            }
            Thread.onSpinWait();
        }
    }

    /** Reads one "ok" response with a Content-Length of 2: the head, then two bytes. */
    private static void readOk(InputStream in) throws IOException {
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
