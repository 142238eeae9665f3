package dev.shuttle.wire.http1;

import static dev.shuttle.wire.http1.Bytes.buffer;
import static dev.shuttle.wire.http1.Bytes.latin1;
import static dev.shuttle.wire.http1.Bytes.remainingText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class Http1HeadParserRequestTest {
    private final Http1HeadParser parser = new Http1HeadParser(Http1Limits.serverDefaults());

    @Test
    void parsesRequestLineAndFieldsInOrder() throws Exception {
        RequestHead head = parse("GET /a/b?c=d HTTP/1.1\r\nHost: example.com\r\nAccept: text/html\r\n"
                + "X-Multi: 1\r\naccept: */*\r\nX-Multi: 2\r\n\r\n");

        assertThat(head.method()).isEqualTo("GET");
        assertThat(head.target()).isEqualTo("/a/b?c=d");
        assertThat(head.version()).isEqualTo(HttpVersion.HTTP_1_1);
        assertThat(head.headers()).isEqualTo(Headers.of("Host", "example.com", "Accept", "text/html",
                "X-Multi", "1", "accept", "*/*", "X-Multi", "2"));
        assertThat(head.headers().all("ACCEPT")).containsExactly("text/html", "*/*");
        assertThat(head.headers().all("x-multi")).containsExactly("1", "2");
    }

    @Test
    void trimsOptionalWhitespaceAroundValuesAndKeepsInnerWhitespace() throws Exception {
        RequestHead head = parse("GET / HTTP/1.1\r\nHost:a\r\nX-A: \t b \t c \t\r\nX-Empty:\r\nX-Blank:   \r\n\r\n");

        assertThat(head.headers().first("Host")).isEqualTo("a");
        assertThat(head.headers().first("X-A")).isEqualTo("b \t c");
        assertThat(head.headers().first("X-Empty")).isEmpty();
        assertThat(head.headers().first("X-Blank")).isEmpty();
    }

    @Test
    void decodesObsTextAsLatin1() throws Exception {
        RequestHead head = parseBytes(latin1("GET / HTTP/1.1\r\nHost: a\r\nX-Name: caf\u00e9\r\n\r\n"));

        assertThat(head.headers().first("X-Name")).isEqualTo("caf\u00e9");
    }

    @Test
    void acceptsHttp10WithoutHost() throws Exception {
        RequestHead head = parse("GET / HTTP/1.0\r\n\r\n");

        assertThat(head.version()).isEqualTo(HttpVersion.HTTP_1_0);
        assertThat(head.headers().isEmpty()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"*", "http://example.com:8080/x?y#z", "example.com:443", "/%20a;b=c~!$&'()*+,"})
    void acceptsEveryTargetForm(String target) throws Exception {
        String method = target.equals("example.com:443") ? "CONNECT" : "OPTIONS";
        String host = target.startsWith("http://") ? "example.com:8080" : "example.com";
        RequestHead head = parse(method + " " + target + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n");

        assertThat(head.target()).isEqualTo(target);
        assertThat(head.method()).isEqualTo(method);
    }

    @Test
    void consumesExactlyTheHeadAndLeavesTheNextBytes() throws Exception {
        ByteBuffer input = buffer("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabcGET / HTTP/1.1\r\n");

        RequestHead head = parser.parseRequest(input);

        assertThat(head.method()).isEqualTo("POST");
        assertThat(remainingText(input)).isEqualTo("abcGET / HTTP/1.1\r\n");
    }

    @Test
    void parsesPipelinedHeadsOneAfterAnother() throws Exception {
        ByteBuffer input = buffer("GET /1 HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: b\r\n\r\nGET /3 HTTP/1.1\r\n");

        assertThat(parser.parseRequest(input).target()).isEqualTo("/1");
        assertThat(parser.inProgress()).isFalse();
        assertThat(parser.parseRequest(input).target()).isEqualTo("/2");
        assertThat(parser.parseRequest(input)).isNull();
        assertThat(parser.inProgress()).isTrue();
        assertThat(parser.parseRequest(buffer("Host: c\r\n\r\n")).target()).isEqualTo("/3");
    }

    @Test
    void oneByteAtATimeParsesTheSameAsAllAtOnce() throws Exception {
        String text = "\r\nPUT /upload?x=1 HTTP/1.1\r\nHost: h\r\nContent-Type: text/plain; charset=utf-8\r\n"
                + "X-Spaces:   a b   \r\nContent-Length: 10\r\n\r\n";
        RequestHead whole = new Http1HeadParser(Http1Limits.serverDefaults()).parseRequest(buffer(text));

        ByteBuffer input = ByteBuffer.wrap(latin1(text));
        input.limit(0);
        RequestHead head = null;
        int calls = 0;
        while (head == null) {
            input.limit(input.limit() + 1);
            head = parser.parseRequest(input);
            calls++;
            assertThat(input.hasRemaining()).as("every byte consumed at once").isFalse();
        }

        assertThat(calls).isEqualTo(text.length());
        assertThat(head).isEqualTo(whole);
    }

    @Test
    void parsesFromDirectBuffersToo() throws Exception {
        byte[] bytes = latin1("GET /d HTTP/1.1\r\nHost: a\r\nX: y\r\n\r\n");
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length);
        direct.put(bytes, 0, 20).flip();

        assertThat(parser.parseRequest(direct)).isNull();
        direct.compact().put(bytes, 20, bytes.length - 20).flip();
        RequestHead head = parser.parseRequest(direct);

        assertThat(head.target()).isEqualTo("/d");
        assertThat(head.headers()).isEqualTo(Headers.of("Host", "a", "X", "y"));
    }

    @Test
    void skipsABoundedNumberOfEmptyLinesBeforeTheRequestLine() throws Exception {
        String empties = "\r\n".repeat(Http1HeadParser.MAX_LEADING_EMPTY_LINES);
        assertThat(parse(empties + "GET / HTTP/1.1\r\nHost: a\r\n\r\n").target()).isEqualTo("/");

        assertThatThrownBy(() -> parse(empties + "\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n"))
                .isInstanceOfSatisfying(Http1Exception.class, e -> assertThat(e.status()).isEqualTo(400))
                .hasMessageContaining("empty lines before the start line");
    }

    @Test
    void emptyLinesBetweenMessagesDoNotCountAsAHeadInProgress() throws Exception {
        assertThat(parser.parseRequest(buffer("\r\n\r\n"))).isNull();
        assertThat(parser.inProgress()).isFalse();
        assertThat(parser.parseRequest(buffer("G"))).isNull();
        assertThat(parser.inProgress()).isTrue();
    }

    @Test
    void resetForgetsAPartialHead() throws Exception {
        assertThat(parser.parseRequest(buffer("GET /old HTTP/1.1\r\nHo"))).isNull();

        parser.reset();

        assertThat(parser.inProgress()).isFalse();
        assertThat(parser.parseRequest(buffer("GET /new HTTP/1.1\r\nHost: a\r\n\r\n")).target()).isEqualTo("/new");
    }

    @Test
    void parsesTheNextHeadAfterAnError() throws Exception {
        assertThatThrownBy(() -> parser.parseRequest(buffer("GET / HTTP/1.1\r\nBad Name: x\r\n\r\n")))
                .isInstanceOf(Http1Exception.class);

        assertThat(parser.inProgress()).isFalse();
        assertThat(parser.parseRequest(buffer("GET /ok HTTP/1.1\r\nHost: a\r\n\r\n")).target()).isEqualTo("/ok");
    }

    @Test
    void refusesToMixARequestAndAResponseHead() throws Exception {
        parser.parseRequest(buffer("GET / HTTP/1.1\r\n"));

        assertThatThrownBy(() -> parser.parseResponse(buffer("HTTP/1.1 200 OK\r\n")))
                .isInstanceOf(IllegalStateException.class);
    }

    // --- rejections: one test per rule ---

    @Test
    void rejectsObsFold() {
        assertRejected("GET / HTTP/1.1\r\nHost: a\r\nX-Folded: one\r\n two\r\n\r\n", 400, "obs-fold");
        assertRejected("GET / HTTP/1.1\r\nHost: a\r\nX-Folded: one\r\n\ttwo\r\n\r\n", 400, "obs-fold");
    }

    @Test
    void rejectsWhitespaceBeforeTheFirstField() {
        assertRejected("GET / HTTP/1.1\r\n Host: a\r\n\r\n", 400, "obs-fold");
    }

    @Test
    void rejectsWhitespaceBetweenFieldNameAndColon() {
        assertRejected("GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400, "whitespace between header name and colon");
        assertRejected("GET / HTTP/1.1\r\nHost\t: a\r\n\r\n", 400, "whitespace between header name and colon");
    }

    @Test
    void rejectsHttp11RequestWithoutHost() {
        assertRejected("GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", 400, "without a Host");
    }

    @Test
    void rejectsMoreThanOneHost() {
        assertRejected("GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n", 400, "2 Host header fields");
        assertRejected("GET / HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n", 400, "2 Host header fields");
    }

    @Test
    void rejectsAnInvalidHostValue() {
        assertRejected("GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400, "invalid character 0x20 in Host");
        assertRejected("GET / HTTP/1.1\r\nHost: evil.com/x?\r\n\r\n", 400, "invalid character 0x2f in Host");
        assertRejected("GET / HTTP/1.1\r\nHost: user@evil.com\r\n\r\n", 400, "invalid character 0x40 in Host");
    }

    @Test
    void acceptsHostForms() throws Exception {
        for (String host : new String[] {"example.com", "example.com:8080", "[::1]:443", "127.0.0.1", "", "xn--d1a.%41"}) {
            assertThat(parse("GET / HTTP/1.1\r\nHost: " + host + "\r\n\r\n").headers().first("Host")).isEqualTo(host);
        }
    }

    @Test
    void rejectsNulInFieldValue() {
        assertRejected("GET / HTTP/1.1\r\nHost: a\r\nX: a\0b\r\n\r\n", 400, "NUL in value of header X");
    }

    @Test
    void rejectsBareCrInFieldValue() {
        assertRejected("GET / HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n", 400, "bare CR in value of header X");
    }

    @Test
    void rejectsControlCharactersInFieldValue() {
        assertRejected("GET / HTTP/1.1\r\nHost: a\r\nX: a\u0001b\r\n\r\n", 400, "invalid character 0x01");
        assertRejected("GET / HTTP/1.1\r\nHost: a\r\nX: a\u007fb\r\n\r\n", 400, "invalid character 0x7f");
    }

    @Test
    void rejectsBareLfLineEnding() {
        assertRejected("GET / HTTP/1.1\nHost: a\r\n\r\n", 400, "bare LF");
        assertRejected("GET / HTTP/1.1\r\nHost: a\n\r\n", 400, "bare LF");
        assertRejected("GET / HTTP/1.1\r\nHost: a\r\n\n", 400, "bare LF");
    }

    @Test
    void rejectsBareCrInRequestLine() {
        assertRejected("GET /a\rb HTTP/1.1\r\nHost: a\r\n\r\n", 400, "invalid character 0x0d in request target");
    }

    @Test
    void rejectsFieldLineWithoutColon() {
        assertRejected("GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n", 400, "header line without a colon");
    }

    @Test
    void rejectsEmptyFieldName() {
        assertRejected("GET / HTTP/1.1\r\nHost: a\r\n: value\r\n\r\n", 400, "empty header name");
    }

    @Test
    void rejectsNonTokenFieldName() {
        assertRejected("GET / HTTP/1.1\r\nHost: a\r\nX@Y: z\r\n\r\n", 400, "invalid character 0x40 in header name");
        assertRejected("GET / HTTP/1.1\r\nHost: a\r\nX\u00e9: z\r\n\r\n", 400, "in header name");
    }

    @Test
    void rejectsMethodThatIsNotAToken() {
        assertRejected("G(T / HTTP/1.1\r\nHost: a\r\n\r\n", 400, "malformed request line");
        assertRejected(" GET / HTTP/1.1\r\nHost: a\r\n\r\n", 400, "does not start with a method token");
    }

    @Test
    void rejectsControlCharactersAndNonAsciiInTarget() {
        assertRejected("GET /a\u0000b HTTP/1.1\r\nHost: a\r\n\r\n", 400, "invalid character 0x00 in request target");
        assertRejected("GET /a\tb HTTP/1.1\r\nHost: a\r\n\r\n", 400, "invalid character 0x09 in request target");
        assertRejected("GET /caf\u00e9 HTTP/1.1\r\nHost: a\r\n\r\n", 400, "invalid character 0xe9 in request target");
    }

    @Test
    void rejectsSpaceInsideTarget() {
        assertRejected("GET /a b HTTP/1.1\r\nHost: a\r\n\r\n", 400, "invalid HTTP version");
    }

    @Test
    void rejectsEmptyTargetFromDoubleSpace() {
        assertRejected("GET  / HTTP/1.1\r\nHost: a\r\n\r\n", 400, "empty request target");
    }

    @ParameterizedTest
    @CsvSource({"http://other.example/, example.com", "http://example.com:8080/, example.com",
            "http://example.com/, example.com:80", "http://example.com.evil/, example.com",
            "http://example.com@evil/, example.com", "http://evil?x=example.com, example.com"})
    void rejectsAbsoluteFormWhoseAuthorityDiffersFromHost(String target, String host) {
        assertRejected("GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n", 400,
                "Host differs from the authority");
    }

    @ParameterizedTest
    @CsvSource({"http://EXAMPLE.com/a, example.com", "https://user:pw@example.com:8443?q, example.com:8443",
            "http://[::1]:80/, [::1]:80"})
    void acceptsAbsoluteFormWhoseAuthorityIsTheHost(String target, String host) throws Exception {
        assertThat(parse("GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n").target()).isEqualTo(target);
    }

    @Test
    void rejectsRequestLineWithoutVersion() {
        assertRejected("GET /\r\nHost: a\r\n\r\n", 400, "without an HTTP version");
    }

    @ParameterizedTest
    @CsvSource({"'HTTP/1.1 ', 400", "http/1.1, 400", "HTTP/1.10, 400", "HTTP/11, 400", "HTTPS/1.1, 400",
            "HTTP/2.0, 505", "HTTP/1.2, 505", "HTTP/0.9, 505"})
    void rejectsVersionsOtherThanHttp10And11(String version, int status) {
        assertRejected("GET / " + version + "\r\nHost: a\r\n\r\n", status,
                status == 505 ? "HTTP version not supported" : "invalid HTTP version");
    }

    // --- limits ---

    @Test
    void requestLineUpToTheLimitIsAcceptedAndOneByteMoreIs414() throws Exception {
        Http1Limits limits = new Http1Limits(32, 1024, 10, 64, 64);
        String exact = "GET /" + "a".repeat(32 - 14) + " HTTP/1.1";
        assertThat(exact).hasSize(32);

        assertThat(new Http1HeadParser(limits).parseRequest(buffer(exact + "\r\nHost: a\r\n\r\n"))).isNotNull();
        assertThatThrownBy(() -> new Http1HeadParser(limits).parseRequest(
                buffer("GET /a" + exact.substring(5) + "\r\nHost: a\r\n\r\n")))
                .isInstanceOfSatisfying(Http1Exception.class, e -> assertThat(e.status()).isEqualTo(414))
                .hasMessageContaining("request line longer than 32 bytes");
    }

    @Test
    void overlongRequestLineIsRejectedBeforeItsEndArrives() {
        Http1HeadParser small = new Http1HeadParser(new Http1Limits(32, 1024, 10, 64, 64));

        assertThatThrownBy(() -> small.parseRequest(buffer("GET /" + "a".repeat(100))))
                .isInstanceOfSatisfying(Http1Exception.class, e -> assertThat(e.status()).isEqualTo(414));
    }

    @Test
    void overlongRequestLineFedByteByByteIsRejectedAtTheLimit() throws Exception {
        Http1HeadParser small = new Http1HeadParser(new Http1Limits(32, 1024, 10, 64, 64));
        ByteBuffer input = ByteBuffer.wrap(latin1("GET /" + "a".repeat(100)));
        input.limit(0);
        int fed = 0;
        try {
            while (true) {
                input.limit(++fed);
                assertThat(small.parseRequest(input)).isNull();
            }
        } catch (Http1Exception e) {
            assertThat(e.status()).isEqualTo(414);
            assertThat(fed).isEqualTo(32 + 3);
        }
    }

    @Test
    void headUpToTheLimitIsAcceptedAndOneByteMoreIs431() throws Exception {
        String head = "GET / HTTP/1.1\r\nHost: a\r\nX: " + "v".repeat(20) + "\r\n\r\n";
        Http1Limits exact = new Http1Limits(64, head.length(), 10, 64, 64);
        Http1Limits oneLess = new Http1Limits(64, head.length() - 1, 10, 64, 64);

        assertThat(new Http1HeadParser(exact).parseRequest(buffer(head))).isNotNull();
        assertThatThrownBy(() -> new Http1HeadParser(oneLess).parseRequest(buffer(head)))
                .isInstanceOfSatisfying(Http1Exception.class, e -> assertThat(e.status()).isEqualTo(431))
                .hasMessageContaining("head larger than " + (head.length() - 1) + " bytes");
    }

    @Test
    void manySmallFieldsAreBoundedByHeadBytes() {
        Http1HeadParser small = new Http1HeadParser(new Http1Limits(64, 256, 1000, 64, 64));
        String fields = "X: y\r\n".repeat(100);

        assertThatThrownBy(() -> small.parseRequest(buffer("GET / HTTP/1.1\r\nHost: a\r\n" + fields)))
                .isInstanceOfSatisfying(Http1Exception.class, e -> assertThat(e.status()).isEqualTo(431));
    }

    @Test
    void fieldCountUpToTheLimitIsAcceptedAndOneMoreIs431() throws Exception {
        Http1Limits limits = new Http1Limits(64, 4096, 5, 64, 64);
        String four = "X: y\r\n".repeat(4);

        assertThat(new Http1HeadParser(limits).parseRequest(buffer("GET / HTTP/1.1\r\nHost: a\r\n" + four + "\r\n")))
                .isNotNull();
        assertThatThrownBy(() -> new Http1HeadParser(limits).parseRequest(
                buffer("GET / HTTP/1.1\r\nHost: a\r\n" + four + "X: z\r\n\r\n")))
                .isInstanceOfSatisfying(Http1Exception.class, e -> assertThat(e.status()).isEqualTo(431))
                .hasMessageContaining("more than 5 header fields");
    }

    @Test
    void requestLineLongerThanTheWholeHeadBudgetIs431() {
        Http1HeadParser tiny = new Http1HeadParser(new Http1Limits(100, 20, 10, 64, 64));

        assertThatThrownBy(() -> tiny.parseRequest(buffer("GET /" + "a".repeat(30) + " HTTP/1.1\r\n")))
                .isInstanceOfSatisfying(Http1Exception.class, e -> assertThat(e.status()).isEqualTo(431));
    }

    private RequestHead parse(String text) throws Http1Exception {
        return parseBytes(latin1(text));
    }

    private RequestHead parseBytes(byte[] bytes) throws Http1Exception {
        RequestHead head = parser.parseRequest(ByteBuffer.wrap(bytes));
        assertThat(head).as("complete head").isNotNull();
        return head;
    }

    /** Whole and byte by byte: both must fail the same way. */
    private static void assertRejected(String text, int status, String message) {
        assertThatThrownBy(() -> new Http1HeadParser(Http1Limits.serverDefaults()).parseRequest(buffer(text)))
                .isInstanceOfSatisfying(Http1Exception.class, e -> assertThat(e.status()).isEqualTo(status))
                .hasMessageContaining(message);
        Http1HeadParser byteByByte = new Http1HeadParser(Http1Limits.serverDefaults());
        ByteBuffer input = buffer(text);
        input.limit(0);
        assertThatThrownBy(() -> {
            while (input.limit() < input.capacity()) {
                input.limit(input.limit() + 1);
                if (byteByByte.parseRequest(input) != null) {
                    return;
                }
            }
        }).isInstanceOfSatisfying(Http1Exception.class, e -> assertThat(e.status()).isEqualTo(status))
                .hasMessageContaining(message);
    }
}
