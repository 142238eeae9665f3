package dev.shuttle.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.wire.HttpVersion;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The connection-state listener, the stats counters and the per-connection byte counters. */
class ConnectionListenerTest {
    private final RecordingListener listener = new RecordingListener();
    private HttpServer server;

    private void start(boolean parking, ConnectionListener connectionListener) throws IOException {
        server = HttpServer.builder()
                .handler((request, response) -> response.send("hello"))
                .parking(parking)
                .connectionListener(connectionListener)
                .start();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void keepAliveConnectionGoesThroughEveryState() throws Exception {
        start(true, listener);
        try (RawConnection connection = new RawConnection(server)) {
            connection.get("/1");
            listener.awaitCount(ConnectionState.PARKED, 1);
            assertThat(server.stats()).isEqualTo(new ServerStats(1, 1, 0, 0, 1, 0, 1, 0));
            connection.get("/2");
            listener.awaitCount(ConnectionState.PARKED, 2);
        }
        listener.awaitCount(ConnectionState.CLOSED, 1);
        assertThat(listener.statesOf(1)).containsExactly(
                ConnectionState.NEW,
                ConnectionState.ACTIVE, ConnectionState.IDLE, ConnectionState.PARKED,
                ConnectionState.ACTIVE, ConnectionState.IDLE, ConnectionState.PARKED,
                ConnectionState.CLOSED);
        List<RecordingListener.Event> events = listener.events();
        assertThat(events.getFirst().from()).isNull();
        assertThat(events).allSatisfy(event -> {
            assertThat(event.connection().protocol()).isEqualTo(HttpVersion.HTTP_1_1);
            assertThat(event.connection().remoteAddress().getAddress().isLoopbackAddress()).isTrue();
        });
        assertThat(server.stats()).isEqualTo(new ServerStats(1, 0, 0, 0, 0, 1, 2, 0));
    }

    @Test
    void withoutParkingAnIdleConnectionStaysIdle() throws Exception {
        start(false, listener);
        try (RawConnection connection = new RawConnection(server)) {
            connection.get("/1");
            listener.awaitCount(ConnectionState.IDLE, 1);
            assertThat(server.stats().idle()).isEqualTo(1);
            assertThat(server.stats().parked()).isZero();
            connection.get("/2");
            listener.awaitCount(ConnectionState.IDLE, 2);
        }
        listener.awaitCount(ConnectionState.CLOSED, 1);
        assertThat(listener.statesOf(1)).containsExactly(ConnectionState.NEW,
                ConnectionState.ACTIVE, ConnectionState.IDLE, ConnectionState.ACTIVE, ConnectionState.IDLE,
                ConnectionState.CLOSED);
    }

    @Test
    void byteCountersMatchWhatThePeerExchanged() throws Exception {
        start(true, listener);
        byte[] request = "GET /count HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        try (Socket socket = new Socket()) {
            socket.connect(server.localAddress());
            socket.getOutputStream().write(request);
            socket.getOutputStream().write("GET /count HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            in.transferTo(received);
        }
        listener.awaitCount(ConnectionState.CLOSED, 1);
        ConnectionInfo connection = listener.events().getLast().connection();
        assertThat(connection.bytesWritten()).isEqualTo(received.size());
        assertThat(connection.bytesRead()).isEqualTo(request.length * 2L + "Connection: close\r\n".length());
        assertThat(connection.requestCount()).isEqualTo(2);
        assertThat(new String(received.toByteArray(), StandardCharsets.US_ASCII)).contains("hello");
    }

    @Test
    void requestSeesItsConnection() throws Exception {
        AtomicReference<ConnectionInfo> seen = new AtomicReference<>();
        server = HttpServer.builder()
                .handler((request, response) -> {
                    seen.set(request.connection());
                    response.send(request.remoteAddress().getAddress().getHostAddress());
                })
                .start();
        try (RawConnection connection = new RawConnection(server)) {
            assertThat(connection.get("/").bodyText()).isEqualTo("127.0.0.1");
            assertThat(seen.get().id()).isEqualTo(1);
            assertThat(seen.get().state()).isIn(ConnectionState.ACTIVE, ConnectionState.IDLE, ConnectionState.PARKED);
            assertThat(seen.get().localAddress().getPort()).isEqualTo(server.port());
        }
    }

    @Test
    void listenerThatThrowsDoesNotBreakTheServer() throws Exception {
        start(true, (connection, from, to) -> {
            listener.onStateChange(connection, from, to);
            throw new IllegalStateException("listener bug");
        });
        try (RawConnection connection = new RawConnection(server)) {
            assertThat(connection.get("/1").bodyText()).isEqualTo("hello");
            assertThat(connection.get("/2").bodyText()).isEqualTo("hello");
        }
        listener.awaitCount(ConnectionState.CLOSED, 1);
        assertThat(server.stats().closed()).isEqualTo(1);
    }

    @Test
    void countersTrackManyConnections() throws Exception {
        start(true, listener);
        for (int i = 0; i < 5; i++) {
            try (RawConnection connection = new RawConnection(server)) {
                connection.get("/");
            }
        }
        listener.awaitCount(ConnectionState.CLOSED, 5);
        ServerStats stats = server.stats();
        assertThat(stats.accepted()).isEqualTo(5);
        assertThat(stats.closed()).isEqualTo(5);
        assertThat(stats.open()).isZero();
        assertThat(stats.requests()).isEqualTo(5);
        assertThat(listener.count(ConnectionState.NEW)).isEqualTo(5);
    }

    @Test
    void listenerRunsWithoutTheConnectionsLock() throws Exception {
        // Issue 13, item 7: a listener that waits for another thread touching the same connection (here shutdown,
        // which closes idle connections under their state lock) deadlocked while listeners ran under that lock.
        java.util.concurrent.CompletableFuture<Boolean> joined = new java.util.concurrent.CompletableFuture<>();
        start(false, (connection, from, to) -> {
            if (to == ConnectionState.IDLE && !joined.isDone()) {
                Thread closer = Thread.ofVirtual().start(() -> {
                    try {
                        server.shutdown(java.time.Duration.ofSeconds(5));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                try {
                    joined.complete(closer.join(java.time.Duration.ofSeconds(5)));
                } catch (InterruptedException e) {
                    joined.complete(false);
                }
            }
        });
        try (RawConnection connection = new RawConnection(server)) {
            connection.get("/1");
            assertThat(joined.get(15, java.util.concurrent.TimeUnit.SECONDS)).as("shutdown finished meanwhile").isTrue();
        }
    }

    @Test
    void aSlowListenerOnOneConnectionDelaysNoOtherAndNeverRunsOnTheWatcher() throws Exception {
        // Issue 13, item 7: deadline closes ran the listener on the watcher thread, so a slow listener there kept
        // every parked connection from waking.
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.Set<String> threads = java.util.concurrent.ConcurrentHashMap.newKeySet();
        server = HttpServer.builder()
                .handler((request, response) -> response.send("hello"))
                .timeouts(ServerTimeouts.builder().headerRead(java.time.Duration.ofMillis(200)).build())
                .connectionListener((connection, from, to) -> {
                    threads.add(Thread.currentThread().getName());
                    listener.onStateChange(connection, from, to);
                    if (to == ConnectionState.CLOSED && connection.requestCount() == 0) {
                        try {
                            release.await(); // the silent connection's close blocks until the other was served
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                })
                .start();
        try (RawConnection busy = new RawConnection(server)) {
            busy.get("/1");
            listener.awaitCount(ConnectionState.PARKED, 1);
            try (RawConnection silent = new RawConnection(server)) {
                listener.await("the silent connection closed at its deadline",
                        events -> events.stream().anyMatch(e -> e.to() == ConnectionState.CLOSED));
                assertThat(busy.get("/2").bodyText()).isEqualTo("hello");
            } finally {
                release.countDown();
            }
        }
        assertThat(threads).noneMatch(name -> name.startsWith("shuttle-watcher"));
    }
}
