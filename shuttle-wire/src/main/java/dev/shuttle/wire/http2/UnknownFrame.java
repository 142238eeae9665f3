package dev.shuttle.wire.http2;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A frame of a type this codec does not know (extension frames, RFC 9113 section 5.5). A receiver must ignore and
 * discard it, except that it may not appear inside a field block. The payload is a slice of the input buffer.
 */
public record UnknownFrame(int type, int flags, int streamId, ByteBuffer payload) implements Http2Frame {
    public UnknownFrame {
        if (type < 0 || type > 0xff || (type >= TYPE_DATA && type <= TYPE_CONTINUATION)) {
            throw new IllegalArgumentException("not an unknown frame type: " + type);
        }
        if (flags < 0 || flags > 0xff) {
            throw new IllegalArgumentException("flags must fit an octet: " + flags);
        }
        Http2Frame.checkStreamId(streamId, true);
        Objects.requireNonNull(payload, "payload");
    }

    /** A fresh view of the payload: reading it does not move this frame's own position, so the frame stays as it was. */
    @Override
    public ByteBuffer payload() {
        return payload.duplicate();
    }
}
