package dev.shuttle.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.RawConnection.RawResponse;
import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Connection persistence (RFC 9112 section 9): keep-alive, HTTP/1.0, Connection: close, pipelining. */
class KeepAliveTest {
    private final RecordingListener listener = new RecordingListener();
    private HttpServer server;

    private HttpServer start(Handler handler) throws IOException {
        server = HttpServer.builder().handler(handler).connectionListener(listener).start();
        return server;
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static void echoPath(Request request, Response response) throws IOException {
        response.send(request.method() + " " + request.path() + (request.query() == null ? "" : "?" + request.query()));
    }

    @Test
    void http11ConnectionServesManyRequests() throws Exception {
        start(KeepAliveTest::echoPath);
        try (RawConnection connection = new RawConnection(server)) {
            for (int i = 0; i < 5; i++) {
                RawResponse response = connection.get("/r" + i + "?n=" + i);
                assertThat(response.status()).isEqualTo(200);
                assertThat(response.bodyText()).isEqualTo("GET /r" + i + "?n=" + i);
                assertThat(response.header("Connection")).isNull();
                assertThat(response.header("Date")).isNotNull();
            }
        }
        assertThat(server.stats().accepted()).isEqualTo(1);
        assertThat(server.stats().requests()).isEqualTo(5);
    }

    @Test
    void http10WithoutKeepAliveIsClosedAfterTheResponse() throws Exception {
        start(KeepAliveTest::echoPath);
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("GET /old HTTP/1.0\r\n\r\n");
            RawResponse response = connection.readResponse();
            assertThat(response.bodyText()).isEqualTo("GET /old");
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(connection.isClosedByServer()).isTrue();
        }
    }

    @Test
    void http10WithKeepAliveStaysOpenAndSaysSo() throws Exception {
        start(KeepAliveTest::echoPath);
        try (RawConnection connection = new RawConnection(server)) {
            for (int i = 0; i < 3; i++) {
                connection.send("GET /k" + i + " HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
                RawResponse response = connection.readResponse();
                assertThat(response.bodyText()).isEqualTo("GET /k" + i);
                assertThat(response.header("Connection")).isEqualTo("keep-alive");
                assertThat(response.header("Content-Length")).isEqualTo(Integer.toString(("GET /k" + i).length()));
            }
        }
        assertThat(server.stats().accepted()).isEqualTo(1);
    }

    @Test
    void http10StreamingBodyIsCloseDelimited() throws Exception {
        start((request, response) -> {
            var out = response.body();
            for (int i = 0; i < 20; i++) {
                out.write(new byte[1000]);
            }
        });
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("GET /big HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            RawResponse response = connection.readResponse();
            assertThat(response.header("Transfer-Encoding")).isNull();
            assertThat(response.header("Content-Length")).isNull();
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(response.body()).hasSize(20_000);
        }
    }

    @Test
    void clientConnectionCloseIsHonoured() throws Exception {
        start(KeepAliveTest::echoPath);
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("GET /bye HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
            RawResponse response = connection.readResponse();
            assertThat(response.bodyText()).isEqualTo("GET /bye");
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(connection.isClosedByServer()).isTrue();
        }
        listener.awaitCount(ConnectionState.CLOSED, 1);
    }

    @Test
    void handlerConnectionCloseClosesAfterTheResponse() throws Exception {
        start((request, response) -> response.header("Connection", "close").send("done"));
        try (RawConnection connection = new RawConnection(server)) {
            RawResponse response = connection.get("/");
            assertThat(response.bodyText()).isEqualTo("done");
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(connection.isClosedByServer()).isTrue();
        }
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws Exception {
        start((request, response) -> {
            byte[] body = request.bodyBytes();
            response.send(request.path() + ":" + body.length);
        });
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("GET /first HTTP/1.1\r\nHost: t\r\n\r\n"
                    + "POST /second HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello"
                    + "POST /third HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
                    + "GET /fourth HTTP/1.1\r\nHost: t\r\n\r\n");
            assertThat(connection.readResponse().bodyText()).isEqualTo("/first:0");
            assertThat(connection.readResponse().bodyText()).isEqualTo("/second:5");
            assertThat(connection.readResponse().bodyText()).isEqualTo("/third:3");
            assertThat(connection.readResponse().bodyText()).isEqualTo("/fourth:0");
        }
        assertThat(server.stats().accepted()).isEqualTo(1);
        assertThat(server.stats().requests()).isEqualTo(4);
    }

    @Test
    void pipelinedRequestsSplitAcrossWritesAreAnsweredInOrder() throws Exception {
        start(KeepAliveTest::echoPath);
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("GET /a HTTP/1.1\r\nHost: t\r\n\r\nGET /b HT");
            assertThat(connection.readResponse().bodyText()).isEqualTo("GET /a");
            connection.send("TP/1.1\r\nHost: t\r\n\r\n");
            assertThat(connection.readResponse().bodyText()).isEqualTo("GET /b");
        }
    }

    @Test
    void absoluteFormTargetGivesPathAndQuery() throws Exception {
        start(KeepAliveTest::echoPath);
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("GET http://example.com:8080/x/y?z=1 HTTP/1.1\r\nHost: example.com:8080\r\n\r\n");
            assertThat(connection.readResponse().bodyText()).isEqualTo("GET /x/y?z=1");
            connection.send("OPTIONS * HTTP/1.1\r\nHost: t\r\n\r\n");
            assertThat(connection.readResponse().bodyText()).isEqualTo("OPTIONS *");
        }
    }

    @Test
    void emptyLinesBeforeARequestAreSkipped() throws Exception {
        start(KeepAliveTest::echoPath);
        try (RawConnection connection = new RawConnection(server)) {
            assertThat(connection.get("/one").status()).isEqualTo(200);
            connection.send("\r\nGET /two HTTP/1.1\r\nHost: t\r\n\r\n"); // a stray CRLF after a body, RFC 9112 2.2
            assertThat(connection.readResponse().bodyText()).isEqualTo("GET /two");
        }
    }
}
