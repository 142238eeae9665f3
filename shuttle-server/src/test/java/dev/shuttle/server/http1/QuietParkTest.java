package dev.shuttle.server.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.ConnectionListener;
import dev.shuttle.server.ConnectionState;
import dev.shuttle.server.ServerLimits;
import dev.shuttle.server.ServerTimeouts;
import dev.shuttle.server.core.KeepAliveTurn;
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
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Which parks between requests the server defers: those of a connection whose last park lasted a second or more
 * before its next request, on a fake clock.
 */
class QuietParkTest {
    private final AtomicLong clock = new AtomicLong();
    private final BlockingQueue<ServerConnection> parks = new LinkedBlockingQueue<>();
    private ServerEngine server;

    @BeforeEach
    void start() throws IOException {
        ConnectionListener listener = (connection, from, to) -> {
            if (to == ConnectionState.PARKED) {
                parks.add((ServerConnection) connection);
            }
        };
        server = new ServerEngine(new ServerEngine.Config((request, response) -> response.send("ok"),
                ServerLimits.defaults(), ServerTimeouts.defaults(), listener, true, null),
                new Http1Only(KeepAliveTurn.YIELD), clock::get);
        server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    }

    @AfterEach
    void stop() throws InterruptedException {
        server.shutdown(Duration.ofSeconds(2));
    }

    @Test
    void onlyAConnectionThatWasQuietForASecondDefersItsNextPark() throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(server.localAddress());
            assertThat(exchangeThenPark(socket).isDeferred()).as("after a new connection's first request").isFalse();

            clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(999));
            assertThat(exchangeThenPark(socket).isDeferred()).as("parked for 999 ms before").isFalse();

            clock.addAndGet(TimeUnit.SECONDS.toNanos(1));
            assertThat(exchangeThenPark(socket).isDeferred()).as("parked for 1 s before").isTrue();

            clock.addAndGet(TimeUnit.SECONDS.toNanos(5));
            assertThat(exchangeThenPark(socket).isDeferred()).as("parked for 5 s before").isTrue();

            assertThat(exchangeThenPark(socket).isDeferred()).as("right after a deferred park").isFalse();
        }
    }

    /** One request and its response, then the park that follows it. */
    private ReadinessWatcher.Ticket exchangeThenPark(Socket socket) throws Exception {
        socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        readResponse(socket.getInputStream());
        ServerConnection connection = parks.poll(10, TimeUnit.SECONDS);
        assertThat(connection).as("the connection parked").isNotNull();
        ReadinessWatcher.Ticket ticket = connection.parkTicket();
        assertThat(ticket).isNotNull();
        return ticket;
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
