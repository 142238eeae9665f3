package dev.shuttle.wire.http2;

/**
 * The send side of one connection's flow control (RFC 9113 6.9), the same for client and server: the connection's
 * window and each stream's ({@link Stream}), what a DATA frame may take of them, and what the peer's WINDOW_UPDATE and
 * SETTINGS_INITIAL_WINDOW_SIZE give back.
 *
 * <p>It also tells a WINDOW_UPDATE that gives back credit for DATA sent, which every reading peer sends, however
 * small, from one that grows a window beyond it: only the second kind can be a flood.
 *
 * <p>Not thread-safe: the caller's lock guards it and every stream's part (Netty's contract for its flow
 * controllers). Waiting for credit is the caller's business too.
 */
public final class SendWindows {
    /** One stream's send window, and the credit it owes us back. */
    public static final class Stream {
        private final Http2Window window;
        /** Octets sent on this stream and not yet credited back by a WINDOW_UPDATE. */
        private long owed;
        /** A WINDOW_UPDATE arrived for this stream. */
        private boolean updated;

        private Stream(int id, int initialWindow) {
            this.window = new Http2Window(id, initialWindow);
        }

        /** What the stream's own window allows now (the connection's may allow less). */
        public int available() {
            return window.available();
        }

        /** The stream's window; negative after a SETTINGS change lowered it below what was in flight. */
        public int size() {
            return window.size();
        }
    }

    private final Http2Window connection = new Http2Window(0, Http2Settings.DEFAULT_INITIAL_WINDOW_SIZE);
    /** Octets sent on the connection and not yet credited back. */
    private long connectionOwed;
    /** The peer's SETTINGS_INITIAL_WINDOW_SIZE: every new stream's window. */
    private int initialWindow = Http2Settings.DEFAULT_INITIAL_WINDOW_SIZE;

    /** A new stream's window, at the peer's current initial window size. */
    public Stream open(int streamId) {
        return new Stream(streamId, initialWindow);
    }

    /** What the connection's window allows now. */
    public int connectionAvailable() {
        return connection.available();
    }

    /**
     * Takes credit for one DATA frame of {@code stream}: as much of {@code wanted} as both windows and the frame size
     * allow, 0 when either window is spent.
     */
    public int take(Stream stream, int wanted, int maxFrame) {
        int granted = Math.min(Math.min(wanted, maxFrame), Math.min(stream.available(), connection.available()));
        if (granted > 0) {
            consume(stream, granted);
        }
        return granted;
    }

    /** Takes exactly {@code length} octets if both windows hold them now; false (and nothing taken) otherwise. */
    public boolean takeExactly(Stream stream, int length) {
        if (stream.available() < length || connection.available() < length) {
            return false;
        }
        consume(stream, length);
        return true;
    }

    /** Gives back credit taken for a frame that will never be sent (its stream was reset first). */
    public void refund(Stream stream, int length) {
        if (length <= 0) {
            return;
        }
        try {
            stream.window.increase(length);
            connection.increase(length);
        } catch (Http2Exception e) {
            throw new IllegalStateException("refunding more than was taken", e);
        }
        stream.owed = Math.max(0, stream.owed - length);
        connectionOwed = Math.max(0, connectionOwed - length);
    }

    private void consume(Stream stream, int length) {
        stream.window.consume(length);
        connection.consume(length);
        stream.owed += length;
        connectionOwed += length;
    }

    /**
     * The peer's WINDOW_UPDATE for {@code stream}, or for the connection when {@code stream} is null.
     *
     * @return whether it is one a peer sends in normal use, however small: credit back for DATA we sent (a peer that
     *         read or dropped a body), a stream's first update (a peer growing each stream's window as it opens it);
     *         false when it grows a window beyond that
     * @throws Http2Exception FLOW_CONTROL_ERROR past 2^31-1: of the stream, or of the connection
     */
    public boolean update(Stream stream, int increment) throws Http2Exception {
        boolean ordinary;
        if (stream == null) {
            connection.increase(increment);
            ordinary = increment <= connectionOwed;
            connectionOwed = Math.max(0, connectionOwed - increment);
        } else {
            stream.window.increase(increment);
            ordinary = increment <= stream.owed || !stream.updated;
            stream.updated = true;
            stream.owed = Math.max(0, stream.owed - increment);
        }
        return ordinary;
    }

    /**
     * The peer's SETTINGS_INITIAL_WINDOW_SIZE changed: every open stream's window moves by the difference (a
     * smaller size may make a window negative), and new streams start at it (RFC 9113 6.9.2).
     *
     * @throws Http2Exception a connection FLOW_CONTROL_ERROR when a window would pass 2^31-1
     */
    public void initialWindowSize(int size, Iterable<Stream> open) throws Http2Exception {
        for (Stream stream : open) {
            stream.window.adjustInitialSize(initialWindow, size);
        }
        initialWindow = size;
    }
}
