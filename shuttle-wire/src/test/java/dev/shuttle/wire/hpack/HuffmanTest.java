package dev.shuttle.wire.hpack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Exception;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class HuffmanTest {

    @Test
    void derivedCodesMatchTheCodesPrintedInTheRfc() {
        // (symbol, code as printed in RFC 7541 Appendix B, length)
        int[][] printed = {
            {0, 0x1ff8, 13}, {1, 0x7fffd8, 23}, {10, 0x3ffffffc, 30}, {' ', 0x14, 6}, {'0', 0x0, 5},
            {'a', 0x3, 5}, {'z', 0x7b, 7}, {'\\', 0x7fff0, 19}, {'~', 0x1ffd, 13}, {127, 0xffffffc, 28},
            {200, 0x3ffffe2, 26}, {255, 0x3ffffee, 26}, {256, 0x3fffffff, 30},
        };
        for (int[] row : printed) {
            assertThat(Huffman.code(row[0])).as("code of %d", row[0]).isEqualTo(row[1]);
            assertThat(Huffman.codeLength(row[0])).as("length of %d", row[0]).isEqualTo(row[2]);
        }
    }

    @Test
    void codeIsCompleteAndPrefixFree() {
        double kraft = 0;
        for (int symbol = 0; symbol <= 256; symbol++) {
            kraft += Math.pow(2, -Huffman.codeLength(symbol));
        }
        assertThat(kraft).isEqualTo(1.0);
    }

    @Test
    void encodesTheRfcExample() {
        assertThat(encode("www.example.com")).isEqualTo(Hex.parse("f1e3 c2e5 f23a 6ba0 ab90 f4ff"));
        assertThat(encode("no-cache")).isEqualTo(Hex.parse("a8eb 1064 9cbf"));
    }

    @Test
    void sevenBitsOfPaddingAreAccepted() throws Exception {
        byte[] encoded = encode("aaB");
        assertThat(encoded).hasSize(3);
        assertThat(encoded[2] & 0x7f).as("5 + 5 + 7 bits leave 7 of padding").isEqualTo(0x7f);

        assertThat(decode(encoded)).isEqualTo("aaB");
    }

    @Test
    void emptyStringDecodesToNothing() throws Exception {
        assertThat(decode(new byte[0])).isEmpty();
    }

    @Test
    void eosInsideAStringIsACompressionError() {
        assertCompressionError(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff});
    }

    @Test
    void paddingOfEightBitsOrMoreIsACompressionError() {
        // 'a' is 00011: three one-bits fill the first octet, and a whole octet of ones follows.
        assertCompressionError(new byte[] {0x1f, (byte) 0xff});
        assertCompressionError(new byte[] {(byte) 0xff});
    }

    @Test
    void paddingThatIsNotAllOnesIsACompressionError() {
        assertCompressionError(new byte[] {0x18});
        assertCompressionError(new byte[] {0x1d});
    }

    @Test
    void encoderRefusesCharactersAboveLatin1() {
        assertThatThrownBy(() -> Huffman.encodedLength("\u20ac")).isInstanceOf(IllegalArgumentException.class);
    }

    @Property(tries = 500)
    void anyOctetsSurviveEncodeThenDecode(@ForAll @Size(max = 300) byte[] octets) throws Exception {
        String text = new String(octets, StandardCharsets.ISO_8859_1);

        byte[] encoded = encode(text);

        assertThat(encoded).hasSize(Huffman.encodedLength(text));
        assertThat(decode(encoded)).isEqualTo(text);
    }

    private static byte[] encode(String text) {
        ByteBuffer out = ByteBuffer.allocate(Huffman.encodedLength(text));
        Huffman.encode(text, out);
        assertThat(out.hasRemaining()).isFalse();
        return out.array();
    }

    private static String decode(byte[] encoded) throws Http2Exception {
        byte[] out = new byte[Huffman.maxDecodedLength(encoded.length)];
        int length = Huffman.decode(encoded, 0, encoded.length, out, 0);
        return new String(out, 0, length, StandardCharsets.ISO_8859_1);
    }

    private static void assertCompressionError(byte[] encoded) {
        Http2Exception e = catchThrowableOfType(Http2Exception.class, () -> decode(encoded));
        assertThat(e).isNotNull();
        assertThat(e.error()).isEqualTo(Http2ErrorCode.COMPRESSION_ERROR);
        assertThat(e.isConnectionError()).isTrue();
    }
}
