package dev.shuttle.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.RawConnection.RawResponse;
import dev.shuttle.wire.http1.Http1Exception;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Request bodies: chunked with trailers, 100-continue, the unread-body rule, the body-size limit. */
class RequestBodyTest {
    private final RecordingListener listener = new RecordingListener();
    private HttpServer server;

    private void start(ServerLimits limits, Handler handler) throws IOException {
        server = HttpServer.builder().handler(handler).limits(limits).connectionListener(listener).start();
    }

    private void start(Handler handler) throws IOException {
        start(ServerLimits.defaults(), handler);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static String post(String path, int length) {
        return "POST " + path + " HTTP/1.1\r\nHost: t\r\nContent-Length: " + length + "\r\n\r\n" + "b".repeat(length);
    }

    @Test
    void chunkedRequestBodyAndTrailersReachTheHandler() throws Exception {
        AtomicReference<String> trailer = new AtomicReference<>();
        start((request, response) -> {
            assertThat(request.contentLength()).isEqualTo(request.method().equals("POST") ? -1 : 0);
            String body = new String(request.bodyBytes());
            if (request.method().equals("POST")) {
                trailer.set(request.trailers().first("Checksum"));
            }
            response.send(body);
        });
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("POST /c HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5;ext=1\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nChecksum: abc\r\n\r\n");
            assertThat(connection.readResponse().bodyText()).isEqualTo("hello world");
            assertThat(connection.get("/after").status()).isEqualTo(200);
        }
        assertThat(trailer).hasValue("abc");
    }

    @Test
    void continueIsSentWhenTheHandlerReadsTheBody() throws Exception {
        start((request, response) -> response.send("got " + request.bodyBytes().length));
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("POST /up HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n");
            RawResponse interim = connection.readResponse(true);
            assertThat(interim.status()).isEqualTo(100);
            connection.send("data");
            RawResponse response = connection.readResponse();
            assertThat(response.bodyText()).isEqualTo("got 4");
            assertThat(response.header("Connection")).isNull();
            assertThat(connection.get("/next").status()).isEqualTo(200);
        }
    }

    @Test
    void noContinueWhenTheHandlerAnswersWithoutReadingAndTheConnectionCloses() throws Exception {
        start((request, response) -> response.status(403).send("no"));
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("POST /up HTTP/1.1\r\nHost: t\r\nContent-Length: 100000\r\nExpect: 100-continue\r\n\r\n");
            RawResponse response = connection.readResponse(true);
            assertThat(response.status()).isEqualTo(403);
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(connection.isClosedByServer()).isTrue();
        }
    }

    @Test
    void unsupportedExpectationIsRejected() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        start((request, response) -> calls.incrementAndGet());
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("POST /up HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\nExpect: teapot\r\n\r\nx");
            assertThat(connection.readResponse().status()).isEqualTo(417);
            assertThat(connection.isClosedByServer()).isTrue();
        }
        assertThat(calls).hasValue(0);
    }

    @Test
    void smallUnreadBodyIsDiscardedAndTheConnectionKept() throws Exception {
        start((request, response) -> response.send("ignored your body"));
        try (RawConnection connection = new RawConnection(server)) {
            connection.send(post("/small", 100_000));
            RawResponse response = connection.readResponse();
            assertThat(response.bodyText()).isEqualTo("ignored your body");
            assertThat(response.header("Connection")).isNull();
            assertThat(connection.get("/next").bodyText()).isEqualTo("ignored your body");
        }
        assertThat(server.stats().accepted()).isEqualTo(1);
    }

    @Test
    void smallUnreadChunkedBodyIsDiscardedAndTheConnectionKept() throws Exception {
        start((request, response) -> response.send("ok"));
        try (RawConnection connection = new RawConnection(server)) {
            String chunk = "x".repeat(4096);
            StringBuilder request =
                    new StringBuilder("POST /c HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n");
            for (int i = 0; i < 10; i++) {
                request.append("1000\r\n").append(chunk).append("\r\n");
            }
            connection.send(request.append("0\r\n\r\n").toString());
            assertThat(connection.readResponse().bodyText()).isEqualTo("ok");
            assertThat(connection.get("/next").bodyText()).isEqualTo("ok");
        }
    }

    @Test
    void partlyReadBodyIsDiscardedAndTheConnectionKept() throws Exception {
        start((request, response) -> {
            byte[] first = request.body().readNBytes(10);
            response.send("read " + first.length);
        });
        try (RawConnection connection = new RawConnection(server)) {
            connection.send(post("/part", 50_000));
            assertThat(connection.readResponse().bodyText()).isEqualTo("read 10");
            assertThat(connection.get("/next").bodyText()).isEqualTo("read 0");
        }
    }

    @Test
    void largeUnreadBodyClosesTheConnectionAfterTheResponse() throws Exception {
        start((request, response) -> response.send("not reading that"));
        try (RawConnection connection = new RawConnection(server)) {
            // Declared 1 MiB, more than the 256 KiB the server discards: it says so and closes.
            connection.send("POST /big HTTP/1.1\r\nHost: t\r\nContent-Length: 1048576\r\n\r\n" + "b".repeat(10_000));
            RawResponse response = connection.readResponse();
            assertThat(response.bodyText()).isEqualTo("not reading that");
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(connection.isClosedByServer()).isTrue();
        }
    }

    @Test
    void unreadBodyOfExactlyTheDiscardLimitKeepsTheConnection() throws Exception {
        start((request, response) -> response.send("ok"));
        try (RawConnection connection = new RawConnection(server)) {
            connection.send(post("/edge", 256 * 1024));
            RawResponse response = connection.readResponse();
            assertThat(response.header("Connection")).isNull();
            assertThat(connection.get("/next").bodyText()).isEqualTo("ok");
        }
        assertThat(server.stats().accepted()).isEqualTo(1);
    }

    @Test
    void unreadBodyOneByteOverTheDiscardLimitClosesTheConnection() throws Exception {
        start((request, response) -> response.send("ok"));
        try (RawConnection connection = new RawConnection(server)) {
            connection.send(post("/edge", 256 * 1024 + 1));
            RawResponse response = connection.readResponse();
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(connection.isClosedByServer()).isTrue();
        }
    }

    @Test
    void unreadChunkedBodyOfExactlyTheDiscardLimitWaitsForItsLateTerminator() throws Exception {
        start(ServerLimits.builder().unreadBodyDiscardBytes(1000).build(), (request, response) -> response.send("ok"));
        try (RawConnection connection = new RawConnection(server)) {
            // Exactly the allowance of body bytes; the framing after them is sent only once the response arrived, so
            // the server has discarded all it may before the terminator is there to read.
            connection.send("POST /c HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "3e8\r\n" + "x".repeat(1000));
            RawResponse response = connection.readResponse();
            assertThat(response.bodyText()).isEqualTo("ok");
            assertThat(response.header("Connection")).isNull();
            connection.send("\r\n0\r\nX-Checksum: 1\r\n\r\n");
            assertThat(connection.get("/next").bodyText()).isEqualTo("ok");
        }
        assertThat(server.stats().accepted()).isEqualTo(1);
        assertThat(server.stats().requests()).isEqualTo(2);
    }

    @Test
    void unreadChunkedBodyGoingOnPastTheDiscardLimitClosesTheConnection() throws Exception {
        start(ServerLimits.builder().unreadBodyDiscardBytes(1000).build(), (request, response) -> response.send("no"));
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("POST /c HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "3e8\r\n" + "x".repeat(1000));
            assertThat(connection.readResponse().bodyText()).isEqualTo("no");
            // After the allowance's last byte comes another chunk: one body byte too many.
            connection.send("\r\n1\r\nx\r\n0\r\n\r\n");
            assertThat(connection.isClosedByServer()).isTrue();
        }
        assertThat(server.stats().requests()).isEqualTo(1);
    }

    @Test
    void largeUnreadChunkedBodyClosesTheConnection() throws Exception {
        start(ServerLimits.builder().unreadBodyDiscardBytes(1000).build(), (request, response) -> response.send("no"));
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("POST /c HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "7d0\r\n" + "x".repeat(2000) + "\r\n0\r\n\r\n");
            assertThat(connection.readResponse().bodyText()).isEqualTo("no");
            assertThat(connection.isClosedByServer()).isTrue();
        }
    }

    @Test
    void declaredBodyOverTheLimitIsRejectedBeforeTheHandler() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        start(ServerLimits.builder().maxRequestBodyBytes(1000).build(), (request, response) -> calls.incrementAndGet());
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("POST /big HTTP/1.1\r\nHost: t\r\nContent-Length: 1001\r\nExpect: 100-continue\r\n\r\n");
            RawResponse response = connection.readResponse(true);
            assertThat(response.status()).isEqualTo(413);
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(connection.isClosedByServer()).isTrue();
        }
        assertThat(calls).hasValue(0);
    }

    @Test
    void chunkedBodyOverTheLimitFailsTheReadAndAnswers413() throws Exception {
        AtomicReference<Throwable> seen = new AtomicReference<>();
        start(ServerLimits.builder().maxRequestBodyBytes(1000).build(), (request, response) -> {
            try {
                request.bodyBytes();
            } catch (IOException e) {
                seen.set(e);
                throw e;
            }
        });
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("POST /c HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "400\r\n" + "x".repeat(1024) + "\r\n0\r\n\r\n");
            RawResponse response = connection.readResponse();
            assertThat(response.status()).isEqualTo(413);
            assertThat(connection.isClosedByServer()).isTrue();
        }
        assertThat(seen.get()).isInstanceOf(Http1Exception.class);
        assertThat(((Http1Exception) seen.get()).status()).isEqualTo(413);
    }

    @Test
    void malformedChunkedBodyAnswers400EvenWhenTheHandlerIgnoresIt() throws Exception {
        start((request, response) -> {
            request.bodyBytes();
            response.send("unreachable");
        });
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("POST /c HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n");
            assertThat(connection.readResponse().status()).isEqualTo(400);
            assertThat(connection.isClosedByServer()).isTrue();
        }
    }

    @Test
    void bodyReadAfterCloseFails() throws Exception {
        AtomicReference<Throwable> seen = new AtomicReference<>();
        start((request, response) -> {
            request.body().close();
            try {
                request.body().read();
            } catch (IOException e) {
                seen.set(e);
            }
            response.send("ok");
        });
        try (RawConnection connection = new RawConnection(server)) {
            connection.send(post("/x", 10));
            assertThat(connection.readResponse().bodyText()).isEqualTo("ok");
            assertThat(connection.get("/y").status()).isEqualTo(200);
        }
        assertThat(seen.get()).hasMessageContaining("closed");
    }
}
