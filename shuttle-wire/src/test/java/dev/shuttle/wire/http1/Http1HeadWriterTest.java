package dev.shuttle.wire.http1;

import static dev.shuttle.wire.http1.Bytes.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Http1HeadWriterTest {

    @Test
    void writesARequestHeadWithFieldsInOrder() {
        RequestHead head = new RequestHead("POST", "/a?b=c", HttpVersion.HTTP_1_1,
                Headers.of("Host", "example.com", "X-Dup", "1", "x-dup", "2", "Empty", ""));

        assertThat(text(Http1HeadWriter.encode(head)))
                .isEqualTo("POST /a?b=c HTTP/1.1\r\nHost: example.com\r\nX-Dup: 1\r\nx-dup: 2\r\nEmpty: \r\n\r\n");
    }

    @Test
    void writesAResponseHead() {
        assertThat(text(Http1HeadWriter.encode(new ResponseHead(HttpVersion.HTTP_1_0, 404, "Not Found",
                Headers.of("Content-Length", "0"))))).isEqualTo("HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n");
        assertThat(text(Http1HeadWriter.encode(new ResponseHead(HttpVersion.HTTP_1_1, 204, "", Headers.EMPTY))))
                .isEqualTo("HTTP/1.1 204 \r\n\r\n");
    }

    @Test
    void writesLatin1ValuesAsSingleBytes() throws Exception {
        byte[] bytes = Http1HeadWriter.encode(new ResponseHead(HttpVersion.HTTP_1_1, 200, "Ok\u00e9",
                Headers.of("X", "caf\u00e9")));

        ResponseHead parsed = new Http1HeadParser(Http1Limits.clientDefaults()).parseResponse(ByteBuffer.wrap(bytes));
        assertThat(parsed.reason()).isEqualTo("Ok\u00e9");
        assertThat(parsed.headers().first("X")).isEqualTo("caf\u00e9");
        assertThat(bytes).hasSize("HTTP/1.1 200 Ok\u00e9\r\nX: caf\u00e9\r\n\r\n".length());
    }

    @Test
    void writtenRequestParsesBackToTheSameHead() throws Exception {
        RequestHead head = new RequestHead("PATCH", "http://h/x", HttpVersion.HTTP_1_1,
                Headers.of("Host", "h", "A", "b c", "A", "d"));

        assertThat(new Http1HeadParser(Http1Limits.serverDefaults())
                .parseRequest(ByteBuffer.wrap(Http1HeadWriter.encode(head)))).isEqualTo(head);
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET X", "G\r\nET", "", "GET\t"})
    void refusesAMethodThatIsNotAToken(String method) {
        RequestHead head = new RequestHead(method, "/", HttpVersion.HTTP_1_1, Headers.EMPTY);

        assertThatThrownBy(() -> Http1HeadWriter.encode(head)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid method");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/a b", "/a\r\nX-Injected: 1", "", "/\u00e9", "/\u0000"})
    void refusesATargetThatCouldInjectLines(String target) {
        RequestHead head = new RequestHead("GET", target, HttpVersion.HTTP_1_1, Headers.EMPTY);

        assertThatThrownBy(() -> Http1HeadWriter.encode(head)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("target");
    }

    @Test
    void refusesAReasonWithCrlf() {
        ResponseHead head = new ResponseHead(HttpVersion.HTTP_1_1, 200, "OK\r\nX: y", Headers.EMPTY);

        assertThatThrownBy(() -> Http1HeadWriter.encode(head)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reason phrase");
    }

    @Test
    void refusesHttp2() {
        assertThatThrownBy(() -> Http1HeadWriter.encode(new RequestHead("GET", "/", HttpVersion.HTTP_2, Headers.EMPTY)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not an HTTP/1 version");
    }
}
