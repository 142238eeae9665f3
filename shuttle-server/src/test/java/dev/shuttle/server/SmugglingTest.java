package dev.shuttle.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.RawConnection.RawResponse;
import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Request smuggling and oversized heads over raw sockets: every ambiguous framing is refused with its documented
 * status, {@code Connection: close} and a close, while a second connection is served before and after; the log line
 * for it holds no control character and no long copy of what the attacker sent. Framings that are odd but
 * unambiguous are accepted and framed exactly, so a request pipelined behind them is answered as itself.
 */
@Timeout(30)
class SmugglingTest {
    /** Long attacker-chosen text: the log may quote an excerpt, never all of it. */
    private static final String POISON = "P".repeat(2000);
    private static final String LONG_TARGET = "/" + POISON;

    private static HttpServer server;

    @BeforeAll
    static void start() throws IOException {
        server = HttpServer.builder()
                .limits(ServerLimits.builder().maxRequestBodyBytes(64 * 1024).build())
                .handler((request, response) -> response.send("read " + request.bodyBytes().length + " on "
                        + request.path().length()))
                .start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static Stream<Arguments> refused() {
        String post = "POST " + LONG_TARGET + " HTTP/1.1\r\nHost: t\r\n";
        return Stream.of(
                // CL.TE and TE.CL: a front end that honours the other header would see a different body end.
                Arguments.of("CL.TE", 400, post + "Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "0\r\n\r\nG"),
                Arguments.of("TE.CL", 400, post + "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n"
                        + "8\r\nSMUGGLED\r\n0\r\n\r\n"),
                // TE.TE: Transfer-Encoding obfuscated so that one of two servers does not recognise it.
                Arguments.of("TE.TE: xchunked", 400, post + "Transfer-Encoding: xchunked\r\n\r\n0\r\n\r\n"),
                Arguments.of("TE.TE: chunk", 400, post + "Transfer-Encoding: chunk\r\n\r\n0\r\n\r\n"),
                Arguments.of("TE.TE: quoted", 400, post + "Transfer-Encoding: \"chunked\"\r\n\r\n0\r\n\r\n"),
                Arguments.of("TE.TE: second field not chunked", 400,
                        post + "Transfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n\r\n0\r\n\r\n"),
                Arguments.of("TE.TE: chunked twice", 400, post + "Transfer-Encoding: chunked, chunked\r\n\r\n"
                        + "0\r\n\r\n"),
                Arguments.of("TE.TE: space before colon", 400, post + "Transfer-Encoding : chunked\r\n\r\n"
                        + "0\r\n\r\n"),
                Arguments.of("TE.TE: folded onto the previous line", 400, post + "X-A: b\r\n"
                        + " Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
                Arguments.of("TE.TE: vertical tab", 400, post + "Transfer-Encoding: chunked\u000b\r\n\r\n"
                        + "0\r\n\r\n"),
                Arguments.of("TE.TE: bare LF before it", 400, post + "X-A: b\nTransfer-Encoding: chunked\r\n\r\n"
                        + "0\r\n\r\n"),
                Arguments.of("TE.TE: empty", 400, post + "Transfer-Encoding: \r\n\r\n"),
                Arguments.of("TE.TE: long coding list", 400, post + "Transfer-Encoding: " + POISON
                        + ", x\r\n\r\n0\r\n\r\n"),
                Arguments.of("TE with an unimplemented coding", 501, post + "Transfer-Encoding: gzip, chunked\r\n\r\n"
                        + "0\r\n\r\n"),
                Arguments.of("TE on HTTP/1.0", 400, "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "0\r\n\r\n"),
                // Content-Length that two parsers could read differently.
                Arguments.of("duplicate differing Content-Length", 400, post + "Content-Length: 3\r\n"
                        + "Content-Length: 4\r\n\r\nabcd"),
                Arguments.of("comma-listed differing Content-Length", 400, post + "Content-Length: 3, 4\r\n\r\nabcd"),
                Arguments.of("Content-Length with a sign", 400, post + "Content-Length: +3\r\n\r\nabc"),
                Arguments.of("negative Content-Length", 400, post + "Content-Length: -1\r\n\r\n"),
                Arguments.of("hex Content-Length", 400, post + "Content-Length: 0x3\r\n\r\nabc"),
                Arguments.of("Content-Length with inner space", 400, post + "Content-Length: 1 2\r\n\r\nabc"),
                Arguments.of("Content-Length beyond 2^63", 400, post + "Content-Length: 99999999999999999999\r\n\r\n"),
                Arguments.of("empty Content-Length", 400, post + "Content-Length: \r\n\r\n"),
                // Chunked framing.
                Arguments.of("chunk size overflow", 400, post + "Transfer-Encoding: chunked\r\n\r\n"
                        + "10000000000000000000\r\nx\r\n0\r\n\r\n"),
                Arguments.of("chunk size with a sign", 400, post + "Transfer-Encoding: chunked\r\n\r\n"
                        + "-5\r\nhello\r\n0\r\n\r\n"),
                Arguments.of("chunk size with 0x", 400, post + "Transfer-Encoding: chunked\r\n\r\n"
                        + "0x5\r\nhello\r\n0\r\n\r\n"),
                Arguments.of("chunk extension without end (no LF ever sent)", 400, post
                        + "Transfer-Encoding: chunked\r\n\r\n1;ext=" + "e".repeat(5000)),
                Arguments.of("chunk data not followed by CRLF", 400, post + "Transfer-Encoding: chunked\r\n\r\n"
                        + "3\r\nabcX\r\n0\r\n\r\n"),
                Arguments.of("bare LF after chunk size", 400, post + "Transfer-Encoding: chunked\r\n\r\n"
                        + "3\nabc\r\n0\r\n\r\n"),
                Arguments.of("bare CR in chunk size line", 400, post + "Transfer-Encoding: chunked\r\n\r\n"
                        + "3\rabc\r\n0\r\n\r\n"),
                // Line endings and folding.
                Arguments.of("bare LF line endings", 400, "GET / HTTP/1.1\nHost: t\n\n"),
                Arguments.of("bare CR in the request line", 400, "GET /\r HTTP/1.1\r\nHost: t\r\n\r\n"),
                Arguments.of("bare CR in a field", 400, "GET / HTTP/1.1\r\nHost: t\r\nX-A: a\rb\r\n\r\n"),
                Arguments.of("NUL in a field", 400, "GET / HTTP/1.1\r\nHost: t\r\nX-A: a\0b\r\n\r\n"),
                Arguments.of("obs-fold", 400, "GET / HTTP/1.1\r\nHost: t\r\nX-A: a\r\n b\r\n\r\n"),
                Arguments.of("escape sequence in the target", 400, "GET /\u001b[31mred HTTP/1.1\r\nHost: t\r\n\r\n"),
                // Host.
                Arguments.of("missing Host on HTTP/1.1", 400, "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n"),
                Arguments.of("two Host fields", 400, "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"),
                Arguments.of("Host with a path", 400, "GET / HTTP/1.1\r\nHost: a/b\r\n\r\n"),
                Arguments.of("absolute form with a conflicting Host", 400,
                        "GET http://internal.example/admin HTTP/1.1\r\nHost: public.example\r\n\r\n"),
                Arguments.of("absolute form with a conflicting port", 400,
                        "GET http://t:8081/ HTTP/1.1\r\nHost: t\r\n\r\n"),
                // Sizes.
                Arguments.of("request line over 8 KiB", 414, "GET /" + "a".repeat(9000) + " HTTP/1.1\r\nHost: t\r\n\r\n"),
                Arguments.of("request line over 8 KiB, never ended", 414, "GET /" + "a".repeat(9000)),
                Arguments.of("head over 16 KiB", 431, "GET / HTTP/1.1\r\nHost: t\r\n"
                        + ("X-Filler: " + "f".repeat(1000) + "\r\n").repeat(20) + "\r\n"),
                Arguments.of("one field over 16 KiB, never ended", 431, "GET / HTTP/1.1\r\nHost: t\r\nX-A: "
                        + "a".repeat(17_000)),
                Arguments.of("more than 100 fields", 431, "GET / HTTP/1.1\r\nHost: t\r\n" + "X-F: 1\r\n".repeat(101)
                        + "\r\n"),
                Arguments.of("declared body over the limit", 413, post + "Content-Length: 65537\r\n\r\n"),
                Arguments.of("unsupported version", 505, "GET / HTTP/1.2\r\nHost: t\r\n\r\n"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("refused")
    void ambiguousOrOversizedRequestIsRefusedAndClosed(String what, int status, String request) throws Exception {
        try (LogCapture log = new LogCapture();
             RawConnection bystander = new RawConnection(server);
             RawConnection attacker = new RawConnection(server)) {
            assertThat(bystander.get("/before").status()).isEqualTo(200);

            attacker.send(request);
            RawResponse response = attacker.readResponse();
            assertThat(response.status()).as(what).isEqualTo(status);
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(response.bodyText()).startsWith(Integer.toString(status)).doesNotContain(POISON.substring(0, 300));
            assertThat(attacker.isClosedByServer()).as("closed after " + what).isTrue();

            assertThat(bystander.get("/after").bodyText()).isEqualTo("read 0 on 6");
            assertThat(log.entries()).as("log lines").isNotEmpty().allSatisfy(entry -> {
                assertThat(entry.message()).hasSizeLessThan(600).doesNotContain(POISON.substring(0, 100));
                assertThat(entry.message().chars().filter(c -> c < 0x20 || (c >= 0x7f && c < 0xa0))).isEmpty();
                assertThat(entry.thrown()).isNull();
            });
        }
    }

    static Stream<Arguments> acceptedAndFramedExactly() {
        String post = "POST /first HTTP/1.1\r\nHost: t\r\n";
        return Stream.of(
                Arguments.of("identical repeated Content-Length", post + "Content-Length: 5\r\nContent-Length: 5\r\n"
                        + "\r\nhello", "read 5 on 6"),
                Arguments.of("identical listed Content-Length", post + "Content-Length: 5, 5\r\n\r\nhello",
                        "read 5 on 6"),
                Arguments.of("chunked in capitals", post + "Transfer-Encoding: CHUNKED\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
                        "read 5 on 6"),
                Arguments.of("chunked after a tab", post + "Transfer-Encoding:\tchunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
                        "read 5 on 6"),
                Arguments.of("short chunk extensions", post + "Transfer-Encoding: chunked\r\n\r\n"
                        + "5;a=b;c=\"d\"\r\nhello\r\n0;x\r\n\r\n", "read 5 on 6"),
                Arguments.of("body that looks like a request", post + "Content-Length: 35\r\n\r\n"
                        + "GET /smuggled HTTP/1.1\r\nHost: t\r\n\r\n", "read 35 on 6"),
                Arguments.of("absolute form with the same Host", "GET http://T/first HTTP/1.1\r\nHost: t\r\n\r\n",
                        "read 0 on 6"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("acceptedAndFramedExactly")
    void oddButUnambiguousFramingIsHonouredExactly(String what, String request, String answer) throws Exception {
        try (RawConnection client = new RawConnection(server)) {
            // The next request is pipelined right behind: any disagreement about where the body ends shows here.
            client.send(request + "GET /second-request HTTP/1.1\r\nHost: t\r\n\r\n");
            assertThat(client.readResponse().bodyText()).as(what).isEqualTo(answer);
            assertThat(client.readResponse().bodyText()).as(what).isEqualTo("read 0 on 15");
        }
    }
}
