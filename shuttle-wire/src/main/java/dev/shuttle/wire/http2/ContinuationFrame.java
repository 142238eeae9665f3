package dev.shuttle.wire.http2;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * CONTINUATION (RFC 9113 section 6.10): the next fragment of a field block begun by HEADERS or PUSH_PROMISE on the
 * same stream. {@link HeaderBlockAssembler} joins them; a connection never needs to handle this type itself.
 */
public record ContinuationFrame(int streamId, ByteBuffer fragment, boolean endHeaders) implements Http2Frame {
    public ContinuationFrame {
        Http2Frame.checkStreamId(streamId, false);
        Objects.requireNonNull(fragment, "fragment");
    }

    /** A fresh view of the field block fragment: reading it does not move this frame's own position, so the frame stays as it was. */
    @Override
    public ByteBuffer fragment() {
        return fragment.duplicate();
    }

    @Override
    public int type() {
        return TYPE_CONTINUATION;
    }
}
