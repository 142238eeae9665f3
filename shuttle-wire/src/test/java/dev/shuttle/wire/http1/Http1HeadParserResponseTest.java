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
import org.junit.jupiter.params.provider.ValueSource;

class Http1HeadParserResponseTest {
    private final Http1HeadParser parser = new Http1HeadParser(Http1Limits.clientDefaults());

    @Test
    void parsesStatusLineAndFields() throws Exception {
        ResponseHead head = parse("HTTP/1.1 404 Not Found Here\r\nContent-Length: 0\r\nSet-Cookie: a=1\r\n"
                + "Set-Cookie: b=2\r\n\r\n");

        assertThat(head.version()).isEqualTo(HttpVersion.HTTP_1_1);
        assertThat(head.status()).isEqualTo(404);
        assertThat(head.reason()).isEqualTo("Not Found Here");
        assertThat(head.headers().all("set-cookie")).containsExactly("a=1", "b=2");
    }

    @Test
    void acceptsAnEmptyReasonWithOrWithoutItsSpace() throws Exception {
        assertThat(parse("HTTP/1.1 200 \r\n\r\n").reason()).isEmpty();
        assertThat(parse("HTTP/1.1 200\r\n\r\n").reason()).isEmpty();
        assertThat(parse("HTTP/1.0 204\r\n\r\n").version()).isEqualTo(HttpVersion.HTTP_1_0);
    }

    @Test
    void returnsInterimHeadsAndThenTheFinalOne() throws Exception {
        ByteBuffer input = buffer("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");

        ResponseHead first = parser.parseResponse(input);
        ResponseHead second = parser.parseResponse(input);
        ResponseHead last = parser.parseResponse(input);

        assertThat(first.isInterim()).isTrue();
        assertThat(second.status()).isEqualTo(103);
        assertThat(second.headers()).isEqualTo(Headers.of("Link", "</a>"));
        assertThat(last.status()).isEqualTo(200);
        assertThat(remainingText(input)).isEqualTo("ok");
    }

    @Test
    void aPersistentConnectionReusesRepeatedValuesAndNeverAStaleOne() throws Exception {
        ResponseHead first = parse("HTTP/1.1 200 OK\r\nServer: s1\r\nContent-Length: 10\r\n\r\n");
        ResponseHead second = parse("HTTP/1.1 200 OK\r\nServer: s1\r\nContent-Length: 10\r\n"
                + "Content-Type: text/html\r\n\r\n");
        ResponseHead third = parse("HTTP/1.1 201 Fine\r\nServer: s2\r\nContent-Length: 11\r\n"
                + "Content-Type: text/xml!\r\n\r\n");
        ResponseHead fourth = parse("HTTP/1.1 200 OK\r\nServer: s2\r\nContent-Length: 1\r\n"
                + "content-type: text/xml!\r\n\r\n");

        assertThat(second.headers().first("Server")).isEqualTo("s1");
        assertThat(third.headers()).isEqualTo(Headers.of("Server", "s2", "Content-Length", "11",
                "Content-Type", "text/xml!"));
        assertThat(third.reason()).isEqualTo("Fine");
        assertThat(fourth.headers()).isEqualTo(Headers.of("Server", "s2", "Content-Length", "1",
                "content-type", "text/xml!"));
        assertThat(fourth.reason()).isEqualTo("OK");
        // From the second head on, an unchanged value is the same String: no copy per response.
        assertThat(third.headers().first("Server")).isNotSameAs(second.headers().first("Server"));
        assertThat(fourth.headers().first("Server")).isSameAs(third.headers().first("Server"));
        assertThat(second.reason()).isSameAs(first.reason());
    }

    @Test
    void toleratesBareLfLineEndingsInResponses() throws Exception {
        ResponseHead head = parse("HTTP/1.0 200 OK\nServer: old\nX: y\r\n\n");

        assertThat(head.status()).isEqualTo(200);
        assertThat(head.headers()).isEqualTo(Headers.of("Server", "old", "X", "y"));
    }

    @Test
    void oneByteAtATimeParsesTheSameAsAllAtOnce() throws Exception {
        String text = "HTTP/1.1 301 Moved Permanently\r\nLocation: /b\r\nContent-Length: 0\r\n\r\n";
        ResponseHead whole = new Http1HeadParser(Http1Limits.clientDefaults()).parseResponse(buffer(text));
        ByteBuffer input = ByteBuffer.wrap(latin1(text));
        input.limit(0);
        ResponseHead head = null;
        while (head == null) {
            input.limit(input.limit() + 1);
            head = parser.parseResponse(input);
        }

        assertThat(input.position()).isEqualTo(text.length());
        assertThat(head).isEqualTo(whole);
    }

    @ParameterizedTest
    @ValueSource(strings = {"HTTP/1.1 20 OK", "HTTP/1.1 2000 OK", "HTTP/1.1 2x0 OK", "HTTP/1.1 -20 OK",
            "HTTP/1.1  200 OK", "HTTP/1.1 099 Low", "HTTP/1.1", "HTTP/1.1 ", "ICY 200 OK"})
    void rejectsMalformedStatusLines(String statusLine) {
        assertThatThrownBy(() -> parse(statusLine + "\r\n\r\n"))
                .isInstanceOfSatisfying(Http1Exception.class, e -> assertThat(e.status()).isEqualTo(400))
                .hasMessageMatching("(malformed status line|status code|invalid HTTP version).*");
    }

    @Test
    void rejectsUnsupportedResponseVersions() {
        assertThatThrownBy(() -> parse("HTTP/2.0 200 OK\r\n\r\n"))
                .isInstanceOfSatisfying(Http1Exception.class, e -> assertThat(e.status()).isEqualTo(505));
    }

    @Test
    void rejectsControlCharactersInTheReason() {
        assertThatThrownBy(() -> parse("HTTP/1.1 200 O\u0000K\r\n\r\n"))
                .isInstanceOf(Http1Exception.class)
                .hasMessageContaining("invalid character 0x00 in reason phrase");
    }

    @Test
    void appliesTheFieldRulesToResponsesToo() {
        assertThatThrownBy(() -> parse("HTTP/1.1 200 OK\r\nX: a\r\n b\r\n\r\n"))
                .isInstanceOf(Http1Exception.class).hasMessageContaining("obs-fold");
        assertThatThrownBy(() -> parse("HTTP/1.1 200 OK\r\nContent-Length : 5\r\n\r\n"))
                .isInstanceOf(Http1Exception.class).hasMessageContaining("whitespace between header name and colon");
        assertThatThrownBy(() -> parse("HTTP/1.1 200 OK\r\nX: a\rb\r\n\r\n"))
                .isInstanceOf(Http1Exception.class).hasMessageContaining("bare CR");
    }

    @Test
    void tooLargeResponseHeadIsRejected() {
        Http1HeadParser small = new Http1HeadParser(new Http1Limits(64, 128, 100, 64, 64));

        assertThatThrownBy(() -> small.parseResponse(buffer("HTTP/1.1 200 OK\r\nSet-Cookie: " + "c".repeat(200))))
                .isInstanceOfSatisfying(Http1Exception.class, e -> assertThat(e.status()).isEqualTo(431));
    }

    @Test
    void tooLongStatusLineIsRejected() {
        Http1HeadParser small = new Http1HeadParser(new Http1Limits(20, 128, 100, 64, 64));

        assertThatThrownBy(() -> small.parseResponse(buffer("HTTP/1.1 200 " + "r".repeat(20) + "\r\n\r\n")))
                .isInstanceOf(Http1Exception.class).hasMessageContaining("status line longer than 20 bytes");
        assertThatThrownBy(() -> small.parseResponse(buffer("HTTP/1.1 200 " + "r".repeat(8) + "\n\n")))
                .isInstanceOf(Http1Exception.class).hasMessageContaining("status line longer than 20 bytes");
    }

    private ResponseHead parse(String text) throws Http1Exception {
        ResponseHead head = parser.parseResponse(buffer(text));
        assertThat(head).as("complete head").isNotNull();
        return head;
    }
}
