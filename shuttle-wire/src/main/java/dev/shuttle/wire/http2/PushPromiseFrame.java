package dev.shuttle.wire.http2;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * PUSH_PROMISE (RFC 9113 section 6.6). Whether push is allowed at all (a server never receives it; a client that
 * disabled push must refuse it) is the connection's decision, not the reader's.
 *
 * @param streamId         the associated stream, never 0
 * @param promisedStreamId the reserved stream, never 0 (reserved bit cleared)
 * @param fragment         the field block fragment, without padding
 * @param endHeaders       the END_HEADERS flag
 * @param padding          0 when unpadded, else 1 + the padding octets
 */
public record PushPromiseFrame(int streamId, int promisedStreamId, ByteBuffer fragment, boolean endHeaders,
                               int padding) implements Http2Frame {
    public PushPromiseFrame {
        Http2Frame.checkStreamId(streamId, false);
        Http2Frame.checkStreamId(promisedStreamId, false);
        Objects.requireNonNull(fragment, "fragment");
        Http2Frame.checkPadding(padding);
    }

    /** A fresh view of the field block fragment: reading it does not move this frame's own position, so the frame stays as it was. */
    @Override
    public ByteBuffer fragment() {
        return fragment.duplicate();
    }

    @Override
    public int type() {
        return TYPE_PUSH_PROMISE;
    }
}
