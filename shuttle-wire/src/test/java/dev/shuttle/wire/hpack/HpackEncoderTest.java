package dev.shuttle.wire.hpack;

import static dev.shuttle.wire.hpack.HpackDecoderTest.decodeAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class HpackEncoderTest {
    private final HpackEncoder encoder = new HpackEncoder();

    @Test
    void repeatedFieldIsSentAsOneIndexOctet() {
        encode(encoder, List.of("user-agent", "shuttle/1"));

        assertThat(encode(encoder, List.of("user-agent", "shuttle/1"))).isEqualTo("be");
    }

    @Test
    void authorizationIsNeverIndexedAndStaysOutOfTheTable() {
        String block = encode(encoder, List.of("authorization", "Basic abc"));

        assertThat(block).startsWith("1f08");
        assertThat(encoder.tableLength()).isZero();
        assertThat(encode(encoder, List.of("authorization", "Basic abc"))).isEqualTo(block);
    }

    @Test
    void shortCookiesAreNeverIndexedAndLongOnesAre() {
        assertThat(encode(encoder, List.of("cookie", "id=1"))).startsWith("1f11");
        assertThat(encoder.tableLength()).isZero();

        encode(encoder, List.of("cookie", "session=0123456789abcdef"));
        assertThat(encoder.tableLength()).isEqualTo(1);
    }

    @Test
    void setCookieIsNeverIndexed() {
        assertThat(encode(encoder, List.of("set-cookie", "a=b; Path=/; HttpOnly"))).startsWith("1f28");
        assertThat(encoder.tableLength()).isZero();
    }

    @Test
    void pathIsSentWithoutIndexingButWithItsNameIndexed() {
        assertThat(encode(encoder, List.of(":path", "/items/42"))).startsWith("04");
        assertThat(encoder.tableLength()).isZero();
    }

    @Test
    void fieldLargerThanHalfTheTableIsNotIndexed() {
        encode(encoder, List.of("x-big", "v".repeat(3000)));

        assertThat(encoder.tableLength()).isZero();
    }

    @Test
    void lowerThenRaiseBetweenBlocksEmitsTheMinimumThenTheFinalSize() throws Exception {
        HpackDecoder decoder = new HpackDecoder(1 << 20, 4096);
        roundTrip(encoder, decoder, List.of("custom", "value"));
        encoder.peerMaxTableSize(0);
        decoder.maxTableSize(0);
        encoder.peerMaxTableSize(4096);
        decoder.maxTableSize(4096);

        String block = roundTrip(encoder, decoder, List.of("custom", "value"));

        assertThat(block).startsWith("20" + "3fe11f");
        assertThat(decoder.tableMaxSize()).isEqualTo(4096);
        assertThat(decoder.tableLength()).isEqualTo(1).isEqualTo(encoder.tableLength());
    }

    @Test
    void unchangedPeerSizeEmitsNoUpdate() {
        encoder.peerMaxTableSize(4096);

        assertThat(encode(encoder, List.of(":method", "GET"))).isEqualTo("82");
    }

    @Test
    void largerPeerTableIsCappedAtTheEncodersCap() {
        encoder.peerMaxTableSize(1 << 20);

        assertThat(encode(encoder, List.of(":method", "GET"))).isEqualTo("82");
    }

    @Test
    void capBelowTheDefaultIsAnnouncedInTheFirstBlock() throws Exception {
        HpackEncoder small = new HpackEncoder(0);
        HpackDecoder decoder = new HpackDecoder(1 << 20, 4096);

        assertThat(roundTrip(small, decoder, List.of("a", "b"))).startsWith("20");
        assertThat(decoder.tableMaxSize()).isZero();
        assertThat(roundTrip(small, decoder, List.of("a", "b"))).doesNotStartWith("20");
    }

    @Test
    void tooSmallBufferThrowsBeforeTouchingTheTable() {
        ByteBuffer out = ByteBuffer.allocate(10);

        assertThatThrownBy(() -> encoder.encode(List.of("custom-key", "custom-value"), out))
                .isInstanceOf(BufferOverflowException.class);
        assertThat(out.position()).isZero();
        assertThat(encoder.tableLength()).isZero();
    }

    @Test
    void textBeyondLatin1IsRefusedBeforeWritingAnything() {
        ByteBuffer out = ByteBuffer.allocate(100);

        assertThatThrownBy(() -> encoder.encode(List.of("a", "b", "c", "\u20ac"), out))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(out.position()).isZero();
        assertThat(encoder.tableLength()).isZero();
    }

    @Test
    void oddListIsRefused() {
        assertThatThrownBy(() -> encoder.encode(List.of("a"), ByteBuffer.allocate(100)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static String encode(HpackEncoder encoder, List<String> fields) {
        ByteBuffer out = ByteBuffer.allocate(HpackEncoder.maxEncodedLength(fields));
        encoder.encode(fields, out);
        return Hex.format(out.array(), out.position());
    }

    private static String roundTrip(HpackEncoder encoder, HpackDecoder decoder, List<String> fields)
            throws Exception {
        String block = encode(encoder, fields);
        assertThat(decodeAll(decoder, Hex.parse(block))).isEqualTo(fields);
        return block;
    }
}
