package dev.shuttle.server.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.BugDetectors;
import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.api.SilentCloseable;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.shuttle.server.HttpServer;
import dev.shuttle.server.ServerLimits;
import dev.shuttle.server.ServerTimeouts;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the server's connection loop as a peer drives it: random bytes, or random bytes after a valid HTTP/1.1
 * request or an HTTP/2 preface, written over loopback in random splits, then the client's EOF. Whatever the bytes,
 * the server answers or closes within its timeouts, never logs a warning (a handler that cannot fail means any
 * warning is the server's own fault), gives every connection back (none left open), and keeps serving others: a
 * healthy request on a fresh connection succeeds after every input.
 *
 * <p>Without {@code JAZZER_FUZZ} the seeds under {@code ServerConnectionFuzzTestInputs/} are replayed; the pom's
 * {@code fuzz-server} execution fuzzes for {@code maxDuration}.
 */
class ServerConnectionFuzzTest {
    private static final byte[] GET = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] POST = "POST /b HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII);
    /** The connection preface and an empty SETTINGS frame. */
    private static final byte[] PREFACE = concat("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
            new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0});
    private static final byte[][] PREFIXES = {new byte[0], GET, POST, PREFACE};

    private static final List<LogRecord> WARNINGS = new CopyOnWriteArrayList<>();
    private static final Handler WARNING_CATCHER = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                WARNINGS.add(record);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private static final Logger SHUTTLE_LOGGER = Logger.getLogger("dev.shuttle");

    private static HttpServer server;

    @BeforeAll
    static void start() throws IOException {
        SHUTTLE_LOGGER.addHandler(WARNING_CATCHER);
        // Small limits and short timeouts, so inputs reach every bound and a stalled connection ends quickly.
        server = HttpServer.builder()
                .limits(ServerLimits.defaults().toBuilder().maxRequestLineBytes(256).maxHeadBytes(1024)
                        .maxHeaderCount(16).maxChunkLineBytes(64).maxTrailerBytes(256).maxRequestBodyBytes(2048)
                        .build())
                .timeouts(ServerTimeouts.defaults().toBuilder().headerRead(Duration.ofMillis(500))
                        .bodyRead(Duration.ofMillis(500)).idle(Duration.ofMillis(500)).write(Duration.ofSeconds(2))
                        .build())
                .handler((request, response) -> response.send("read " + request.bodyBytes().length))
                .start();
    }

    @AfterAll
    static void stop() {
        SHUTTLE_LOGGER.removeHandler(WARNING_CATCHER);
        if (server != null) {
            server.close();
        }
    }

    /** {@code @Timeout} is also Jazzer's per-input limit while fuzzing. */
    @FuzzTest(maxDuration = "15s")
    @Timeout(20)
    void anyInputEndsCleanlyAndCostsNoOtherConnectionAnything(FuzzedDataProvider data) throws Exception {
        byte[] prefix = PREFIXES[data.consumeInt(0, PREFIXES.length - 1)];
        int split = data.consumeInt(1, 64);
        byte[] input = concat(prefix, data.consumeRemainingAsBytes());

        // Jazzer reports any connect as server-side request forgery; this test's only peer is its own server.
        try (SilentCloseable loopback = BugDetectors.allowNetworkConnections(
                (host, port) -> (host.equals("127.0.0.1") || host.equals("localhost")) && port == server.port())) {
            byte[] answer = exchange(input, split);
            if (prefix == GET && answer.length > 0) {
                String start = new String(answer, 0, Math.min(9, answer.length), StandardCharsets.US_ASCII);
                assertThat("HTTP/1.1 ").as("an HTTP/1.1 request gets an HTTP/1.1 answer").startsWith(start);
            }
            awaitNoOpenConnection();
            assertThat(healthyRequest()).startsWith("HTTP/1.1 200 ");
            awaitNoOpenConnection();
        }
        assertThat(WARNINGS).as("warnings logged by the server").isEmpty();
    }

    /** Writes {@code input} in pieces of {@code split} bytes, half-closes, and reads until the server closes. */
    private static byte[] exchange(byte[] input, int split) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 2_000);
            socket.setSoTimeout(5_000);
            try {
                OutputStream out = socket.getOutputStream();
                for (int i = 0; i < input.length; i += split) {
                    out.write(input, i, Math.min(split, input.length - i));
                    out.flush();
                }
                socket.shutdownOutput();
            } catch (SocketException e) {
                // The server may answer an early error and close before the rest is written: that is an end too.
            }
            return readToEnd(socket.getInputStream());
        }
    }

    private static byte[] readToEnd(InputStream in) throws IOException {
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        byte[] chunk = new byte[4096];
        try {
            for (int n; (n = in.read(chunk)) >= 0; ) {
                answer.write(chunk, 0, n);
                if (answer.size() > (1 << 20)) {
                    throw new AssertionError("more than 1 MiB of answer to " + answer.size() + " bytes");
                }
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server neither answered nor closed within 5 s of the client's EOF", e);
        } catch (SocketException e) {
            // reset after an error answer: the connection ended
        }
        return answer.toByteArray();
    }

    private static String healthyRequest() throws IOException {
        return new String(exchange(GET, GET.length), StandardCharsets.US_ASCII);
    }

    /** Connections close on their own threads a moment after the client saw EOF: wait, bounded. */
    private static void awaitNoOpenConnection() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (server.stats().open() > 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("connections left open: " + server.stats());
            }
            Thread.sleep(1);
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = new byte[a.length + b.length];
        System.arraycopy(a, 0, both, 0, a.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
