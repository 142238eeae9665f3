package dev.shuttle.wire.http1;

import static dev.shuttle.wire.http1.Bytes.latin1;
import static dev.shuttle.wire.http1.Bytes.remainingText;
import static dev.shuttle.wire.http1.Bytes.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.wire.Headers;
import org.junit.jupiter.api.Test;

class BodyInputStreamTest {
    private static final Http1Limits LIMITS = Http1Limits.serverDefaults();

    @Test
    void contentLengthBodyEndsExactlyAndLeavesTheNextMessageBuffered() throws Exception {
        ScriptedSource source = new ScriptedSource(latin1("hello worldGET / HTTP/1.1\r\n"));
        BodyInputStream body = stream(source, new BodyFraming.ContentLength(11));

        assertThat(text(body.readAllBytes())).isEqualTo("hello world");
        assertThat(body.read()).isEqualTo(-1);
        assertThat(remainingText(source.buffer())).isEqualTo("GET / HTTP/1.1\r\n");
        assertThat(source.fillCalls).isZero();
    }

    @Test
    void chunkedBodyEndsExactlyAndLeavesTheNextMessageBuffered() throws Exception {
        ScriptedSource source = new ScriptedSource(latin1("3\r\nabc\r\n0\r\nT: v\r\n\r\nHTTP/1.1 200 OK\r\n"));
        BodyInputStream body = stream(source, BodyFraming.CHUNKED);

        assertThat(text(body.readAllBytes())).isEqualTo("abc");
        assertThat(body.decoder().trailers()).isEqualTo(Headers.of("T", "v"));
        assertThat(remainingText(source.buffer())).isEqualTo("HTTP/1.1 200 OK\r\n");
    }

    @Test
    void readsABodyArrivingOneByteAtATime() throws Exception {
        ScriptedSource source = ScriptedSource.ofChunks(latin1("4;x\r\nbody\r\n2\r\n!!\r\n0\r\n\r\nrest"), 1);
        BodyInputStream body = stream(source, BodyFraming.CHUNKED);

        assertThat(text(body.readAllBytes())).isEqualTo("body!!");
        assertThat(remainingText(source.buffer())).isEmpty();
        assertThat(source.fill()).isEqualTo(1);
        assertThat(remainingText(source.buffer())).isEqualTo("r");
    }

    @Test
    void singleByteReadsReturnUnsignedBytesThenMinusOne() throws Exception {
        ScriptedSource source = new ScriptedSource(new byte[] {(byte) 0xff, 0x00, 0x41});
        BodyInputStream body = stream(source, new BodyFraming.ContentLength(3));

        assertThat(body.read()).isEqualTo(0xff);
        assertThat(body.read()).isEqualTo(0);
        assertThat(body.read()).isEqualTo(0x41);
        assertThat(body.read()).isEqualTo(-1);
    }

    @Test
    void emptyBodyEndsAtOnceWithoutReading() throws Exception {
        ScriptedSource source = new ScriptedSource(latin1("next"));

        assertThat(stream(source, BodyFraming.EMPTY).read(new byte[4])).isEqualTo(-1);
        assertThat(source.fillCalls).isZero();
        assertThat(remainingText(source.buffer())).isEqualTo("next");
    }

    @Test
    void zeroLengthReadReturnsZero() throws Exception {
        assertThat(stream(new ScriptedSource(latin1("a")), new BodyFraming.ContentLength(1)).read(new byte[1], 0, 0))
                .isZero();
    }

    @Test
    void truncatedContentLengthBodyThrows() throws Exception {
        BodyInputStream body = stream(new ScriptedSource(latin1("he"), latin1("ll")), new BodyFraming.ContentLength(5));

        assertThat(body.readNBytes(4)).hasSize(4);
        assertThatThrownBy(body::read)
                .isInstanceOf(Http1Exception.class).hasMessageContaining("truncated").hasMessageContaining("4 of 5");
    }

    @Test
    void truncatedChunkedBodyThrows() {
        BodyInputStream body = stream(new ScriptedSource(latin1("5\r\nhello\r\n")), BodyFraming.CHUNKED);

        assertThatThrownBy(body::readAllBytes)
                .isInstanceOf(Http1Exception.class).hasMessageContaining("chunked body truncated");
    }

    @Test
    void closeDelimitedBodyEndsWhenThePeerCloses() throws Exception {
        BodyInputStream body = stream(new ScriptedSource(latin1("part one, "), latin1("part two")),
                BodyFraming.CLOSE_DELIMITED);

        assertThat(text(body.readAllBytes())).isEqualTo("part one, part two");
        assertThat(body.decoder().isComplete()).isTrue();
        assertThat(body.read()).isEqualTo(-1);
    }

    @Test
    void skipAvailableTakesOnlyWhatHasArrivedAndNeverBlocks() throws Exception {
        ScriptedSource source = new ScriptedSource(latin1("5\r\nhello\r\n"), latin1("5\r\nworld\r\n"),
                latin1("0\r\n\r\n")).arrived(1);
        BodyInputStream body = stream(source, BodyFraming.CHUNKED);

        assertThat(body.skipAvailable(1000)).isEqualTo(10);
        assertThat(body.decoder().isComplete()).isFalse();
        assertThat(source.fillCalls).isZero();

        source.arrived(1);
        assertThat(body.skipAvailable(1000)).isZero();
        assertThat(body.decoder().isComplete()).isTrue();
        assertThat(source.fillCalls).isZero();
    }

    @Test
    void skipAvailableStopsAtMaxAndLeavesTheRestBuffered() throws Exception {
        ScriptedSource source = new ScriptedSource(latin1("0123456789"));
        BodyInputStream body = stream(source, new BodyFraming.ContentLength(10));

        assertThat(body.skipAvailable(4)).isEqualTo(4);
        assertThat(body.decoder().remainingLength()).isEqualTo(6);
        assertThat(remainingText(source.buffer())).isEqualTo("456789");
    }

    @Test
    void skipAvailableThatReachesTheEndLeavesTheNextMessage() throws Exception {
        ScriptedSource source = new ScriptedSource(latin1("2\r\nab\r\n0\r\n\r\nGET /"));
        BodyInputStream body = stream(source, BodyFraming.CHUNKED);

        assertThat(body.skipAvailable(2)).isEqualTo(2);
        assertThat(body.decoder().isComplete()).isTrue();
        assertThat(remainingText(source.buffer())).isEqualTo("GET /");
        assertThat(source.fillNowCalls).isZero();
    }

    @Test
    void skipAvailableOnATruncatedBodyThrows() {
        ScriptedSource source = new ScriptedSource(latin1("abc"));
        BodyInputStream body = stream(source, new BodyFraming.ContentLength(10));

        assertThatThrownBy(() -> body.skipAvailable(100))
                .isInstanceOf(Http1Exception.class).hasMessageContaining("truncated");
    }

    @Test
    void skipBlockingWaitsForBytesUpToMax() throws Exception {
        ScriptedSource source = ScriptedSource.ofChunks(latin1("0123456789abcdef"), 3);
        BodyInputStream body = stream(source, new BodyFraming.ContentLength(16));

        assertThat(body.skipBlocking(10)).isEqualTo(10);
        assertThat(body.decoder().isComplete()).isFalse();
        assertThat(body.skipBlocking(Long.MAX_VALUE)).isEqualTo(6);
        assertThat(body.decoder().isComplete()).isTrue();
        assertThat(body.skipBlocking(5)).isZero();
    }

    @Test
    void skipBlockingOnATruncatedBodyThrows() {
        BodyInputStream body = stream(ScriptedSource.ofChunks(latin1("3\r\nab"), 2), BodyFraming.CHUNKED);

        assertThatThrownBy(() -> body.skipBlocking(100)).isInstanceOf(Http1Exception.class);
    }

    @Test
    void skipBlockingThroughACloseDelimitedBodyEndsAtClose() throws Exception {
        BodyInputStream body = stream(ScriptedSource.ofChunks(latin1("x".repeat(50)), 7), BodyFraming.CLOSE_DELIMITED);

        assertThat(body.skip(1000)).isEqualTo(50);
        assertThat(body.decoder().isComplete()).isTrue();
    }

    @Test
    void availableCountsBufferedBytesOfALengthDelimitedBody() throws Exception {
        ScriptedSource source = new ScriptedSource(latin1("abcdefnext"));

        assertThat(stream(source, new BodyFraming.ContentLength(6)).available()).isEqualTo(6);
        assertThat(stream(source, BodyFraming.EMPTY).available()).isZero();
    }

    private static BodyInputStream stream(Http1Source source, BodyFraming framing) {
        return new BodyInputStream(source, framing.newDecoder(LIMITS));
    }
}
