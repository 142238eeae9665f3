package dev.shuttle.wire.http2;

import java.io.IOException;
import java.util.Objects;

/**
 * A peer broke an HTTP/2 or HPACK rule. It says which error code to send and whether the whole connection or only
 * one stream is affected (RFC 9113 section 5.4):
 *
 * <ul>
 *   <li>connection error ({@link #isConnectionError()}, {@link #streamId()} is 0): send GOAWAY with
 *       {@link #error()} and the last stream id processed, then close the connection. Codec state (HPACK tables, a
 *       header block in progress) is no longer trustworthy, so do not feed the codec again;</li>
 *   <li>stream error: send RST_STREAM with {@link #error()} on {@link #streamId()} and go on reading. The frame reader
 *       throws a stream error only after it has consumed the whole offending frame, so the next read starts at the
 *       next frame.</li>
 * </ul>
 */
public final class Http2Exception extends IOException {
    private final Http2ErrorCode error;
    private final int streamId;

    private Http2Exception(Http2ErrorCode error, int streamId, String message) {
        super(message);
        this.error = Objects.requireNonNull(error);
        this.streamId = streamId;
    }

    /** An error that ends the connection. */
    public static Http2Exception connectionError(Http2ErrorCode error, String message) {
        return new Http2Exception(error, 0, message);
    }

    /** An error that ends only stream {@code streamId} (which must not be 0). */
    public static Http2Exception streamError(int streamId, Http2ErrorCode error, String message) {
        if (streamId <= 0) {
            throw new IllegalArgumentException("stream error needs a stream id, got " + streamId);
        }
        return new Http2Exception(error, streamId, message);
    }

    /** The code to put in GOAWAY or RST_STREAM. */
    public Http2ErrorCode error() {
        return error;
    }

    /** The stream that failed, or 0 for a connection error. */
    public int streamId() {
        return streamId;
    }

    public boolean isConnectionError() {
        return streamId == 0;
    }

    @Override
    public String getMessage() {
        String scope = streamId == 0 ? "connection error " : "stream " + streamId + " error ";
        return scope + error + ": " + super.getMessage();
    }
}
