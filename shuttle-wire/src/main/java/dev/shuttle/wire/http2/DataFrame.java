package dev.shuttle.wire.http2;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * DATA (RFC 9113 section 6.1).
 *
 * @param streamId  never 0
 * @param data      the data octets, without padding; from the reader a slice of its input buffer (see
 *                  {@link Http2Frame})
 * @param endStream the END_STREAM flag
 * @param padding   0 when the PADDED flag is absent, else 1 (the Pad Length octet) + the padding octets, so that
 *                  {@link #flowControlledLength()} is the whole payload
 */
public record DataFrame(int streamId, ByteBuffer data, boolean endStream, int padding) implements Http2Frame {
    public DataFrame {
        Http2Frame.checkStreamId(streamId, false);
        Objects.requireNonNull(data, "data");
        Http2Frame.checkPadding(padding);
    }

    /** A fresh view of the data: reading it does not move this frame's own position, so the frame stays as it was. */
    @Override
    public ByteBuffer data() {
        return data.duplicate();
    }

    public DataFrame(int streamId, ByteBuffer data, boolean endStream) {
        this(streamId, data, endStream, 0);
    }

    @Override
    public int type() {
        return TYPE_DATA;
    }

    /** What this frame takes from the flow-control windows: the whole payload, padding included (section 6.9). */
    public int flowControlledLength() {
        return data.remaining() + padding;
    }
}
