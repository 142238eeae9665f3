package dev.shuttle.wire.http2;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * HEADERS (RFC 9113 section 6.2). After {@link HeaderBlockAssembler} the fragment is the whole field block and
 * {@code endHeaders} is true.
 *
 * @param streamId   never 0
 * @param fragment   the field block fragment, without padding or priority fields
 * @param endStream  the END_STREAM flag
 * @param endHeaders the END_HEADERS flag: false means CONTINUATION frames follow
 * @param priority   the priority fields when the PRIORITY flag is set, else null
 * @param padding    0 when the PADDED flag is absent, else 1 + the padding octets
 */
public record HeadersFrame(int streamId, ByteBuffer fragment, boolean endStream, boolean endHeaders,
                           Priority priority, int padding) implements Http2Frame {
    public HeadersFrame {
        Http2Frame.checkStreamId(streamId, false);
        Objects.requireNonNull(fragment, "fragment");
        Http2Frame.checkPadding(padding);
    }

    /** A fresh view of the field block fragment: reading it does not move this frame's own position, so the frame stays as it was. */
    @Override
    public ByteBuffer fragment() {
        return fragment.duplicate();
    }

    /** An unpadded HEADERS frame without priority. */
    public HeadersFrame(int streamId, ByteBuffer fragment, boolean endStream, boolean endHeaders) {
        this(streamId, fragment, endStream, endHeaders, null, 0);
    }

    @Override
    public int type() {
        return TYPE_HEADERS;
    }
}
