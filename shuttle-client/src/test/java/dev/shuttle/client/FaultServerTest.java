package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.shuttle.client.testing.ScriptedServer;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The client against servers that misbehave (issue 11, "Client"): each fault fails the call with an IOException
 * subclass that says what happened, within the configured timeout, never a hang and never a silent short body; the
 * connection never reaches the pool; nothing is retried that must not be; and the next request on the same client
 * works. The first connection of each server misbehaves, the later ones answer properly.
 */
class FaultServerTest {
    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
    /** The timeouts of the table's client: short, so a hang shows as a timeout well inside the test's bound. */
    private static final Duration READ_TIMEOUT = Duration.ofMillis(400);
    /** Whatever happens, the faulty call ends within this: the read timeout plus generous scheduling slack. */
    private static final Duration BOUND = Duration.ofSeconds(5);

    /** What the first connection does after reading the request. */
    @FunctionalInterface
    interface Fault {
        void misbehave(ScriptedServer.Conn conn) throws Exception;
    }

    /**
     * @param bodyLimit   the caller's limit for {@link Response#bytes(int)}
     * @param type        the exception the caller must get
     * @param message     what its message must say
     */
    record Case(String name, Fault fault, int bodyLimit, Class<? extends IOException> type, String message) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        int unlimited = Integer.MAX_VALUE - 8;
        return Stream.of(
                new Case("accepts and never answers", ScriptedServer.Conn::awaitClientClose, unlimited,
                        HttpTimeoutException.class, "no byte received for 400 ms"),
                new Case("closes without answering", conn -> { }, unlimited,
                        IOException.class, "connection closed before any response byte"),
                new Case("answers half a status line, then stalls", conn -> {
                    conn.write("HTTP/1.1 2");
                    conn.awaitClientClose();
                }, unlimited, HttpTimeoutException.class, "no byte received for 400 ms"),
                new Case("answers the head, then stalls", conn -> {
                    conn.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789");
                    conn.awaitClientClose();
                }, unlimited, HttpTimeoutException.class, "no byte received for 400 ms"),
                new Case("resets mid-body", conn -> {
                    conn.write("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n" + "x".repeat(1000));
                    reset(conn.socket());
                }, unlimited, java.net.SocketException.class, "reset while reading the response body"),
                new Case("truncates a Content-Length body", conn ->
                        conn.write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n0123456789"),
                        unlimited, IOException.class, "truncated"),
                new Case("truncates a chunked body", conn ->
                        conn.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n01234"),
                        unlimited, IOException.class, "chunked body truncated"),
                new Case("sends a malformed chunk size", conn -> {
                    conn.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n-1\r\n");
                    conn.awaitClientClose();
                }, unlimited, IOException.class, "invalid chunk size"),
                new Case("sends chunk data without its CRLF", conn -> {
                    conn.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXX0\r\n\r\n");
                    conn.awaitClientClose();
                }, unlimited, IOException.class, "chunk data not followed by CRLF"),
                new Case("sends a chunk size that overflows", conn -> {
                    conn.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n");
                    conn.awaitClientClose();
                }, unlimited, IOException.class, "chunk size too large"),
                new Case("sends garbage instead of a status line", conn -> {
                    conn.write("SSH-2.0-OpenSSH_9.6\r\n\r\n");
                    conn.awaitClientClose();
                }, unlimited, IOException.class, "status line"),
                new Case("sends binary garbage", conn -> {
                    conn.write(new byte[] {0x16, 0x03, 0x01, 0x00, (byte) 0xa5, 0x01, 0x00, 0x00, '\r', '\n', '\r',
                            '\n'});
                    conn.awaitClientClose();
                }, unlimited, IOException.class, "status line"),
                new Case("sends a huge header block", conn -> {
                    StringBuilder head = new StringBuilder("HTTP/1.1 200 OK\r\n");
                    for (int i = 0; head.length() < 200_000; i++) {
                        head.append("X-Filler-").append(i).append(": ").append("v".repeat(4000)).append("\r\n");
                    }
                    conn.write(head.append("Content-Length: 2\r\n\r\nok").toString());
                    conn.awaitClientClose();
                }, unlimited, IOException.class, "65536"),
                new Case("sends too many header fields", conn -> {
                    conn.write("HTTP/1.1 200 OK\r\n" + "X-A: 1\r\n".repeat(300) + "Content-Length: 2\r\n\r\nok");
                    conn.awaitClientClose();
                }, unlimited, IOException.class, "256"),
                new Case("sends a header line that never ends", conn -> {
                    conn.write("HTTP/1.1 200 OK\r\nX-Endless: " + "v".repeat(100_000));
                    conn.awaitClientClose();
                }, unlimited, IOException.class, "65536"),
                new Case("sends a close-delimited body larger than the caller's limit", conn ->
                        conn.write("HTTP/1.1 200 OK\r\n\r\n" + "x".repeat(10_000)),
                        1000, IOException.class, "body exceeds the limit of 1000 bytes"),
                new Case("declares a Content-Length larger than the caller's limit", conn -> {
                    conn.write("HTTP/1.1 200 OK\r\nContent-Length: 5000000000\r\n\r\nxx");
                    conn.awaitClientClose();
                }, 1000, IOException.class, "body of 5000000000 bytes exceeds the limit of 1000"),
                new Case("sends conflicting Content-Lengths", conn -> {
                    conn.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok!");
                    conn.awaitClientClose();
                }, unlimited, IOException.class, "Content-Length"),
                new Case("sends 100 Continue forever", conn -> {
                    for (int i = 0; i < 1000; i++) {
                        conn.write("HTTP/1.1 100 Continue\r\n\r\n");
                        Thread.sleep(5);
                    }
                }, unlimited, IOException.class, "too many 1xx informational responses"),
                new Case("switches protocols unasked", conn -> {
                    conn.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n");
                    conn.awaitClientClose();
                }, unlimited, IOException.class, "101"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aFaultFailsClearlyInTimeAndTheClientCarriesOn(Case c) throws Exception {
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            if (index == 0) {
                conn.readRequest();
                c.fault().misbehave(conn);
                return;
            }
            while (conn.readRequest() != null) {
                conn.write(OK);
            }
        }); HttpClient client = HttpClient.builder().readTimeout(READ_TIMEOUT).build()) {
            Throwable thrown = assertTimeoutPreemptively(BOUND, () -> catchThrowable(() -> {
                try (Response response = client.send(Request.get(server.uri("/fault")))) {
                    response.bytes(c.bodyLimit());
                }
            }));
            assertThat(thrown).as(c.name()).isInstanceOf(c.type()).hasMessageContaining(c.message());
            ClientInternals.awaitSettled(client);
            assertThat(ClientInternals.pool(client).idleCount()).as("poisoned connection pooled").isZero();
            assertThat(client.stats().retries()).as("a new connection's failure is not retried").isZero();
            try (Response later = client.send(Request.get(server.uri("/later")))) {
                assertThat(later.string()).isEqualTo("ok");
                assertThat(later.connection().reused()).isFalse();
            }
            assertThat(server.accepted()).isEqualTo(2);
            assertThat(server.failures()).isEmpty();
        }
    }

    /** An RST instead of a FIN: SO_LINGER 0 makes close() abort the connection. */
    private static void reset(Socket socket) throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    @Test
    void aPooledConnectionResetWhileIdleIsNoticedAndReplaced() throws Exception {
        CountDownLatch reset = new CountDownLatch(1);
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            conn.readRequest();
            conn.write(OK);
            if (index == 0) {
                reset(conn.socket());
                reset.countDown();
                return;
            }
            while (conn.readRequest() != null) {
                conn.write(OK);
            }
        }); HttpClient client = HttpClient.builder().readTimeout(READ_TIMEOUT).build()) {
            try (Response first = client.send(Request.get(server.uri("/a")))) {
                assertThat(first.string()).isEqualTo("ok");
            }
            assertThat(reset.await(5, TimeUnit.SECONDS)).isTrue();
            // Whether the health check sees the RST first or the request goes out on the dead connection and is
            // retried, the caller gets a good answer from a new connection.
            try (Response second = client.send(Request.get(server.uri("/b")))) {
                assertThat(second.string()).isEqualTo("ok");
                assertThat(second.connection().reused()).isFalse();
            }
            ClientInternals.awaitSettled(client);
            assertThat(server.accepted()).isEqualTo(2);
        }
    }

    @Test
    void aReusedConnectionResetAfterTheResponseStartedIsNotRetried() throws Exception {
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            conn.readRequest();
            conn.write(OK);
            if (index == 0) {
                conn.readRequest();
                conn.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npart");
                reset(conn.socket());
                return;
            }
            while (conn.readRequest() != null) {
                conn.write(OK);
            }
        }); HttpClient client = HttpClient.builder().readTimeout(READ_TIMEOUT).build()) {
            client.send(Request.get(server.uri("/a"))).bytes();
            Throwable thrown = assertTimeoutPreemptively(BOUND, () -> catchThrowable(() ->
                    client.send(Request.get(server.uri("/b"))).bytes()));
            // The server may have acted on it: a response byte arrived, so the GET is not sent again.
            assertThat(thrown).isInstanceOf(IOException.class);
            assertThat(client.stats().retries()).isZero();
            ClientInternals.awaitSettled(client);
            assertThat(ClientInternals.pool(client).idleCount()).isZero();
            try (Response later = client.send(Request.get(server.uri("/c")))) {
                assertThat(later.string()).isEqualTo("ok");
            }
        }
    }
}
