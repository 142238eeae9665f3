package dev.shuttle.wire.http2;

import static dev.shuttle.wire.http2.RawFrames.bytes;
import static dev.shuttle.wire.http2.RawFrames.concat;
import static dev.shuttle.wire.http2.RawFrames.frame;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class Http2FrameWriterTest {

    @Test
    void writesDataExactlyAsTheRfcLaysItOut() {
        ByteBuffer out = ByteBuffer.allocate(64);
        ByteBuffer data = ByteBuffer.wrap(bytes('h', 'i'));

        Http2FrameWriter.write(out, new DataFrame(3, data, true, 3));

        assertThat(written(out)).isEqualTo(frame(Http2Frame.TYPE_DATA, 0x1 | 0x8, 3, bytes(2, 'h', 'i', 0, 0)));
        assertThat(data.position()).as("payload buffer left as it was").isZero();
    }

    @Test
    void writesSettingsPingGoAwayAndWindowUpdate() {
        ByteBuffer out = ByteBuffer.allocate(128);

        Http2FrameWriter.write(out, SettingsFrame.of(List.of(new SettingsFrame.Setting(4, 0x10000))));
        Http2FrameWriter.write(out, SettingsFrame.ACK);
        Http2FrameWriter.write(out, new PingFrame(0x0102030405060708L, true));
        Http2FrameWriter.write(out, new GoAwayFrame(7, Http2ErrorCode.ENHANCE_YOUR_CALM, "x"));
        Http2FrameWriter.write(out, new WindowUpdateFrame(0, 0x7fff_ffff));

        assertThat(written(out)).isEqualTo(concat(
                frame(Http2Frame.TYPE_SETTINGS, 0, 0, bytes(0, 4, 0, 1, 0, 0)),
                frame(Http2Frame.TYPE_SETTINGS, 1, 0),
                frame(Http2Frame.TYPE_PING, 1, 0, bytes(1, 2, 3, 4, 5, 6, 7, 8)),
                frame(Http2Frame.TYPE_GOAWAY, 0, 0, bytes(0, 0, 0, 7, 0, 0, 0, 0xb, 'x')),
                frame(Http2Frame.TYPE_WINDOW_UPDATE, 0, 0, bytes(0x7f, 0xff, 0xff, 0xff))));
    }

    @Test
    void tooSmallBufferThrowsAndWritesNothing() {
        ByteBuffer out = ByteBuffer.allocate(10);

        assertThatThrownBy(() -> Http2FrameWriter.write(out, new DataFrame(1, ByteBuffer.allocate(2), false)))
                .isInstanceOf(BufferOverflowException.class);
        assertThat(out.position()).isZero();
    }

    @Test
    void refusesALittleEndianOutputBuffer() {
        ByteBuffer out = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);

        assertThatThrownBy(() -> Http2FrameWriter.write(out, new PingFrame(1, false)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void headerBlockThatFitsGoesInOneHeadersFrame() {
        ByteBuffer out = ByteBuffer.allocate(64);

        int written = Http2FrameWriter.writeHeaderBlock(out, 1, ByteBuffer.wrap(bytes(0x82, 0x86)), true, 16_384);

        assertThat(written).isEqualTo(11).isEqualTo(Http2FrameWriter.headerBlockLength(2, 16_384));
        assertThat(written(out)).isEqualTo(frame(Http2Frame.TYPE_HEADERS, 0x1 | 0x4, 1, bytes(0x82, 0x86)));
    }

    @Test
    void largeHeaderBlockIsSplitIntoContinuationsByThePeersFrameSize() throws Exception {
        byte[] block = new byte[40_000];
        Arrays.fill(block, (byte) 7);
        ByteBuffer out = ByteBuffer.allocate(Http2FrameWriter.headerBlockLength(block.length, 16_384));

        Http2FrameWriter.writeHeaderBlock(out, 5, ByteBuffer.wrap(block), false, 16_384);

        assertThat(out.hasRemaining()).isFalse();
        List<Http2Frame> frames = RawFrames.readWhole(new Http2FrameReader(), out.array());
        assertThat(frames).hasSize(3);
        assertThat(frames.get(0)).isEqualTo(new HeadersFrame(5, ByteBuffer.wrap(block, 0, 16_384), false, false));
        assertThat(frames.get(1)).isEqualTo(new ContinuationFrame(5, ByteBuffer.wrap(block, 0, 16_384), false));
        assertThat(frames.get(2)).isEqualTo(new ContinuationFrame(5, ByteBuffer.wrap(block, 0, 7_232), true));
    }

    @Test
    void pushPromiseBlockCountsThePromisedIdInItsFirstFrame() throws Exception {
        byte[] block = new byte[16_384];
        ByteBuffer out = ByteBuffer.allocate(Http2FrameWriter.headerBlockLength(block.length + 4, 16_384));

        Http2FrameWriter.writePushPromiseBlock(out, 1, 2, ByteBuffer.wrap(block), 16_384);

        assertThat(out.hasRemaining()).isFalse();
        List<Http2Frame> frames = RawFrames.readWhole(new Http2FrameReader(), out.array());
        assertThat(frames).containsExactly(
                new PushPromiseFrame(1, 2, ByteBuffer.wrap(block, 0, 16_380), false, 0),
                new ContinuationFrame(1, ByteBuffer.wrap(block, 0, 4), true));
    }

    @Test
    void frameHeaderAloneIsNineOctetsForAGatheringWrite() {
        ByteBuffer out = ByteBuffer.allocate(9);

        Http2FrameWriter.writeFrameHeader(out, 16_384, Http2Frame.TYPE_DATA, 0, 0x7fff_ffff);

        assertThat(out.array()).isEqualTo(bytes(0, 0x40, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff));
    }

    @Test
    void framesRefuseValuesTheWireCannotCarry() {
        assertThatThrownBy(() -> new DataFrame(0, ByteBuffer.allocate(0), false))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DataFrame(1, ByteBuffer.allocate(0), false, 257))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new WindowUpdateFrame(1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Priority(1, false, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new UnknownFrame(Http2Frame.TYPE_DATA, 0, 1, ByteBuffer.allocate(0)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SettingsFrame(true, List.of(new SettingsFrame.Setting(1, 0))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void prefaceIsReadOnlyWhenCompleteAndTellsHttp1ApartEarly() {
        byte[] preface = Http2Preface.bytes();
        assertThat(new String(preface, java.nio.charset.StandardCharsets.US_ASCII))
                .isEqualTo("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

        ByteBuffer partial = ByteBuffer.wrap(preface, 0, 10);
        assertThat(Http2Preface.read(partial)).isEqualTo(Http2Preface.Match.PARTIAL);
        assertThat(partial.position()).isZero();

        ByteBuffer http1 = ByteBuffer.wrap("PRIX".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        assertThat(Http2Preface.read(http1)).isEqualTo(Http2Preface.Match.MISMATCH);
        assertThat(http1.position()).isZero();

        ByteBuffer whole = ByteBuffer.wrap(concat(preface, bytes(0, 0, 0)));
        assertThat(Http2Preface.read(whole)).isEqualTo(Http2Preface.Match.COMPLETE);
        assertThat(whole.position()).isEqualTo(24);

        ByteBuffer out = ByteBuffer.allocate(24);
        Http2Preface.write(out);
        assertThat(out.array()).isEqualTo(preface);
    }

    private static byte[] written(ByteBuffer out) {
        return Arrays.copyOf(out.array(), out.position());
    }
}
