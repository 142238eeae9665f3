package dev.shuttle.wire.http2;

/**
 * RST_STREAM (RFC 9113 section 6.4).
 *
 * @param streamId  never 0
 * @param errorCode the raw 32-bit code, which may be one {@link Http2ErrorCode} does not know
 */
public record RstStreamFrame(int streamId, int errorCode) implements Http2Frame {
    public RstStreamFrame {
        Http2Frame.checkStreamId(streamId, false);
    }

    public RstStreamFrame(int streamId, Http2ErrorCode error) {
        this(streamId, error.code());
    }

    @Override
    public int type() {
        return TYPE_RST_STREAM;
    }

    /** The code as an enum; unknown codes read as INTERNAL_ERROR. */
    public Http2ErrorCode error() {
        return Http2ErrorCode.fromCode(errorCode);
    }

    @Override
    public String toString() {
        return "RstStreamFrame[streamId=" + streamId + ", error=" + Http2ErrorCode.describe(errorCode) + "]";
    }
}
