package dev.shuttle.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.RawConnection.RawResponse;
import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every rejection rule answers with its status, says {@code Connection: close} and closes, while another connection
 * of the same server keeps being served before and after.
 */
class RejectionTest {
    private static HttpServer server;

    @BeforeAll
    static void start() throws IOException {
        server = HttpServer.builder()
                .limits(ServerLimits.builder().maxRequestBodyBytes(64 * 1024).build())
                .handler((request, response) -> response.send("read " + request.bodyBytes().length))
                .start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static Stream<Arguments> badRequests() {
        String manyBigFields = "X-Filler: " + "f".repeat(1000) + "\r\n";
        return Stream.of(
                Arguments.of("Content-Length with Transfer-Encoding (smuggling)", 400,
                        "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n"
                                + "0\r\n\r\n"),
                Arguments.of("two different Content-Length values", 400,
                        "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd"),
                Arguments.of("Content-Length list that disagrees", 400,
                        "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 3, 4\r\n\r\nabcd"),
                Arguments.of("non-numeric Content-Length", 400,
                        "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: +3\r\n\r\nabc"),
                Arguments.of("invalid chunk size", 400,
                        "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n"),
                Arguments.of("chunk size overflow", 400,
                        "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
                                + "10000000000000000000\r\nx\r\n0\r\n\r\n"),
                Arguments.of("obs-fold", 400,
                        "GET / HTTP/1.1\r\nHost: t\r\nX-Folded: a\r\n b\r\n\r\n"),
                Arguments.of("whitespace between field name and colon", 400,
                        "GET / HTTP/1.1\r\nHost: t\r\nContent-Length : 0\r\n\r\n"),
                Arguments.of("missing Host on HTTP/1.1", 400,
                        "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n"),
                Arguments.of("two Host fields", 400,
                        "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"),
                Arguments.of("bare CR inside a field", 400,
                        "GET / HTTP/1.1\r\nHost: t\r\nX-A: a\rb\r\n\r\n"),
                Arguments.of("NUL inside a field", 400,
                        "GET / HTTP/1.1\r\nHost: t\r\nX-A: a\0b\r\n\r\n"),
                Arguments.of("invalid method token", 400,
                        "G(E)T / HTTP/1.1\r\nHost: t\r\n\r\n"),
                Arguments.of("garbage instead of a request line", 400,
                        "\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003\r\n\r\n"),
                Arguments.of("Transfer-Encoding on HTTP/1.0", 400,
                        "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
                Arguments.of("Transfer-Encoding not ending in chunked", 400,
                        "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip\r\n\r\nabc"),
                Arguments.of("unsupported transfer coding", 501,
                        "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n"),
                Arguments.of("unsupported HTTP version", 505,
                        "GET / HTTP/2.0\r\nHost: t\r\n\r\n"),
                Arguments.of("request line over 8 KiB", 414,
                        "GET /" + "a".repeat(9000) + " HTTP/1.1\r\nHost: t\r\n\r\n"),
                Arguments.of("head over 16 KiB", 431,
                        "GET / HTTP/1.1\r\nHost: t\r\n" + manyBigFields.repeat(20) + "\r\n"),
                Arguments.of("more than 100 fields", 431,
                        "GET / HTTP/1.1\r\nHost: t\r\n" + "X-F: 1\r\n".repeat(101) + "\r\n"),
                Arguments.of("declared body over the limit", 413,
                        "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 65537\r\n\r\n" + "x".repeat(1000)),
                Arguments.of("chunked body over the limit", 413,
                        "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
                                + "8000\r\n" + "x".repeat(0x8000) + "\r\n8001\r\n" + "x".repeat(0x8001)
                                + "\r\n0\r\n\r\n"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("badRequests")
    void badInputIsAnsweredWithItsStatusAndClosed(String what, int status, String request) throws Exception {
        try (RawConnection bystander = new RawConnection(server);
             RawConnection offender = new RawConnection(server)) {
            assertThat(bystander.get("/before").status()).isEqualTo(200);

            offender.send(request);
            RawResponse response = offender.readResponse();
            assertThat(response.status()).as(what).isEqualTo(status);
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(response.bodyText()).startsWith(Integer.toString(status));
            assertThat(offender.isClosedByServer()).as("closed after " + what).isTrue();

            assertThat(bystander.get("/after").bodyText()).isEqualTo("read 0");
        }
    }
}
