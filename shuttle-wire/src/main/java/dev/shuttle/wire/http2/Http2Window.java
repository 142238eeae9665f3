package dev.shuttle.wire.http2;

/**
 * One flow-control window, stream or connection, with the arithmetic of RFC 9113 section 6.9. Used on both sides:
 * a sender's window of what the peer lets it send, and a receiver's window of what it lets the peer send. Not
 * thread-safe: the owner (the connection's writer for send windows, its reader for receive windows, or whoever holds
 * the lock that guards the stream) serialises the calls.
 *
 * <p>A window may be negative: when the peer lowers SETTINGS_INITIAL_WINDOW_SIZE after data was sent, every stream
 * window drops by the difference (section 6.9.2), and the sender must wait until WINDOW_UPDATEs lift it above zero.
 * It may never exceed 2^31-1; going over is a FLOW_CONTROL_ERROR, of the stream for a stream's WINDOW_UPDATE and of
 * the connection for the connection's or for a SETTINGS change.
 */
public final class Http2Window {
    /** Largest window: 2^31-1. */
    public static final int MAX_SIZE = Integer.MAX_VALUE;

    private final int streamId;
    /** Never above MAX_SIZE; may be negative after a SETTINGS change. */
    private long size;

    /**
     * @param streamId    0 for the connection window, else the stream's id (used to scope errors)
     * @param initialSize 65535 for the connection; SETTINGS_INITIAL_WINDOW_SIZE for a stream
     */
    public Http2Window(int streamId, int initialSize) {
        Http2Frame.checkStreamId(streamId, true);
        if (initialSize < 0) {
            throw new IllegalArgumentException("initial window must be 0..2^31-1: " + initialSize);
        }
        this.streamId = streamId;
        this.size = initialSize;
    }

    public int streamId() {
        return streamId;
    }

    /** The current window; negative after a SETTINGS change lowered it below what was already in flight. */
    public int size() {
        return (int) size;
    }

    /** What may be sent now: the window, or 0 when it is negative. */
    public int available() {
        return (int) Math.max(0, size);
    }

    /**
     * Sender side: takes {@code length} octets of a DATA frame out of the window.
     *
     * @throws IllegalArgumentException if {@code length} is negative or above {@link #available()}: sending more
     *                                  than the window allows is our bug, not the peer's
     */
    public void consume(int length) {
        if (length < 0 || length > available()) {
            throw new IllegalArgumentException("cannot send " + length + " octets in a window of " + size);
        }
        size -= length;
    }

    /**
     * Receiver side: the peer sent a DATA frame whose payload (padding included) is {@code length} octets.
     *
     * @throws Http2Exception FLOW_CONTROL_ERROR when it exceeds the window: a stream error on a stream window, a
     *                        connection error on the connection's
     */
    public void receive(int length) throws Http2Exception {
        if (length < 0) {
            throw new IllegalArgumentException("negative length " + length);
        }
        if (length > size) {
            throw error(streamId, "peer sent " + length + " octets into a window of " + size);
        }
        size -= length;
    }

    /**
     * Adds a WINDOW_UPDATE increment: one received (sender side) or one we are sending (receiver side).
     *
     * @throws Http2Exception FLOW_CONTROL_ERROR when the window would exceed 2^31-1 (section 6.9.1); stream-scoped
     *                        for a stream window, connection-scoped for the connection window
     */
    public void increase(int increment) throws Http2Exception {
        if (increment < 1) {
            throw new IllegalArgumentException("window increment must be 1..2^31-1: " + increment);
        }
        if (size + increment > MAX_SIZE) {
            throw error(streamId, "window of " + size + " plus increment " + increment + " exceeds 2^31-1");
        }
        size += increment;
    }

    /**
     * Applies a change of SETTINGS_INITIAL_WINDOW_SIZE to a stream window: adds {@code newInitial - oldInitial},
     * which may make the window negative (section 6.9.2). Not for the connection window, which SETTINGS never
     * changes.
     *
     * @throws Http2Exception connection FLOW_CONTROL_ERROR when the window would exceed 2^31-1
     */
    public void adjustInitialSize(int oldInitial, int newInitial) throws Http2Exception {
        if (streamId == 0) {
            throw new IllegalStateException("SETTINGS_INITIAL_WINDOW_SIZE does not apply to the connection window");
        }
        long adjusted = size + ((long) newInitial - oldInitial);
        if (adjusted > MAX_SIZE) {
            throw error(0, "SETTINGS_INITIAL_WINDOW_SIZE change takes the window of stream " + streamId + " to "
                    + adjusted);
        }
        size = adjusted;
    }

    private static Http2Exception error(int streamId, String message) {
        return streamId == 0
                ? Http2Exception.connectionError(Http2ErrorCode.FLOW_CONTROL_ERROR, message)
                : Http2Exception.streamError(streamId, Http2ErrorCode.FLOW_CONTROL_ERROR, message);
    }

    @Override
    public String toString() {
        return "Http2Window[stream=" + streamId + ", size=" + size + "]";
    }
}
