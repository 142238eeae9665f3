package dev.shuttle.wire.http2;

/**
 * The receive side of one connection's flow control (RFC 9113 6.9), the same for client and server: the windows we
 * grant the peer, connection and per stream ({@link Stream}), checked against every DATA frame, and the credit handed
 * back as the application consumes what arrived ({@link WindowUpdatePolicy}: half a window at a time).
 *
 * <p>Every octet that counted against the connection window comes back to it exactly once: consumed by a reader,
 * padding on arrival, or dropped (a stream reset, a body nobody will read, a frame refused with a stream error),
 * or the connection would shrink for good until it stalls.
 *
 * <p>Not thread-safe: the caller's lock guards it and every stream's part.
 */
public final class ReceiveWindows {
    /** One stream's receive window and when to credit it. */
    public static final class Stream {
        private final Http2Window window;
        private final WindowUpdatePolicy policy;

        private Stream(int id, int size) {
            this.window = new Http2Window(id, size);
            this.policy = new WindowUpdatePolicy(size);
        }
    }

    private final Http2Window connection;
    private final WindowUpdatePolicy connectionPolicy;
    private final int streamWindow;
    /** Connection credit handed out by the policy and not yet taken for a WINDOW_UPDATE. */
    private int connectionUpdate;
    /** The peer acknowledged our SETTINGS; until then it may send a new stream the default window (RFC 9113 6.9.2). */
    private boolean settingsAcknowledged;

    /**
     * @param connectionWindow the connection window we grant (the part above 65 535 announced in our opening
     *                         WINDOW_UPDATE)
     * @param streamWindow     our SETTINGS_INITIAL_WINDOW_SIZE
     */
    public ReceiveWindows(int connectionWindow, int streamWindow) {
        this.connection = new Http2Window(0, connectionWindow);
        this.connectionPolicy = new WindowUpdatePolicy(connectionWindow);
        this.streamWindow = streamWindow;
    }

    /**
     * A new stream's receive window: our SETTINGS_INITIAL_WINDOW_SIZE, or the protocol's default if that is larger
     * and the peer has not acknowledged our SETTINGS yet (it may not have seen a smaller window).
     */
    public Stream open(int streamId) {
        return new Stream(streamId, settingsAcknowledged ? streamWindow
                : Math.max(streamWindow, Http2Settings.DEFAULT_INITIAL_WINDOW_SIZE));
    }

    /** The peer acknowledged our SETTINGS: streams opened from now on get exactly our initial window. */
    public void settingsAcknowledged() {
        settingsAcknowledged = true;
    }

    /**
     * A DATA frame of {@code flowControlled} octets (padding included) arrived: it counts against the connection
     * window, then against the stream's. With {@code stream} null (a stream gone, reset, or never to be read) the
     * whole frame is dropped: consumed at once. Otherwise the padding, {@code flowControlled - payload}, is nobody's to
     * read and is consumed at once, for the connection and the stream alike (or a padded body would shrink its own
     * window until it stalls); the payload is consumed as the reader takes it (or drops it). When the stream's window
     * is overrun, the frame's octets counted against the connection's all the same (RFC 9113 6.9) and are consumed at
     * once too; the caller resets the stream.
     *
     * @return the stream WINDOW_UPDATE increment the padding made due, or 0; the caller sends it unless the frame
     *         ended the stream
     * @throws Http2Exception a connection FLOW_CONTROL_ERROR when the connection window is overrun, a stream one when
     *                        the stream's is
     */
    public int receive(Stream stream, int flowControlled, int payload) throws Http2Exception {
        connection.receive(flowControlled);
        if (stream == null) {
            connectionConsumed(flowControlled);
            return 0;
        }
        try {
            stream.window.receive(flowControlled);
        } catch (Http2Exception e) {
            connectionConsumed(flowControlled);
            throw e;
        }
        connectionConsumed(flowControlled - payload);
        return streamConsumed(stream, flowControlled - payload);
    }

    /**
     * {@code n} octets that counted against the connection window were consumed: read, or dropped (a stream reset or
     * gone, a body nobody will read). The credit is sent half a window at a time ({@link #takeConnectionUpdate}).
     */
    public void connectionConsumed(long n) {
        if (n <= 0) {
            return;
        }
        int increment = connectionPolicy.consumed((int) Math.min(Integer.MAX_VALUE, n));
        if (increment > 0) {
            increase(connection, increment);
            connectionUpdate += increment;
        }
    }

    /** The connection WINDOW_UPDATE increment to send now, or 0; taking it clears it. */
    public int takeConnectionUpdate() {
        int increment = connectionUpdate;
        connectionUpdate = 0;
        return increment;
    }

    /**
     * The application read {@code n} octets of {@code stream}; returns the stream WINDOW_UPDATE increment to send now,
     * or 0. A stream whose END_STREAM arrived needs none (its consumption still counts for the connection).
     */
    public int streamConsumed(Stream stream, long n) {
        if (n <= 0) {
            return 0;
        }
        int increment = stream.policy.consumed((int) Math.min(Integer.MAX_VALUE, n));
        if (increment > 0) {
            increase(stream.window, increment);
        }
        return increment;
    }

    private static void increase(Http2Window window, int increment) {
        try {
            window.increase(increment);
        } catch (Http2Exception e) {
            throw new IllegalStateException("our own window overflowed", e); // we only give back what was taken
        }
    }
}
