package dev.shuttle.wire.http2;

import dev.shuttle.wire.hpack.HpackEncoder;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Field blocks out, for either side: the connection's HPACK encoder and the peer's limits it must respect (its
 * header table size and SETTINGS_MAX_FRAME_SIZE), turning a field list into HEADERS and CONTINUATION frames. Blocks
 * must reach the peer in the order they were encoded, so the caller encodes and writes under one lock.
 *
 * <p>A block that surely fits one frame is encoded straight into the output behind room left for the frame header
 * (no block buffer, no copy); a larger one goes through a block buffer and is split.
 *
 * <p>Not thread-safe: owned by the connection's writer.
 */
public final class FieldBlockEncoder {
    private final HpackEncoder hpack = new HpackEncoder();
    private int peerMaxFrameSize = Http2Settings.MIN_MAX_FRAME_SIZE;

    /** The peer's SETTINGS took effect: its HPACK table size and frame size. */
    public void peerSettings(Http2Settings settings) {
        hpack.peerMaxTableSize(settings.headerTableSize());
        peerMaxFrameSize = settings.maxFrameSize();
    }

    /** The peer's SETTINGS_HEADER_TABLE_SIZE alone (for a writer that orders it with other frames). */
    public void peerTableSize(long headerTableSize) {
        hpack.peerMaxTableSize(headerTableSize);
    }

    /** The peer's SETTINGS_MAX_FRAME_SIZE alone. */
    public void peerMaxFrameSize(int maxFrameSize) {
        this.peerMaxFrameSize = maxFrameSize;
    }

    /** Octets {@link #write} may need for {@code fields}: at most this many, frame headers included. */
    public int maxLength(List<String> fields) {
        int bound = HpackEncoder.maxEncodedLength(fields);
        return bound <= peerMaxFrameSize ? Http2Frame.HEADER_LENGTH + bound
                : Http2FrameWriter.headerBlockLength(bound, peerMaxFrameSize);
    }

    /**
     * Encodes {@code fields} as HEADERS (and CONTINUATION when the block outgrows a frame) for {@code streamId} into
     * {@code out}, which must have {@link #maxLength} octets left.
     */
    public void write(ByteBuffer out, int streamId, List<String> fields, boolean endStream) {
        int bound = HpackEncoder.maxEncodedLength(fields);
        if (bound <= peerMaxFrameSize) {
            int start = out.position();
            out.position(start + Http2Frame.HEADER_LENGTH);
            hpack.encode(fields, out);
            int end = out.position();
            out.position(start);
            Http2FrameWriter.writeFrameHeader(out, end - start - Http2Frame.HEADER_LENGTH, Http2Frame.TYPE_HEADERS,
                    Http2Frame.FLAG_END_HEADERS | (endStream ? Http2Frame.FLAG_END_STREAM : 0), streamId);
            out.position(end);
            return;
        }
        ByteBuffer block = ByteBuffer.allocate(bound);
        hpack.encode(fields, block);
        Http2FrameWriter.writeHeaderBlock(out, streamId, block.flip(), endStream, peerMaxFrameSize);
    }
}
