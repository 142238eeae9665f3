package dev.shuttle.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.RawConnection.RawResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * HTTP/1.1: a handler that fails once its response is committed, or whose body breaks its own Content-Length, ends
 * the response so the client can tell (what was written, then the close), and the server says so once at WARNING.
 */
class CommittedFailureTest {
    private HttpServer server;
    private final LogCapture log = new LogCapture();

    private void start(Handler handler) throws IOException {
        server = HttpServer.builder().handler(handler).http2(Http2Options.disabled()).start();
    }

    @AfterEach
    void stop() {
        log.close();
        if (server != null) {
            server.close();
        }
    }

    @Test
    void sendAfterWritingToTheBodyAppendsAndCountsBoth() throws Exception {
        start((request, response) -> {
            response.body().write("abc".getBytes(StandardCharsets.US_ASCII));
            response.send("def");
        });
        try (RawConnection connection = new RawConnection(server)) {
            RawResponse response = connection.get("/");
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("Content-Length")).isEqualTo("6");
            assertThat(response.bodyText()).isEqualTo("abcdef");
            assertThat(connection.get("/again").bodyText()).isEqualTo("abcdef"); // the connection is fine
        }
        assertThat(log.warnings()).isEmpty();
    }

    @Test
    void aBodyLongerThanItsContentLengthSendsTheHeadThenCloses() throws Exception {
        start((request, response) -> {
            response.contentLength(3);
            response.body().write("abcdef".getBytes(StandardCharsets.US_ASCII));
        });
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
            String text = new String(connection.readToEnd(), StandardCharsets.ISO_8859_1);
            // The head went out, then the close: a body short of its Content-Length, which every client reports.
            assertThat(text).startsWith("HTTP/1.1 200 OK\r\n").contains("Content-Length: 3\r\n").endsWith("\r\n\r\n");
        }
        assertOneWarning("body exceeds its Content-Length: 6 > 3");
    }

    @Test
    void aBodyShorterThanItsContentLengthSendsWhatWasWrittenThenCloses() throws Exception {
        start((request, response) -> {
            response.contentLength(10);
            response.body().write("abc".getBytes(StandardCharsets.US_ASCII));
        });
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
            String text = new String(connection.readToEnd(), StandardCharsets.ISO_8859_1);
            assertThat(text).contains("Content-Length: 10\r\n").endsWith("\r\n\r\nabc");
        }
        assertOneWarning("body closed after 3 of 10 bytes");
    }

    @Test
    void aFailureAfterFlushEndsTheChunksWithoutTheLastOne() throws Exception {
        start((request, response) -> {
            response.body().write("first part".getBytes(StandardCharsets.US_ASCII));
            response.flush();
            response.body().write("buffered, not yet sent".getBytes(StandardCharsets.US_ASCII));
            throw new IllegalStateException("boom");
        });
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
            String text = new String(connection.readToEnd(), StandardCharsets.ISO_8859_1);
            assertThat(text).contains("Transfer-Encoding: chunked").contains("first part")
                    .contains("buffered, not yet sent").doesNotEndWith("0\r\n\r\n");
        }
        assertOneWarning("boom");
    }

    @Test
    void theJdkClientSeesTheResponseCutShort() throws Exception {
        start((request, response) -> {
            response.contentLength(3);
            response.body().write("abcdef".getBytes(StandardCharsets.US_ASCII));
        });
        try (java.net.http.HttpClient client = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1).build()) {
            var request = java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://127.0.0.1:" + server.port() + "/")).timeout(Duration.ofSeconds(10))
                    .build();
            org.assertj.core.api.Assertions.assertThatThrownBy(
                    () -> client.send(request, java.net.http.HttpResponse.BodyHandlers.ofString()))
                    .isInstanceOf(IOException.class);
        }
        assertOneWarning("exceeds");
    }

    @Test
    void aClientThatGoesAwayMidResponseIsNoWarning() throws Exception {
        start((request, response) -> {
            byte[] block = new byte[16 * 1024];
            while (true) {
                response.body().write(block); // until the write fails
            }
        });
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
            assertThat(connection.readLine()).startsWith("HTTP/1.1 200");
            connection.socket().setSoLinger(true, 0); // a reset, as a browser tab closed mid-download
        }
        Await.until(() -> server.stats().closed() == 1);
        assertThat(log.warnings()).isEmpty();
    }

    private void assertOneWarning(String text) {
        Await.until(() -> !log.warnings().isEmpty());
        List<LogCapture.Entry> warnings = log.warnings();
        assertThat(warnings).hasSize(1);
        assertThat(warnings.getFirst().level()).isEqualTo(Level.WARNING);
        assertThat(warnings.getFirst().message()).contains("after committing");
        assertThat(String.valueOf(warnings.getFirst().thrown())).contains(text);
    }
}
