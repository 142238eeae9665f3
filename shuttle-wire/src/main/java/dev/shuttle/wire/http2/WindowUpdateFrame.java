package dev.shuttle.wire.http2;

/**
 * WINDOW_UPDATE (RFC 9113 section 6.9).
 *
 * @param streamId  0 for the connection window, else the stream's
 * @param increment 1..2^31-1; the reader turns 0 into a PROTOCOL_ERROR
 */
public record WindowUpdateFrame(int streamId, int increment) implements Http2Frame {
    /** Payload length, fixed. */
    public static final int LENGTH = 4;

    public WindowUpdateFrame {
        Http2Frame.checkStreamId(streamId, true);
        if (increment < 1) {
            throw new IllegalArgumentException("window increment must be 1..2^31-1: " + increment);
        }
    }

    @Override
    public int type() {
        return TYPE_WINDOW_UPDATE;
    }
}
