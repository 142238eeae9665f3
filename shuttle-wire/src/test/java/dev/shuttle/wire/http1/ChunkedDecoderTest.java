package dev.shuttle.wire.http1;

import static dev.shuttle.wire.http1.Bytes.buffer;
import static dev.shuttle.wire.http1.Bytes.latin1;
import static dev.shuttle.wire.http1.Bytes.remainingText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.wire.Headers;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ChunkedDecoderTest {
    private static final Http1Limits LIMITS = new Http1Limits(8192, 16384, 100, 32, 64);

    private final BodyDecoder decoder = BodyFraming.CHUNKED.newDecoder(LIMITS);

    @Test
    void decodesChunksAndStopsExactlyAtTheEnd() throws Exception {
        ByteBuffer input = buffer("5\r\nhello\r\n1\r\n \r\nA\r\n0123456789\r\n0\r\n\r\nGET / HTTP/1.1\r\n");

        assertThat(decodeAll(input)).isEqualTo("hello 0123456789");
        assertThat(decoder.isComplete()).isTrue();
        assertThat(decoder.bodyBytesRead()).isEqualTo(16);
        assertThat(decoder.remainingLength()).isEqualTo(-1);
        assertThat(decoder.trailers()).isEqualTo(Headers.EMPTY);
        assertThat(remainingText(input)).isEqualTo("GET / HTTP/1.1\r\n");
    }

    @Test
    void acceptsUpperAndLowerCaseHexAndLeadingZeros() throws Exception {
        ByteBuffer input = buffer("0000a\r\n0123456789\r\n00B\r\nabcdefghijk\r\n000\r\n\r\n");

        assertThat(decodeAll(input)).isEqualTo("0123456789abcdefghijk");
        assertThat(decoder.isComplete()).isTrue();
    }

    @Test
    void oneByteAtATimeWithOneByteOutputDecodesTheSame() throws Exception {
        String wire = "3;ext=1\r\nabc\r\n2 ; x = \"y;z\"\r\nde\r\n0\r\nTrailer-A: 1\r\nTrailer-B:  two \r\n\r\nNEXT";
        ByteBuffer input = buffer(wire);
        input.limit(0);
        ByteBuffer output = ByteBuffer.allocate(1);
        StringBuilder body = new StringBuilder();
        while (!decoder.isComplete()) {
            input.limit(input.limit() + 1);
            while (true) {
                output.clear();
                int n = decoder.decode(input, output);
                if (n == 0) {
                    break;
                }
                body.append((char) output.get(0));
            }
            assertThat(input.hasRemaining()).isFalse();
        }

        assertThat(body.toString()).isEqualTo("abcde");
        assertThat(decoder.trailers()).isEqualTo(Headers.of("Trailer-A", "1", "Trailer-B", "two"));
        assertThat(input.position()).isEqualTo(wire.length() - "NEXT".length());
    }

    @Test
    void keepsTrailers() throws Exception {
        ByteBuffer input = buffer("4\r\ndata\r\n0\r\nChecksum: abc\r\nExpires: never\r\nChecksum: def\r\n\r\n");

        decodeAll(input);

        assertThat(decoder.trailers().all("checksum")).containsExactly("abc", "def");
        assertThat(decoder.trailers().first("Expires")).isEqualTo("never");
    }

    @Test
    void ignoresChunkExtensionsWithinTheLineBound() throws Exception {
        String extension = ";a=b;c=\"d e\"";
        ByteBuffer input = buffer("2" + extension + "\r\nok\r\n0" + extension + "\r\n\r\n");

        assertThat(decodeAll(input)).isEqualTo("ok");
        assertThat(decoder.isComplete()).isTrue();
    }

    @Test
    void rejectsAChunkLineLongerThanTheBound() throws Exception {
        String line = "2;" + "x".repeat(LIMITS.maxChunkLineBytes() - 2);
        assertThat(line).hasSize(LIMITS.maxChunkLineBytes());
        BodyDecoder fits = BodyFraming.CHUNKED.newDecoder(LIMITS);

        assertThat(decodeAllWith(fits, buffer(line + "\r\nok\r\n0\r\n\r\n"))).isEqualTo("ok");
        assertRejected(line + "y\r\nok\r\n0\r\n\r\n", "chunk size line longer than 32 bytes");
        assertRejected("0".repeat(100) + "1\r\na\r\n0\r\n\r\n", "chunk size line longer than 32 bytes");
    }

    @ParameterizedTest
    @ValueSource(strings = {"g\r\n", "\r\n", "-5\r\nhello\r\n", "+5\r\nhello\r\n", "0x5\r\nhello\r\n", " 5\r\nhello\r\n",
            "5g\r\nhello\r\n", "5\u0000\r\nhello\r\n", "5,5\r\nhello\r\n"})
    void rejectsInvalidChunkSizes(String wire) {
        assertRejected(wire, "chunk size");
    }

    @Test
    void rejectsChunkSizesThatWouldOverflow() {
        assertRejected("1000000000000000\r\n", "chunk size too large");
        assertRejected("ffffffffffffffffff\r\n", "chunk size too large");
        assertRejected("8000000000000000\r\n", "chunk size too large");
    }

    @Test
    void acceptsTheLargestAllowedChunkSize() throws Exception {
        decoder.decode(buffer("fffffffffffffff\r\nabc"), ByteBuffer.allocate(8));

        assertThat(decoder.bodyBytesRead()).isEqualTo(3);
        assertThat(decoder.isComplete()).isFalse();
    }

    @Test
    void rejectsBareLfAndBareCrInTheSizeLine() {
        assertRejected("5\nhello\r\n0\r\n\r\n", "invalid character 0x0a in chunk size");
        assertRejected("5\rhello\r\n0\r\n\r\n", "bare CR in chunk size line");
        assertRejected("5;ext\nhello\r\n0\r\n\r\n", "invalid character 0x0a in chunk extension");
    }

    @Test
    void rejectsControlCharactersInExtensions() {
        assertRejected("5;a=\u0001\r\nhello\r\n0\r\n\r\n", "invalid character 0x01 in chunk extension");
    }

    @Test
    void rejectsDataNotFollowedByCrlf() {
        assertRejected("5\r\nhelloX\r\n0\r\n\r\n", "chunk data not followed by CRLF");
        assertRejected("5\r\nhello\rX0\r\n\r\n", "chunk data not followed by CRLF");
        assertRejected("5\r\nhello\n0\r\n\r\n", "chunk data not followed by CRLF");
    }

    @Test
    void rejectsTrailersOverTheBound() throws Exception {
        String trailer = "T: " + "v".repeat(LIMITS.maxTrailerBytes() - 5) + "\r\n";
        assertThat(trailer).hasSize(LIMITS.maxTrailerBytes());

        assertThat(decodeAllWith(BodyFraming.CHUNKED.newDecoder(LIMITS), buffer("0\r\n" + trailer + "\r\n"))).isEmpty();
        assertRejected("0\r\n" + trailer + "U: 1\r\n\r\n", "trailers larger than 64 bytes");
        assertRejected("0\r\n" + "T: " + "v".repeat(500), "trailers larger than 64 bytes");
    }

    @Test
    void zeroTrailerBudgetAllowsOnlyTheEmptyTrailerSection() throws Exception {
        Http1Limits none = new Http1Limits(8192, 16384, 100, 32, 0);
        BodyDecoder noTrailers = BodyFraming.CHUNKED.newDecoder(none);
        decodeAllWith(noTrailers, buffer("0\r\n\r\n"));
        assertThat(noTrailers.isComplete()).isTrue();

        assertThatThrownBy(() -> decodeAllWith(BodyFraming.CHUNKED.newDecoder(none), buffer("0\r\nA: b\r\n\r\n")))
                .isInstanceOf(Http1Exception.class).hasMessageContaining("trailers larger than 0 bytes");
    }

    @Test
    void rejectsMalformedTrailers() {
        assertRejected("0\r\nA: 1\r\n folded\r\n\r\n", "obs-fold");
        assertRejected("0\r\nA : 1\r\n\r\n", "whitespace between trailer name and colon");
        assertRejected("0\r\nA: 1\n\r\n", "bare LF");
        assertRejected("0\r\nA: \u0000\r\n\r\n", "NUL in value of trailer A");
    }

    @Test
    void truncationIsAnErrorInEveryState() throws Exception {
        for (String prefix : new String[] {"", "5", "5;e", "5\r", "5\r\nhel", "5\r\nhello", "5\r\nhello\r",
                "5\r\nhello\r\n", "5\r\nhello\r\n0", "5\r\nhello\r\n0\r\n", "5\r\nhello\r\n0\r\nA: b\r\n",
                "5\r\nhello\r\n0\r\n\r"}) {
            BodyDecoder truncated = BodyFraming.CHUNKED.newDecoder(LIMITS);
            decodeAllWith(truncated, buffer(prefix));

            assertThat(truncated.isComplete()).as(prefix).isFalse();
            assertThatThrownBy(truncated::endOfInput).as(prefix)
                    .isInstanceOf(Http1Exception.class).hasMessageContaining("chunked body truncated");
        }
    }

    @Test
    void endOfInputAfterTheEndIsFine() throws Exception {
        decodeAll(buffer("0\r\n\r\n"));

        decoder.endOfInput();
        assertThat(decoder.isComplete()).isTrue();
    }

    @Test
    void fullOutputStillConsumesTheTerminatorSoTheBodyEndsWithItsLastByte() throws Exception {
        ByteBuffer input = buffer("3\r\nabc\r\n0\r\n\r\nnext");
        ByteBuffer output = ByteBuffer.allocate(3);

        assertThat(decoder.decode(input, output)).isEqualTo(3);

        assertThat(decoder.isComplete()).isTrue();
        assertThat(remainingText(input)).isEqualTo("next");
    }

    @Test
    void skipDiscardsUpToMaxBodyBytesAndConsumesFramingBeyondIt() throws Exception {
        ByteBuffer input = buffer("5\r\nhello\r\n5\r\nworld\r\n0\r\n\r\nnext");

        assertThat(decoder.skip(input, 7)).isEqualTo(7);
        assertThat(decoder.isComplete()).isFalse();
        assertThat(decoder.skip(input, 3)).isEqualTo(3);
        assertThat(decoder.isComplete()).isTrue();
        assertThat(decoder.bodyBytesRead()).isEqualTo(10);
        assertThat(remainingText(input)).isEqualTo("next");
    }

    @Test
    void skipWithZeroAllowanceOnlyConsumesFraming() throws Exception {
        ByteBuffer input = buffer("2\r\nab\r\n0\r\n\r\n");

        assertThat(decoder.skip(input, 0)).isZero();

        assertThat(remainingText(input)).isEqualTo("ab\r\n0\r\n\r\n");
    }

    @Test
    void encoderOutputDecodesBack() throws Exception {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        try (ChunkedBodyOutputStream chunked = new ChunkedBodyOutputStream(wire)) {
            chunked.write(latin1("first "));
            chunked.write(new byte[0]);
            chunked.write('2');
            chunked.write(latin1("x".repeat(300)));
            chunked.finish(Headers.of("Digest", "sha-256=abc"));
        }

        assertThat(decodeAll(ByteBuffer.wrap(wire.toByteArray()))).isEqualTo("first 2" + "x".repeat(300));
        assertThat(decoder.trailers()).isEqualTo(Headers.of("Digest", "sha-256=abc"));
    }

    @Test
    void aMalformedChunkSizeAfterAValidChunkDeliversTheValidBytesFirstThenFails() throws Exception {
        ByteBuffer input = buffer("5\r\nhello\r\nzz\r\n");
        ByteBuffer output = ByteBuffer.allocate(64);

        assertThat(decoder.decode(input, output)).isEqualTo(5);
        assertThat(new String(output.array(), 0, 5, java.nio.charset.StandardCharsets.ISO_8859_1)).isEqualTo("hello");
        assertThatThrownBy(() -> decoder.decode(input, output)).isInstanceOf(Http1Exception.class)
                .hasMessageContaining("invalid chunk size");
        assertThatThrownBy(decoder::endOfInput).hasMessageContaining("invalid chunk size");
        assertThat(decoder.isComplete()).isFalse();

        BodyDecoder skipping = BodyFraming.CHUNKED.newDecoder(LIMITS);
        ByteBuffer again = buffer("5\r\nhello\r\nzz\r\n");
        assertThat(skipping.skip(again, 100)).isEqualTo(5);
        assertThatThrownBy(() -> skipping.skip(again, 100)).hasMessageContaining("invalid chunk size");
    }

    private String decodeAll(ByteBuffer input) throws Http1Exception {
        return decodeAllWith(decoder, input);
    }

    /** Decodes everything {@code input} holds through a small output buffer. */
    private static String decodeAllWith(BodyDecoder decoder, ByteBuffer input) throws Http1Exception {
        StringBuilder body = new StringBuilder();
        ByteBuffer output = ByteBuffer.allocate(5);
        while (true) {
            output.clear();
            int n = decoder.decode(input, output);
            for (int i = 0; i < n; i++) {
                body.append((char) (output.get(i) & 0xff));
            }
            if (n == 0) {
                return body.toString();
            }
        }
    }

    private static void assertRejected(String wire, String message) {
        assertThatThrownBy(() -> decodeAllWith(BodyFraming.CHUNKED.newDecoder(LIMITS), buffer(wire)))
                .isInstanceOfSatisfying(Http1Exception.class, e -> assertThat(e.status()).isEqualTo(400))
                .hasMessageContaining(message);
        // The same bytes one at a time fail the same way.
        BodyDecoder byteByByte = BodyFraming.CHUNKED.newDecoder(LIMITS);
        ByteBuffer input = buffer(wire);
        input.limit(0);
        assertThatThrownBy(() -> {
            while (input.limit() < input.capacity()) {
                input.limit(input.limit() + 1);
                decodeAllWith(byteByByte, input);
            }
        }).isInstanceOf(Http1Exception.class).hasMessageContaining(message);
    }
}
