package dev.shuttle.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.RawConnection.RawResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Clients that hold a connection without finishing anything: each stall point has a deadline that closes the
 * connection (with 408 when part of a request arrived, silently when nothing did), with and without parking, while
 * another connection is served meanwhile. Also: a slow reader of a response, a flood beyond {@code maxConnections},
 * and clients that abandon their responses. Timeouts are short; the tests wait for outcomes, never for a time, and
 * bound each outcome generously against a loaded machine.
 */
@Timeout(60)
class SlowlorisTest {
    private static final Duration SHORT = Duration.ofMillis(300);
    /** Far above SHORT, far below "never": an outcome later than this means no deadline fired. */
    private static final long BOUND_NANOS = TimeUnit.SECONDS.toNanos(8);

    private final RecordingListener listener = new RecordingListener();
    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private void start(boolean parking, ServerLimits limits, Handler handler) throws IOException {
        start(parking, limits, ServerTimeouts.builder().headerRead(SHORT).bodyRead(SHORT).idle(SHORT).write(SHORT)
                .build(), handler);
    }

    private void start(boolean parking, ServerLimits limits, ServerTimeouts timeouts, Handler handler)
            throws IOException {
        server = HttpServer.builder()
                .timeouts(timeouts)
                .limits(limits)
                .parking(parking)
                .connectionListener(listener)
                .handler(handler)
                .start();
    }

    private static void readAll(Request request, Response response) throws IOException {
        response.send("read " + request.bodyBytes().length);
    }

    static Stream<Arguments> stalls() {
        String head = "GET / HTTP/1.1\r\nHost: t\r\n\r\n";
        String chunked = "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n";
        List<Arguments> cases = new ArrayList<>();
        for (boolean parking : new boolean[] {true, false}) {
            cases.add(Arguments.of("nothing sent", parking, "", 0, -1));
            cases.add(Arguments.of("mid request line", parking, "GET /slow", 0, 408));
            cases.add(Arguments.of("mid head", parking, "GET / HTTP/1.1\r\nHost: t\r\n", 0, 408));
            cases.add(Arguments.of("mid head, at a CR", parking, "GET / HTTP/1.1\r\nHost: t\r", 0, 408));
            cases.add(Arguments.of("mid body", parking, "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\n"
                    + "abc", 0, 408));
            cases.add(Arguments.of("mid body, before its first byte", parking, "POST / HTTP/1.1\r\nHost: t\r\n"
                    + "Content-Length: 10\r\n\r\n", 0, 408));
            cases.add(Arguments.of("mid chunk size line", parking, chunked + "5", 0, 408));
            cases.add(Arguments.of("mid chunk data", parking, chunked + "5\r\nab", 0, 408));
            cases.add(Arguments.of("before the last chunk", parking, chunked + "5\r\nhello\r\n", 0, 408));
            cases.add(Arguments.of("mid trailers", parking, chunked + "5\r\nhello\r\n0\r\nX-T: a\r\n", 0, 408));
            cases.add(Arguments.of("between keep-alive requests", parking, head, 1, -1));
            cases.add(Arguments.of("mid head of the next keep-alive request", parking, head + "GET /2 HTTP/1.1\r\n",
                    1, 408));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}, parking {1}")
    @MethodSource("stalls")
    void aStalledConnectionIsClosedByADeadlineWhileOthersAreServed(String what, boolean parking, String sent,
                                                                  int answered, int status) throws Exception {
        start(parking, ServerLimits.defaults(), SlowlorisTest::readAll);
        try (RawConnection bystander = new RawConnection(server);
             RawConnection staller = new RawConnection(server)) {
            assertThat(bystander.get("/").status()).isEqualTo(200);
            long start = System.nanoTime();
            staller.send(sent);
            for (int i = 0; i < answered; i++) {
                assertThat(staller.readResponse().status()).isEqualTo(200);
            }
            if (status > 0) {
                RawResponse response = staller.readResponse();
                assertThat(response.status()).as(what).isEqualTo(status);
                assertThat(response.header("Connection")).isEqualTo("close");
            }
            assertThat(staller.readToEnd()).as(what + ": closed without (another) response").isEmpty();
            assertThat(System.nanoTime() - start).as(what + ": closed by a deadline").isLessThan(BOUND_NANOS);
            // The bystander's own deadlines ran meanwhile; a new request on a new connection is served.
            try (RawConnection after = new RawConnection(server)) {
                assertThat(after.get("/").bodyText()).isEqualTo("read 0");
            }
        }
    }

    @Test
    void aSlowReaderOfAResponseIsCutOffAtTheWriteTimeout() throws Exception {
        long total = 256L * 1024 * 1024;
        CompletableFuture<Throwable> writeFailure = new CompletableFuture<>();
        start(true, ServerLimits.defaults(), (request, response) -> {
            OutputStream out = response.body();
            byte[] block = new byte[64 * 1024];
            try {
                for (long sent = 0; sent < total; sent += block.length) {
                    out.write(block);
                }
                writeFailure.complete(null);
            } catch (IOException e) {
                writeFailure.complete(e);
                throw e;
            }
        });
        long received = 0;
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(8 * 1024);
            socket.connect(server.localAddress());
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: t\r\n\r\n".getBytes());
            InputStream in = socket.getInputStream();
            byte[] sip = new byte[512];
            // Reads on, slowly: about 25 KiB/s, so no socket write of the server's ever finishes in time.
            while (!writeFailure.isDone()) {
                int n = in.read(sip);
                if (n < 0) {
                    break;
                }
                received += n;
                TimeUnit.MILLISECONDS.sleep(20);
            }
            assertThat(writeFailure.get(30, TimeUnit.SECONDS)).isInstanceOf(IOException.class);
            listener.awaitCount(ConnectionState.CLOSED, 1);
        }
        assertThat(received).isLessThan(total / 16);
    }

    @Test
    void aFloodBeyondMaxConnectionsWaitsInTheBacklogWhileAdmittedConnectionsAreServed() throws Exception {
        int max = 4;
        // Only the header deadline is short: the regular client pauses between requests while the flood drains.
        start(true, ServerLimits.builder().maxConnections(max).build(),
                ServerTimeouts.builder().headerRead(SHORT).build(), SlowlorisTest::readAll);
        try (RawConnection regular = new RawConnection(server)) {
            assertThat(regular.get("/").status()).isEqualTo(200);
            List<Socket> flood = new ArrayList<>();
            try {
                for (int i = 0; i < 20; i++) {
                    Socket socket = new Socket();
                    socket.connect(server.localAddress(), 5000); // the kernel completes it; the server has not
                    flood.add(socket);
                }
                // The admitted connection keeps being served while the flood holds every other slot.
                for (int i = 0; i < 20; i++) {
                    assertThat(regular.get("/").bodyText()).isEqualTo("read 0");
                }
                assertThat(server.stats().open()).isLessThanOrEqualTo(max);
                // Silent flooders are closed at the header deadline, a slot at a time, and the waiting ones taken
                // in: every one of them is eventually accepted and closed, none served, none left hanging.
                for (Socket socket : flood) {
                    socket.setSoTimeout(15_000);
                    assertThat(socket.getInputStream().read()).isEqualTo(-1);
                }
            } finally {
                for (Socket socket : flood) {
                    socket.close();
                }
            }
            assertThat(regular.get("/").bodyText()).isEqualTo("read 0");
            try (RawConnection late = new RawConnection(server)) {
                assertThat(late.get("/").bodyText()).isEqualTo("read 0");
            }
        }
    }

    static Stream<Arguments> abandoningHandlers() {
        return Stream.of(
                Arguments.of("handler lets the IOException through", false),
                Arguments.of("handler wraps it in UncheckedIOException", true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("abandoningHandlers")
    void aClientThatAbandonsItsResponseLeavesNoWarning(String what, boolean wrap) throws Exception {
        CountDownLatch failed = new CountDownLatch(1);
        start(true, ServerLimits.defaults(), (request, response) -> {
            if (request.path().equals("/small")) {
                response.send("small");
                return;
            }
            OutputStream out = response.body();
            byte[] block = new byte[64 * 1024];
            try {
                for (int i = 0; i < 4096; i++) {
                    out.write(block);
                }
            } catch (IOException e) {
                failed.countDown();
                if (wrap) {
                    throw new UncheckedIOException(e);
                }
                throw e;
            }
        });
        try (LogCapture log = new LogCapture()) {
            try (Socket socket = new Socket()) {
                socket.connect(server.localAddress());
                socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: t\r\n\r\n".getBytes());
                assertThat(socket.getInputStream().readNBytes(1024)).hasSize(1024);
                socket.setSoLinger(true, 0); // close with a reset, as a killed browser tab does
            }
            assertThat(failed.await(10, TimeUnit.SECONDS)).isTrue();
            listener.awaitCount(ConnectionState.CLOSED, 1);
            try (RawConnection other = new RawConnection(server)) {
                assertThat(other.get("/small").bodyText()).isEqualTo("small");
            }
            assertThat(log.warnings()).as(what).isEmpty();
        }
    }
}
