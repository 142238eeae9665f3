package dev.shuttle.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.RawConnection.RawResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Header-read (slowloris), body-read, idle and write timeouts. Each uses a small timeout; the tests wait for the
 * outcome (a response, an EOF, a listener event), never for a time.
 */
class TimeoutsTest {
    private static final Duration SHORT = Duration.ofMillis(300);

    private final RecordingListener listener = new RecordingListener();
    private HttpServer server;

    private void start(ServerTimeouts timeouts, boolean parking, Handler handler) throws IOException {
        server = HttpServer.builder().handler(handler).timeouts(timeouts).parking(parking)
                .connectionListener(listener).start();
    }

    private void start(ServerTimeouts timeouts, Handler handler) throws IOException {
        start(timeouts, true, handler);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static void ok(Request request, Response response) throws IOException {
        response.send("ok");
    }

    @Test
    void slowHeadIsAnswered408AndClosedWhileOthersAreServed() throws Exception {
        start(ServerTimeouts.builder().headerRead(SHORT).build(), TimeoutsTest::ok);
        try (RawConnection slow = new RawConnection(server);
             RawConnection bystander = new RawConnection(server)) {
            // A request right away: a new connection silent past the header timeout would be dropped too.
            assertThat(bystander.get("/").bodyText()).isEqualTo("ok");
            slow.send("GET / HTTP/1.1\r\nHost: t\r\n");
            // Keep trickling fields: the deadline covers the whole head, not each read.
            CompletableFuture<Void> trickle = CompletableFuture.runAsync(() -> {
                try {
                    for (int i = 0; i < 60; i++) {
                        slow.send("X-" + i + ": a\r\n");
                        TimeUnit.MILLISECONDS.sleep(50);
                    }
                } catch (IOException | InterruptedException e) {
                    // the server closed on us: expected
                }
            });
            RawResponse response = slow.readResponse();
            assertThat(response.status()).isEqualTo(408);
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(bystander.get("/").bodyText()).isEqualTo("ok");
            trickle.cancel(true);
        }
    }

    @Test
    void silentNewConnectionIsClosedWithoutAResponse() throws Exception {
        start(ServerTimeouts.builder().headerRead(SHORT).build(), TimeoutsTest::ok);
        try (RawConnection silent = new RawConnection(server)) {
            assertThat(silent.readToEnd()).isEmpty();
        }
        listener.awaitCount(ConnectionState.CLOSED, 1);
        assertThat(listener.statesOf(1)).containsExactly(ConnectionState.NEW, ConnectionState.CLOSED);
    }

    @Test
    void parkedConnectionIsClosedAtTheIdleTimeout() throws Exception {
        start(ServerTimeouts.builder().idle(SHORT).build(), TimeoutsTest::ok);
        try (RawConnection connection = new RawConnection(server)) {
            assertThat(connection.get("/").status()).isEqualTo(200);
            assertThat(connection.readToEnd()).isEmpty();
        }
        listener.awaitCount(ConnectionState.CLOSED, 1);
        assertThat(listener.statesOf(1)).containsExactly(ConnectionState.NEW, ConnectionState.ACTIVE,
                ConnectionState.IDLE, ConnectionState.PARKED, ConnectionState.CLOSED);
    }

    @Test
    void idleConnectionWithoutParkingIsClosedAtTheIdleTimeout() throws Exception {
        start(ServerTimeouts.builder().idle(SHORT).build(), false, TimeoutsTest::ok);
        try (RawConnection connection = new RawConnection(server)) {
            assertThat(connection.get("/").status()).isEqualTo(200);
            assertThat(connection.readToEnd()).isEmpty();
        }
        listener.awaitCount(ConnectionState.CLOSED, 1);
        assertThat(listener.statesOf(1)).containsExactly(ConnectionState.NEW, ConnectionState.ACTIVE,
                ConnectionState.IDLE, ConnectionState.CLOSED);
    }

    @Test
    void stalledBodyIsAnswered408() throws Exception {
        start(ServerTimeouts.builder().bodyRead(SHORT).build(), (request, response) -> {
            try {
                request.bodyBytes();
            } catch (SocketTimeoutException e) {
                throw e; // the server turns it into a 408
            }
            response.send("unreachable");
        });
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\nabc");
            RawResponse response = connection.readResponse();
            assertThat(response.status()).isEqualTo(408);
            assertThat(connection.isClosedByServer()).isTrue();
        }
    }

    @Test
    void writeToAClientThatStoppedReadingIsAbortedAtTheWriteTimeout() throws Exception {
        CompletableFuture<Throwable> writeFailure = new CompletableFuture<>();
        start(ServerTimeouts.builder().write(SHORT).build(), (request, response) -> {
            OutputStream out = response.body();
            byte[] block = new byte[64 * 1024];
            try {
                for (int i = 0; i < 4096; i++) { // 256 MiB: far more than any socket buffer
                    out.write(block);
                }
                writeFailure.complete(null);
            } catch (IOException e) {
                writeFailure.complete(e);
                throw e;
            }
        });
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(16 * 1024);
            socket.connect(server.localAddress());
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: t\r\n\r\n".getBytes());
            // Never read: the server's write blocks once the socket buffers are full.
            assertThat(writeFailure.get(30, TimeUnit.SECONDS)).isInstanceOf(IOException.class);
            listener.awaitCount(ConnectionState.CLOSED, 1);
        }
        List<RecordingListener.Event> events = listener.events();
        assertThat(events.getLast().connection().bytesWritten()).isPositive().isLessThan(256L * 1024 * 1024);
        // The watchdog's thread serves every connection: the writer it cut off reports the close.
        assertThat(events.getLast().to()).isEqualTo(ConnectionState.CLOSED);
        assertThat(events.getLast().thread()).startsWith("shuttle-conn-");
    }

    @Test
    void timeoutsOfOneConnectionDoNotDisturbAnother() throws Exception {
        // Only the header-read timeout is short: the busy client's requests each arrive whole, so none of them can
        // trip it, however slowly this machine runs the loop.
        start(ServerTimeouts.builder().headerRead(Duration.ofSeconds(1)).build(), TimeoutsTest::ok);
        try (RawConnection busy = new RawConnection(server)) {
            assertThat(busy.get("/").bodyText()).isEqualTo("ok");
            try (Socket silent = new Socket()) {
                silent.connect(new InetSocketAddress(server.localAddress().getAddress(), server.port()));
                while (listener.count(ConnectionState.CLOSED) == 0) {
                    assertThat(busy.get("/").bodyText()).isEqualTo("ok");
                }
                assertThat(silent.getInputStream().read()).isEqualTo(-1);
            }
            assertThat(busy.get("/").bodyText()).isEqualTo("ok");
        }
    }
}
