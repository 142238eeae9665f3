package dev.shuttle.wire.hpack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Exception;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HpackDecoderTest {
    private final HpackDecoder decoder = new HpackDecoder(16 * 1024, 4096);

    @Test
    void indexZeroIsACompressionError() {
        assertCompressionError(decoder, "80");
    }

    @Test
    void indexBeyondTheDynamicTableIsACompressionError() {
        assertCompressionError(decoder, "be");
    }

    @Test
    void sizeUpdateAfterAFieldIsACompressionError() {
        assertCompressionError(decoder, "82 20");
    }

    @Test
    void sizeUpdateAboveOurSettingIsACompressionError() {
        assertCompressionError(decoder, block(out -> HpackEncoder.writeInt(out, 0x20, 5, 4097)));
    }

    @Test
    void twoSizeUpdatesAtTheStartAreAcceptedAndAThirdIsNot() throws Exception {
        assertThat(decodeAll(decoder, Hex.parse("20 3f e1 1f 82"))).containsExactly(":method", "GET");
        assertThat(decoder.tableMaxSize()).isEqualTo(4096);

        assertCompressionError(new HpackDecoder(1024, 4096), "20 20 20 82");
    }

    @Test
    void afterOurLimitDropsTheNextBlockMustStartWithASizeUpdate() throws Exception {
        decodeAll(decoder, Hex.parse("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572"));
        decoder.maxTableSize(100);

        assertCompressionError(decoder, "82");
    }

    @Test
    void sizeUpdateWithinTheLoweredLimitSatisfiesIt() throws Exception {
        decodeAll(decoder, Hex.parse("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572"));
        decoder.maxTableSize(100);

        assertThat(decodeAll(decoder, block(out -> {
            HpackEncoder.writeInt(out, 0x20, 5, 50);
            out.put((byte) 0x82);
        }))).containsExactly(":method", "GET");
        assertThat(decoder.tableLength()).isZero();
        assertThat(decoder.tableMaxSize()).isEqualTo(50);
    }

    @Test
    void integerAboveTwoToThe31MinusOneIsACompressionError() {
        assertCompressionError(decoder, "ff ff ff ff ff 7f");
    }

    @Test
    void integerWithTooManyContinuationOctetsIsACompressionError() {
        assertCompressionError(decoder, "ff 80 80 80 80 80 00");
    }

    @Test
    void blockEndingInsideAnIntegerIsACompressionError() {
        assertCompressionError(decoder, "ff");
    }

    @Test
    void stringLongerThanTheRestOfTheBlockIsRefusedBeforeAllocating() {
        assertCompressionError(decoder, block(out -> {
            out.put((byte) 0x40);
            HpackEncoder.writeInt(out, 0, 7, Integer.MAX_VALUE);
            out.put((byte) 'a');
        }));
    }

    @Test
    void blockEndingWhereAStringBelongsIsACompressionError() {
        assertCompressionError(decoder, "40");
        assertCompressionError(decoder, "41");
    }

    @Test
    void huffmanStringWithEosIsACompressionError() {
        assertCompressionError(decoder, "41 84 ff ff ff ff");
    }

    @Test
    void decodesFromADirectBuffer() throws Exception {
        byte[] block = Hex.parse("8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d");
        ByteBuffer direct = ByteBuffer.allocateDirect(block.length).put(block).flip();

        assertThat(decodeAll(decoder, direct)).containsExactly(":method", "GET", ":scheme", "http", ":path", "/",
                ":authority", "www.example.com");
        assertThat(direct.hasRemaining()).isFalse();
    }

    @Test
    void commonNamesAreSharedConstantsNotNewStrings() throws Exception {
        List<String> first = decodeAll(decoder, literalBlock("accept-language", "en"));
        List<String> second = decodeAll(decoder, Hex.parse("be"));

        assertThat(first.get(0)).isSameAs(StaticTable.name(17));
        assertThat(second.get(0)).isSameAs(StaticTable.name(17));
    }

    @Test
    void listOverTheLimitIsReportedButTheBlockIsDecodedToTheEndAndTheTableKeptInStep() throws Exception {
        HpackDecoder small = new HpackDecoder(130, 4096);
        byte[] block = concat(literalBlock("a", "1".repeat(30)), literalBlock("b", "2".repeat(30)),
                literalBlock("c", "3".repeat(30)));
        List<String> delivered = new ArrayList<>();

        boolean fits = small.decode(ByteBuffer.wrap(block), (name, value) -> delivered.add(name));

        assertThat(fits).isFalse();
        assertThat(delivered).containsExactly("a", "b");
        assertThat(small.tableLength()).isEqualTo(3);
        assertThat(decodeAll(small, Hex.parse("be"))).containsExactly("c", "3".repeat(30));
    }

    @Test
    void headerListSizeCountsNameValueAndThirtyTwoPerField() throws Exception {
        HpackDecoder exact = new HpackDecoder(3 * (7 + 3 + 32), 4096);

        assertThat(exact.decode(ByteBuffer.wrap(Hex.parse("82 82 82")), (n, v) -> { })).isTrue();
        assertThat(exact.decode(ByteBuffer.wrap(Hex.parse("82 82 82 82")), (n, v) -> { })).isFalse();
    }

    @Test
    void hpackBombOfOneLargeEntryReferencedManyTimesDeliversOnlyUpToTheLimit() throws Exception {
        byte[] insert = literalBlock("x", "y".repeat(4000));
        byte[] references = new byte[100_000];
        java.util.Arrays.fill(references, (byte) 0xbe);
        int[] delivered = {0};

        boolean fits = decoder.decode(ByteBuffer.wrap(concat(insert, references)), (name, value) -> delivered[0]++);

        assertThat(fits).isFalse();
        assertThat(delivered[0]).isEqualTo(4);
    }

    @Test
    void entryLargerThanTheTableEmptiesIt() throws Exception {
        HpackDecoder tiny = new HpackDecoder(1 << 20, 100);
        decodeAll(tiny, literalBlock("a", "b"));
        assertThat(tiny.tableLength()).isEqualTo(1);

        assertThat(decodeAll(tiny, literalBlock("big", "v".repeat(100)))).containsExactly("big", "v".repeat(100));

        assertThat(tiny.tableLength()).isZero();
        assertThat(tiny.tableSize()).isZero();
    }

    @Test
    void newEntryMayReuseTheNameOfTheEntryItEvicts() throws Exception {
        HpackDecoder tiny = new HpackDecoder(1 << 20, 50);
        decodeAll(tiny, literalBlock("custom-key", "a"));

        // Literal with incremental indexing, name from index 62 (the entry that must go to make room).
        assertThat(decodeAll(tiny, Hex.parse("7e 02 62 62"))).containsExactly("custom-key", "bb");

        assertThat(tiny.tableLength()).isEqualTo(1);
        assertThat(tiny.tableEntry(0)).isEqualTo("custom-key: bb");
    }

    @Test
    void literalsWithoutAndNeverIndexedLeaveTheTableAlone() throws Exception {
        assertThat(decodeAll(decoder, Hex.parse("0f 1f 03 31 32 33 1f 08 01 78"))).containsExactly("location",
                "123", "authorization", "x");
        assertThat(decoder.tableLength()).isZero();
    }

    private static byte[] literalBlock(String name, String value) {
        return block(out -> {
            out.put((byte) 0x40);
            HpackEncoder.writeInt(out, 0, 7, name.length());
            out.put(name.getBytes(StandardCharsets.ISO_8859_1));
            HpackEncoder.writeInt(out, 0, 7, value.length());
            out.put(value.getBytes(StandardCharsets.ISO_8859_1));
        });
    }

    private static byte[] block(java.util.function.Consumer<ByteBuffer> writer) {
        ByteBuffer out = ByteBuffer.allocate(10_000);
        writer.accept(out);
        return java.util.Arrays.copyOf(out.array(), out.position());
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    static List<String> decodeAll(HpackDecoder decoder, byte[] block) throws Http2Exception {
        return decodeAll(decoder, ByteBuffer.wrap(block));
    }

    static List<String> decodeAll(HpackDecoder decoder, ByteBuffer block) throws Http2Exception {
        List<String> fields = new ArrayList<>();
        boolean fits = decoder.decode(block, (name, value) -> {
            fields.add(name);
            fields.add(value);
        });
        assertThat(fits).isTrue();
        return fields;
    }

    private static void assertCompressionError(HpackDecoder decoder, String hex) {
        assertCompressionError(decoder, Hex.parse(hex));
    }

    private static void assertCompressionError(HpackDecoder decoder, byte[] block) {
        Http2Exception e = catchThrowableOfType(Http2Exception.class,
                () -> decoder.decode(ByteBuffer.wrap(block), (name, value) -> { }));
        assertThat(e).as("expected a COMPRESSION_ERROR").isNotNull();
        assertThat(e.error()).isEqualTo(Http2ErrorCode.COMPRESSION_ERROR);
        assertThat(e.isConnectionError()).isTrue();
    }
}
