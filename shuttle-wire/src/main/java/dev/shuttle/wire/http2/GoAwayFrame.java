package dev.shuttle.wire.http2;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * GOAWAY (RFC 9113 section 6.8). Always on stream 0.
 *
 * @param lastStreamId the highest peer-initiated stream the sender processed (reserved bit cleared)
 * @param errorCode    the raw 32-bit code, which may be unknown to {@link Http2ErrorCode}
 * @param debugData    opaque diagnostics; the reader copies them out of its input buffer
 */
public record GoAwayFrame(int lastStreamId, int errorCode, ByteBuffer debugData) implements Http2Frame {
    /** Last-Stream-ID and Error Code: the payload before the debug data. */
    public static final int FIXED_LENGTH = 8;

    public GoAwayFrame {
        Http2Frame.checkStreamId(lastStreamId, true);
        Objects.requireNonNull(debugData, "debugData");
    }

    /** A fresh view of the debug data: reading it does not move this frame's own position, so the frame stays as it was. */
    @Override
    public ByteBuffer debugData() {
        return debugData.duplicate();
    }

    public GoAwayFrame(int lastStreamId, Http2ErrorCode error, String debugText) {
        this(lastStreamId, error.code(), ByteBuffer.wrap(debugText.getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public int type() {
        return TYPE_GOAWAY;
    }

    @Override
    public int streamId() {
        return 0;
    }

    public Http2ErrorCode error() {
        return Http2ErrorCode.fromCode(errorCode);
    }

    /** The debug data as text for a log line (UTF-8, malformed sequences replaced). */
    public String debugText() {
        byte[] bytes = new byte[debugData.remaining()];
        debugData.duplicate().get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "GoAwayFrame[lastStreamId=" + lastStreamId + ", error=" + Http2ErrorCode.describe(errorCode)
                + ", debug=" + debugText() + "]";
    }
}
