package dev.shuttle.wire.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.wire.Headers;
import dev.shuttle.wire.hpack.HpackDecoder;
import dev.shuttle.wire.hpack.HpackEncoder;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class Http2FieldsTest {

    @Test
    void requestGoesOutPseudoHeadersFirstAndNamesLowerCase() {
        Http2RequestHead head = new Http2RequestHead("GET", "https", "example.com", "/x",
                Headers.of("Accept", "*/*", "X-Trace", "1"));

        assertThat(Http2Fields.request(head)).containsExactly(":method", "GET", ":scheme", "https",
                ":authority", "example.com", ":path", "/x", "accept", "*/*", "x-trace", "1");
    }

    @Test
    void hostBecomesTheAuthorityAndIsNotSentAsAField() {
        Http2RequestHead head = new Http2RequestHead("GET", "http", null, "/",
                Headers.of("Host", "h.example:8080", "Accept", "*/*"));

        assertThat(Http2Fields.request(head)).containsExactly(":method", "GET", ":scheme", "http",
                ":authority", "h.example:8080", ":path", "/", "accept", "*/*");
    }

    @Test
    void connectionSpecificFieldsAndTheFieldsTheyNameAreDropped() {
        Headers headers = Headers.of("Connection", "keep-alive, X-Hop", "Keep-Alive", "timeout=5",
                "Transfer-Encoding", "chunked", "Upgrade", "h2c", "Proxy-Connection", "close", "X-Hop", "1",
                "TE", "trailers, deflate", "Content-Type", "text/plain");

        assertThat(Http2Fields.response(new Http2ResponseHead(200, headers)))
                .containsExactly(":status", "200", "te", "trailers", "content-type", "text/plain");
    }

    @Test
    void teWithoutTrailersIsDropped() {
        assertThat(Http2Fields.trailers(Headers.of("TE", "gzip"))).isEmpty();
    }

    @Test
    void cookieIsSplitIntoCrumbs() {
        Http2RequestHead head = new Http2RequestHead("GET", "https", "a", "/", Headers.of("Cookie", "a=1; b=2"));

        assertThat(Http2Fields.request(head)).endsWith("cookie", "a=1", "cookie", "b=2");
    }

    @Test
    void valuesLoseOuterWhitespace() {
        assertThat(Http2Fields.trailers(Headers.of("X-A", " v \t"))).containsExactly("x-a", "v");
    }

    @Test
    void requestHeadRefusesValuesThatWouldInjectIntoPseudoHeaders() {
        assertThatThrownBy(() -> new Http2RequestHead("GET", "https", "a", "/x y", Headers.EMPTY))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Http2RequestHead("GE T", "https", "a", "/", Headers.EMPTY))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Http2RequestHead("GET", null, "a", "/", Headers.EMPTY))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Http2ResponseHead(101, Headers.EMPTY))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void requestSurvivesFieldsEncodeDecodeAndCollect() throws Exception {
        Http2RequestHead head = new Http2RequestHead("POST", "https", "api.example", "/v1/items?x=1",
                Headers.of("content-type", "application/json", "cookie", "a=1; b=2", "x-id", "7"));
        List<String> fields = Http2Fields.request(head);
        ByteBuffer block = ByteBuffer.allocate(HpackEncoder.maxEncodedLength(fields));
        new HpackEncoder().encode(fields, block);
        Http2FieldCollector collector = Http2FieldCollector.forRequest(1);

        assertThat(new HpackDecoder(Http2Limits.serverDefaults()).decode(block.flip(), collector::field)).isTrue();

        assertThat(collector.request()).isEqualTo(new Http2RequestHead("POST", "https", "api.example",
                "/v1/items?x=1", Headers.of("content-type", "application/json", "x-id", "7", "cookie", "a=1; b=2")));
    }
}
