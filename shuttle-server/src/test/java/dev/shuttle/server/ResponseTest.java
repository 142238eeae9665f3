package dev.shuttle.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.shuttle.server.RawConnection.RawResponse;
import dev.shuttle.wire.Headers;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Response framing chosen at commit, HEAD, trailers, flush, and handler failures. */
class ResponseTest {
    private HttpServer server;

    private void start(Handler handler) throws IOException {
        server = HttpServer.builder().handler(handler).start();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static void writeBytes(Response response, int size) throws IOException {
        OutputStream out = response.body();
        byte[] block = new byte[1000];
        for (int sent = 0; sent < size; sent += block.length) {
            out.write(block, 0, Math.min(block.length, size - sent));
        }
    }

    @Test
    void smallBodyGetsAContentLength() throws Exception {
        start((request, response) -> writeBytes(response, 8 * 1024));
        try (RawConnection connection = new RawConnection(server)) {
            RawResponse response = connection.get("/");
            assertThat(response.header("Content-Length")).isEqualTo("8192");
            assertThat(response.header("Transfer-Encoding")).isNull();
            assertThat(response.body()).hasSize(8192);
        }
    }

    @Test
    void largerBodyIsChunked() throws Exception {
        start((request, response) -> writeBytes(response, 8 * 1024 + 1));
        try (RawConnection connection = new RawConnection(server)) {
            RawResponse response = connection.get("/");
            assertThat(response.header("Content-Length")).isNull();
            assertThat(response.header("Transfer-Encoding")).isEqualTo("chunked");
            assertThat(response.body()).hasSize(8 * 1024 + 1);
            assertThat(connection.get("/again").body()).hasSize(8 * 1024 + 1);
        }
    }

    @Test
    void emptyResponseHasContentLengthZero() throws Exception {
        start((request, response) -> response.status(201));
        try (RawConnection connection = new RawConnection(server)) {
            RawResponse response = connection.get("/");
            assertThat(response.status()).isEqualTo(201);
            assertThat(response.header("Content-Length")).isEqualTo("0");
        }
    }

    @Test
    void explicitContentLengthIsSentForALargeBody() throws Exception {
        start((request, response) -> {
            response.contentLength(100_000);
            writeBytes(response, 100_000);
        });
        try (RawConnection connection = new RawConnection(server)) {
            RawResponse response = connection.get("/");
            assertThat(response.header("Content-Length")).isEqualTo("100000");
            assertThat(response.header("Transfer-Encoding")).isNull();
            assertThat(response.body()).hasSize(100_000);
            assertThat(connection.get("/again").body()).hasSize(100_000);
        }
    }

    @Test
    void bodyShorterThanItsContentLengthClosesTheConnection() throws Exception {
        start((request, response) -> {
            response.contentLength(100_000);
            writeBytes(response, 50_000);
        });
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
            byte[] all = connection.readToEnd();
            String text = new String(all, StandardCharsets.ISO_8859_1);
            assertThat(text).startsWith("HTTP/1.1 200 OK\r\n").contains("Content-Length: 100000");
            assertThat(all.length - text.indexOf("\r\n\r\n") - 4).isLessThan(100_000);
        }
    }

    @Test
    void trailersFollowAChunkedBody() throws Exception {
        start((request, response) -> {
            writeBytes(response, 20_000);
            response.trailers(Headers.of("Checksum", "xyz", "Server-Timing", "db;dur=53"));
        });
        try (RawConnection connection = new RawConnection(server)) {
            RawResponse response = connection.get("/");
            assertThat(response.header("Transfer-Encoding")).isEqualTo("chunked");
            assertThat(response.body()).hasSize(20_000);
            assertThat(response.trailer("Checksum")).isEqualTo("xyz");
            assertThat(response.trailer("Server-Timing")).isEqualTo("db;dur=53");
        }
    }

    @Test
    void trailersOnASmallBodyForceChunked() throws Exception {
        start((request, response) -> {
            response.body().write("tiny".getBytes(StandardCharsets.US_ASCII));
            response.trailers(Headers.of("Checksum", "t"));
        });
        try (RawConnection connection = new RawConnection(server)) {
            RawResponse response = connection.get("/");
            assertThat(response.header("Transfer-Encoding")).isEqualTo("chunked");
            assertThat(response.bodyText()).isEqualTo("tiny");
            assertThat(response.trailer("Checksum")).isEqualTo("t");
        }
    }

    @Test
    void headGetsTheHeadersOfAGetAndNoBody() throws Exception {
        start((request, response) -> response.header("Content-Type", "text/plain").send("twelve bytes"));
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("HEAD /h HTTP/1.1\r\nHost: t\r\n\r\n");
            RawResponse head = connection.readHeadResponse();
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("Content-Length")).isEqualTo("12");
            assertThat(head.header("Content-Type")).isEqualTo("text/plain");
            // No body bytes followed: the next response starts right away.
            assertThat(connection.get("/g").bodyText()).isEqualTo("twelve bytes");
        }
    }

    @Test
    void headWithAStreamedBodySendsNoFramingAndNoBody() throws Exception {
        start((request, response) -> writeBytes(response, 50_000));
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("HEAD /h HTTP/1.1\r\nHost: t\r\n\r\n");
            RawResponse head = connection.readHeadResponse();
            assertThat(head.header("Content-Length")).isNull();
            assertThat(head.header("Transfer-Encoding")).isNull();
            assertThat(connection.get("/g").body()).hasSize(50_000);
        }
    }

    @Test
    void sendOfAnArrayLargerThanTheBuffersGoesOutWithItsContentLength() throws Exception {
        byte[] body = new byte[40_000];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) ('a' + i % 26);
        }
        start((request, response) -> response.send(body));
        try (RawConnection connection = new RawConnection(server)) {
            RawResponse response = connection.get("/");
            assertThat(response.header("Content-Length")).isEqualTo("40000");
            assertThat(response.body()).isEqualTo(body);
            assertThat(connection.get("/again").body()).isEqualTo(body);
        }
    }

    @Test
    void sendAfterAFlushStreamsThroughTheCommittedFraming() throws Exception {
        start((request, response) -> {
            response.flush();
            response.send("late".getBytes(StandardCharsets.US_ASCII));
        });
        try (RawConnection connection = new RawConnection(server)) {
            RawResponse response = connection.get("/");
            assertThat(response.header("Transfer-Encoding")).isEqualTo("chunked");
            assertThat(response.bodyText()).isEqualTo("late");
            assertThat(connection.get("/again").bodyText()).isEqualTo("late");
        }
    }

    @Test
    void sendOnANoContentResponseFails() throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        start((request, response) -> {
            response.status(204);
            try {
                response.send("body".getBytes(StandardCharsets.US_ASCII));
            } catch (IOException e) {
                failure.set(e);
            }
        });
        try (RawConnection connection = new RawConnection(server)) {
            RawResponse response = connection.get("/");
            assertThat(response.status()).isEqualTo(204);
            assertThat(connection.get("/again").status()).isEqualTo(204);
        }
        assertThat(failure.get()).hasMessageContaining("204");
    }

    @Test
    void noContentRefusesABody() throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        start((request, response) -> {
            response.status(204);
            try {
                response.body().write(1);
            } catch (IOException e) {
                failure.set(e);
            }
        });
        try (RawConnection connection = new RawConnection(server)) {
            RawResponse response = connection.get("/");
            assertThat(response.status()).isEqualTo(204);
            assertThat(response.header("Content-Length")).isNull();
            assertThat(connection.get("/again").status()).isEqualTo(204);
        }
        assertThat(failure.get()).hasMessageContaining("204");
    }

    @Test
    void flushCommitsAndDeliversBeforeTheHandlerReturns() throws Exception {
        CountDownLatch clientSawFirstEvent = new CountDownLatch(1);
        start((request, response) -> {
            response.header("Content-Type", "text/event-stream");
            OutputStream out = response.body();
            out.write("data: one\n\n".getBytes(StandardCharsets.UTF_8));
            response.flush();
            if (!clientSawFirstEvent.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the client never saw the first event");
            }
            out.write("data: two\n\n".getBytes(StandardCharsets.UTF_8));
        });
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("GET /events HTTP/1.1\r\nHost: t\r\n\r\n");
            assertThat(connection.readLine()).isEqualTo("HTTP/1.1 200 OK");
            String line;
            boolean chunked = false;
            while (!(line = connection.readLine()).isEmpty()) {
                chunked |= line.equalsIgnoreCase("Transfer-Encoding: chunked");
            }
            assertThat(chunked).isTrue();
            assertThat(connection.readLine()).isEqualTo("b");
            assertThat(connection.readLine()).isEqualTo("data: one");
            clientSawFirstEvent.countDown();
            assertThat(connection.readLine()).isEmpty();
            assertThat(connection.readLine()).isEmpty(); // end of the chunk's data, then its CRLF
            assertThat(connection.readLine()).isEqualTo("b");
        }
    }

    @Test
    void handlerFailureBeforeCommitIs500() throws Exception {
        start((request, response) -> {
            response.header("X-Half", "set");
            response.body().write("partial".getBytes(StandardCharsets.UTF_8));
            throw new IllegalStateException("boom");
        });
        try (RawConnection connection = new RawConnection(server)) {
            RawResponse response = connection.get("/");
            assertThat(response.status()).isEqualTo(500);
            assertThat(response.header("X-Half")).isNull();
            assertThat(response.bodyText()).doesNotContain("partial").doesNotContain("boom");
            assertThat(connection.isClosedByServer()).isTrue();
        }
        try (RawConnection other = new RawConnection(server)) {
            assertThat(other.get("/").status()).isEqualTo(500); // the server itself is fine
        }
    }

    @Test
    void handlerFailureAfterCommitCutsTheResponseOff() throws Exception {
        start((request, response) -> {
            writeBytes(response, 20_000);
            response.flush();
            throw new IllegalStateException("boom");
        });
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
            String text = new String(connection.readToEnd(), StandardCharsets.ISO_8859_1);
            assertThat(text).startsWith("HTTP/1.1 200 OK").contains("Transfer-Encoding: chunked");
            assertThat(text).doesNotEndWith("0\r\n\r\n"); // no last chunk: the client knows it is truncated
        }
    }

    @Test
    void statusAndHeadersAreFrozenOnceCommitted() throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        start((request, response) -> {
            response.flush();
            try {
                response.status(404);
            } catch (IllegalStateException e) {
                failure.set(e);
            }
        });
        try (RawConnection connection = new RawConnection(server)) {
            assertThat(connection.get("/").status()).isEqualTo(200);
        }
        assertThat(failure.get()).hasMessageContaining("committed");
    }

    @Test
    void handlerCannotChooseTheTransferEncoding() throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        start((request, response) -> {
            try {
                response.header("Transfer-Encoding", "chunked");
            } catch (IllegalArgumentException e) {
                failure.set(e);
            }
            response.header("Content-Length", "2").body().write("ok".getBytes(StandardCharsets.US_ASCII));
        });
        try (RawConnection connection = new RawConnection(server)) {
            RawResponse response = connection.get("/");
            assertThat(response.header("Content-Length")).isEqualTo("2");
            assertThat(response.bodyText()).isEqualTo("ok");
        }
        assertThat(failure.get()).isNotNull();
    }

    @Test
    void sendSetsTextPlainUnlessAContentTypeWasSet() throws Exception {
        start((request, response) -> {
            if (request.path().equals("/json")) {
                response.header("Content-Type", "application/json");
            }
            response.send("{}");
        });
        try (RawConnection connection = new RawConnection(server)) {
            assertThat(connection.get("/text").header("Content-Type")).isEqualTo("text/plain; charset=utf-8");
            assertThat(connection.get("/json").header("Content-Type")).isEqualTo("application/json");
        }
    }

    @Test
    void interimOrOutOfRangeStatusIsRefused() throws Exception {
        AtomicReference<Throwable> interim = new AtomicReference<>();
        AtomicReference<Throwable> tooLarge = new AtomicReference<>();
        start((request, response) -> {
            interim.set(catchThrowable(() -> response.status(100)));
            tooLarge.set(catchThrowable(() -> response.status(1000)));
            response.send(299, "fine");
        });
        try (RawConnection connection = new RawConnection(server)) {
            assertThat(connection.get("/").status()).isEqualTo(299);
        }
        assertThat(interim.get()).isInstanceOf(IllegalArgumentException.class);
        assertThat(tooLarge.get()).isInstanceOf(IllegalArgumentException.class);
    }
}
