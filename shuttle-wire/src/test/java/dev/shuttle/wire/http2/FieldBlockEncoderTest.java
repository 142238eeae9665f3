package dev.shuttle.wire.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.wire.hpack.HpackDecoder;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FieldBlockEncoderTest {
    private static final Http2Limits LIMITS = Http2Limits.clientDefaults();

    /** Reads the frames {@code out} holds back through the frame reader and the block assembler, then HPACK. */
    private static List<String> decode(ByteBuffer out, HpackDecoder decoder, List<Http2Frame> frames)
            throws Exception {
        out.flip();
        Http2FrameReader reader = new Http2FrameReader(Http2Settings.MAX_MAX_FRAME_SIZE);
        HeaderBlockAssembler blocks = new HeaderBlockAssembler(1 << 20, 100);
        List<String> fields = new ArrayList<>();
        for (Http2Frame frame; (frame = reader.read(out)) != null; ) {
            frames.add(frame);
            Http2Frame whole = blocks.accept(frame);
            if (whole instanceof HeadersFrame headers) {
                decoder.decode(headers.fragment(), (name, value) -> {
                    fields.add(name);
                    fields.add(value);
                });
            }
        }
        return fields;
    }

    @Test
    void aSmallBlockIsOneHeadersFrameWrittenInPlace() throws Exception {
        FieldBlockEncoder encoder = new FieldBlockEncoder();
        List<String> fields = List.of(":status", "200", "content-type", "text/plain");
        ByteBuffer out = ByteBuffer.allocate(encoder.maxLength(fields));
        encoder.write(out, 3, fields, true);
        List<Http2Frame> frames = new ArrayList<>();
        assertThat(decode(out, new HpackDecoder(1 << 20, 4096), frames)).isEqualTo(fields);
        assertThat(frames).singleElement().isInstanceOfSatisfying(HeadersFrame.class, h -> {
            assertThat(h.streamId()).isEqualTo(3);
            assertThat(h.endStream()).isTrue();
            assertThat(h.endHeaders()).isTrue();
        });
    }

    @Test
    void aBlockLargerThanThePeersFrameSizeGoesOnInContinuationFrames() throws Exception {
        FieldBlockEncoder encoder = new FieldBlockEncoder();
        List<String> fields = List.of(":status", "200", "x-big", "v".repeat(40_000));
        ByteBuffer out = ByteBuffer.allocate(encoder.maxLength(fields));
        encoder.write(out, 5, fields, false);
        List<Http2Frame> frames = new ArrayList<>();
        assertThat(decode(out, new HpackDecoder(1 << 20, 4096), frames)).isEqualTo(fields);
        assertThat(frames).hasSizeGreaterThan(2);
        assertThat(frames.get(0)).isInstanceOf(HeadersFrame.class);
        assertThat(frames.subList(1, frames.size())).allMatch(f -> f instanceof ContinuationFrame);
    }

    @Test
    void aPeerThatAllowsLargerFramesGetsOneFrame() throws Exception {
        FieldBlockEncoder encoder = new FieldBlockEncoder();
        encoder.peerMaxFrameSize(1 << 20);
        List<String> fields = List.of(":status", "200", "x-big", "v".repeat(40_000));
        ByteBuffer out = ByteBuffer.allocate(encoder.maxLength(fields));
        encoder.write(out, 5, fields, false);
        List<Http2Frame> frames = new ArrayList<>();
        decode(out, new HpackDecoder(1 << 20, 4096), frames);
        assertThat(frames).hasSize(1);
    }

    @Test
    void blocksStayInStepWithThePeersTableAcrossRequests() throws Exception {
        FieldBlockEncoder encoder = new FieldBlockEncoder();
        HpackDecoder decoder = new HpackDecoder(LIMITS);
        for (int i = 0; i < 50; i++) {
            List<String> fields = List.of(":status", "200", "x-request", "value-" + (i % 7), "x-same", "same");
            ByteBuffer out = ByteBuffer.allocate(encoder.maxLength(fields));
            encoder.write(out, 1 + 2 * i, fields, false);
            assertThat(decode(out, decoder, new ArrayList<>())).isEqualTo(fields);
        }
    }
}
