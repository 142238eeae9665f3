package dev.shuttle.mockserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class MockServerTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void countsConnectionsAndRequestsPerConnection() throws Exception {
        try (MockServer server = MockServer.builder().respondWith(MockResponse.ofSize(100)).start()) {
            try (RawHttp first = new RawHttp(server.port())) {
                for (int i = 0; i < 3; i++) {
                    assertThat(first.get("/a").body()).isEqualTo(MockBodies.slice(0, 100));
                }
            }
            try (RawHttp second = new RawHttp(server.port())) {
                second.get("/b");
            }
            assertThat(server.awaitConnectionsClosed(WAIT)).isTrue();
            ReuseStats stats = server.stats();
            assertThat(stats.connections()).isEqualTo(2);
            assertThat(stats.requests()).isEqualTo(4);
            assertThat(stats.reusedRequests()).isEqualTo(2);
            assertThat(stats.perConnection()).extracting(ConnectionRecord::requests).containsExactly(3L, 1L);
            assertThat(stats.perConnection()).allSatisfy(c -> assertThat(c.open()).isFalse());
            assertThat(server.takeRequest(WAIT)).satisfies(r -> {
                assertThat(r.path()).isEqualTo("/a");
                assertThat(r.sequenceOnConnection()).isEqualTo(1);
            });
            assertThat(server.takeRequest(WAIT).reusedConnection()).isTrue();
        }
    }

    @Test
    void bytesWrittenAreWhatTheSocketTook() throws Exception {
        try (MockServer server = MockServer.builder().respondWith(MockResponse.ofSize(5000)).start()) {
            long read;
            try (RawHttp client = new RawHttp(server.port())) {
                client.get("/");
                client.get("/");
                read = client.bytesRead();
            }
            assertThat(server.awaitConnectionsClosed(WAIT)).isTrue();
            assertThat(server.bytesWritten()).isEqualTo(read);
            ReuseAssertions.assertReuse(server).newConnections(1).requests(2).bytesWrittenAtMost(read);
            assertThatThrownBy(() -> ReuseAssertions.assertReuse(server).bytesWrittenAtMost(read - 1))
                    .isInstanceOf(AssertionError.class).hasMessageContaining("#1:2");
        }
    }

    @Test
    void queueThenFallbackThenNotFound() throws Exception {
        try (MockServer server = MockServer.start()) {
            server.enqueue(MockResponse.text("one")).enqueue(MockResponse.text(201, "two"));
            try (RawHttp client = new RawHttp(server.port())) {
                assertThat(new String(client.get("/").body(), StandardCharsets.UTF_8)).isEqualTo("one");
                assertThat(client.get("/").status()).isEqualTo(201);
                assertThat(client.get("/x").status()).isEqualTo(404);
            }
        }
    }

    @Test
    void dispatcherFailureIsA500ThatSaysWhy() throws Exception {
        try (MockServer server = MockServer.builder().dispatcher(r -> {
            throw new IllegalStateException("no such case " + r.path());
        }).start(); RawHttp client = new RawHttp(server.port())) {
            RawHttp.Reply reply = client.get("/nope");
            assertThat(reply.status()).isEqualTo(500);
            assertThat(new String(reply.body(), StandardCharsets.UTF_8)).contains("no such case /nope");
        }
    }

    @Test
    void chunkedBodyGoesInOneWriteWithItsEndMarker() throws Exception {
        try (MockServer server = MockServer.builder().respondWith(MockResponse.chunkedOfSize(1024)).start();
             RawHttp client = new RawHttp(server.port())) {
            RawHttp.Reply reply = client.get("/");
            assertThat(reply.chunked()).isTrue();
            assertThat(reply.chunkSizes()).containsExactly(1024);
            assertThat(reply.body()).isEqualTo(MockBodies.slice(0, 1024));
        }
    }

    @Test
    void pauseMidBodySplitsTheBodyInTime() throws Exception {
        MockResponse paused = MockResponse.builder().bodyOfSize(2048).chunked()
                .pauseAfter(1024, Duration.ofMillis(80)).build();
        try (MockServer server = MockServer.builder().respondWith(paused).start();
             RawHttp client = new RawHttp(server.port())) {
            RawHttp.Reply reply = client.get("/");
            assertThat(reply.chunkSizes()).containsExactly(1024, 1024);
            assertThat(reply.chunkArrivalNanos().get(1) - reply.chunkArrivalNanos().get(0))
                    .isGreaterThanOrEqualTo(Duration.ofMillis(70).toNanos());
            assertThat(reply.body()).isEqualTo(MockBodies.slice(0, 2048));
        }
    }

    @Test
    void lateEndMarkerComesAfterTheJson() throws Exception {
        MockResponse late = MockResponse.builder().json("{\"a\":1}\n").chunked().endDelay(Duration.ofMillis(80))
                .build();
        try (MockServer server = MockServer.builder().respondWith(late).start();
             RawHttp client = new RawHttp(server.port())) {
            RawHttp.Reply reply = client.get("/");
            assertThat(new String(reply.body(), StandardCharsets.US_ASCII)).isEqualTo("{\"a\":1}\n");
            assertThat(reply.headers()).containsEntry("content-type", "application/json");
            assertThat(reply.endMarkerNanos() - reply.chunkArrivalNanos().get(0))
                    .isGreaterThanOrEqualTo(Duration.ofMillis(70).toNanos());
        }
    }

    @Test
    void throttledBodyTakesItsTime() throws Exception {
        // 40 000 bytes at 400 000 bytes/s: 100 ms at least
        MockResponse slow = MockResponse.builder().bodyOfSize(40_000).throttle(400_000).build();
        try (MockServer server = MockServer.builder().respondWith(slow).start();
             RawHttp client = new RawHttp(server.port())) {
            long start = System.nanoTime();
            RawHttp.Reply reply = client.get("/");
            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(Duration.ofMillis(90).toNanos());
            assertThat(reply.body()).isEqualTo(MockBodies.slice(0, 40_000));
        }
    }

    @Test
    void connectionCloseClosesAfterTheResponse() throws Exception {
        MockResponse closing = MockResponse.builder().bodyOfSize(10).connectionClose().build();
        try (MockServer server = MockServer.builder().respondWith(closing).start();
             RawHttp client = new RawHttp(server.port())) {
            RawHttp.Reply reply = client.get("/");
            assertThat(reply.headers()).containsEntry("connection", "close");
            assertThat(client.serverClosed()).isTrue();
        }
    }

    @Test
    void truncationEndsTheConnectionMidBody() throws Exception {
        MockResponse cut = MockResponse.builder().bodyOfSize(4096).truncateAfter(1000).build();
        try (MockServer server = MockServer.builder().respondWith(cut).start();
             Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String all = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(all).contains("Content-Length: 4096");
            assertThat(all.substring(all.indexOf("\r\n\r\n") + 4)).hasSize(1000);
        }
    }

    @Test
    void stallAfterHeadSendsTheHeadAndThenNothing() throws Exception {
        MockResponse stalled = MockResponse.builder().bodyOfSize(100).stallAfterHead(Duration.ofSeconds(20)).build();
        try (MockServer server = MockServer.builder().respondWith(stalled).start();
             Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(300);
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            byte[] head = readHead(in);
            assertThat(new String(head, StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 200");
            assertThatThrownBy(in::read).isInstanceOf(java.net.SocketTimeoutException.class);
            socket.setSoTimeout(10_000);
            server.close(); // wakes the stall at once
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    @Test
    void idleTimeoutClosesAKeptAliveConnection() throws Exception {
        try (MockServer server = MockServer.builder().idleTimeout(Duration.ofMillis(200))
                .respondWith(MockResponse.text("x")).start();
             RawHttp client = new RawHttp(server.port())) {
            client.get("/");
            long start = System.nanoTime();
            assertThat(client.serverClosed()).isTrue();
            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(Duration.ofMillis(150).toNanos());
            assertThat(server.awaitConnectionsClosed(WAIT)).isTrue();
        }
    }

    @Test
    void resetOnShuttleEngineOverHttp1SaysItNeedsTheRawEngine() throws Exception {
        try (MockServer server = MockServer.builder().respondWith(MockResponse.builder().bodyOfSize(100)
                .resetAfter(10).build()).start(); RawHttp client = new RawHttp(server.port())) {
            RawHttp.Reply reply = client.get("/");
            assertThat(reply.status()).isEqualTo(500);
            assertThat(new String(reply.body(), StandardCharsets.UTF_8)).contains("rawHttp1()");
        }
    }

    @Test
    void rawEngineResetsAfterNBytes() throws Exception {
        MockResponse reset = MockResponse.builder().bodyOfSize(100_000).resetAfter(1000).build();
        try (MockServer server = MockServer.builder().rawHttp1().respondWith(reset).start();
             Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            byte[] head = readHead(in);
            assertThat(new String(head, StandardCharsets.ISO_8859_1)).contains("Content-Length: 100000");
            byte[] buffer = new byte[4096];
            long body = 0;
            IOException failure = null;
            try {
                for (int n; (n = in.read(buffer)) > 0; ) {
                    body += n;
                }
            } catch (IOException e) {
                failure = e;
            }
            // A reset either arrives as "Connection reset" or, when it overtook unread bytes, as the end of input;
            // either way the client got at most the 1000 scripted bytes and never a clean 100 000.
            assertThat(body).isLessThanOrEqualTo(1000);
            if (failure != null) {
                assertThat(failure).isInstanceOf(SocketException.class).hasMessageContaining("reset");
            }
        }
    }

    @Test
    void rawEngineCountsLikeTheShuttleEngine() throws Exception {
        try (MockServer server = MockServer.builder().rawHttp1().respondWith(MockResponse.chunkedOfSize(3000))
                .start()) {
            long read;
            try (RawHttp client = new RawHttp(server.port())) {
                assertThat(client.get("/").body()).isEqualTo(MockBodies.slice(0, 3000));
                assertThat(client.get("/").chunkSizes()).containsExactly(3000);
                read = client.bytesRead();
            }
            assertThat(server.awaitConnectionsClosed(WAIT)).isTrue();
            assertThat(server.stats().perConnection()).extracting(ConnectionRecord::requests).containsExactly(2L);
            assertThat(server.bytesWritten()).isEqualTo(read);
        }
    }

    private static byte[] readHead(InputStream in) throws IOException {
        java.io.ByteArrayOutputStream head = new java.io.ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed in the head");
            }
            head.write(b);
        }
        return head.toByteArray();
    }
}
