package dev.shuttle.server.http2;

import dev.shuttle.server.Cancellation;
import dev.shuttle.server.ClientGoneException;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Window;
import dev.shuttle.wire.http2.WindowUpdatePolicy;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;

/**
 * One HTTP/2 stream on the server: its half-closed states, its two flow-control windows, and the request body bytes
 * received and not yet read by the handler. Every mutable field is guarded by the {@link Http2Streams} lock; the
 * reader thread adds what arrives, the handler's thread takes and writes.
 *
 * <pre>
 *   open --END_STREAM received--> half-closed (remote) --END_STREAM sent--> closed
 *   open --END_STREAM sent------> half-closed (local)  --END_STREAM received--> closed
 *   any  --RST_STREAM either way--> closed
 * </pre>
 * The stream leaves the registry when it is closed <em>and</em> its handler has returned: until then it counts
 * against MAX_CONCURRENT_STREAMS, however early the client reset it (the rapid-reset defence).
 */
final class Http2Stream {
    final int id;
    /** Signalled when body bytes arrive, the body ends, the stream is reset, or the connection ends. */
    final Condition changed;
    final Http2Window sendWindow;
    final Http2Window receiveWindow;
    final WindowUpdatePolicy receivePolicy;

    boolean remoteEnded;
    boolean localEnded;
    /** RST_STREAM sent or received, or the connection failed: the code, null while not reset. Written under the lock,
     * volatile so a handler can look without it. */
    volatile Http2ErrorCode reset;
    /** The reset came from the client's RST_STREAM (then its later frames are errors, not stragglers). */
    boolean resetByPeer;
    /** The reset is the connection's end, not a frame. */
    boolean connectionClosed;
    /** Fired by the reset; made when the handler first asks for it. */
    Cancellation cancellation;
    boolean handlerDone;
    /** No longer counted among the client's open streams (it closed once; see {@code Http2Streams.open()}). */
    boolean closeCounted;
    /** Octets of DATA sent on this stream that the client has not credited back with a WINDOW_UPDATE yet. */
    long sendOwed;
    /** A WINDOW_UPDATE arrived for this stream. */
    boolean windowUpdated;
    /** Which of the reader's reads brought the HEADERS that opened it. The reader's own, unguarded. */
    long openedInRead;

    /** Body bytes received, not read yet; the first array is read from {@link #headOffset}. */
    final ArrayDeque<byte[]> inbound = new ArrayDeque<>(2);
    int headOffset;
    /** Body bytes received and not yet read. */
    int buffered;
    /** Body bytes received in all (content-length check). */
    long received;
    /** The request's content-length, or -1. */
    long declaredLength = -1;
    Headers trailers = Headers.EMPTY;

    Http2Stream(int id, Condition changed, int sendWindow, int receiveWindow) {
        this.id = id;
        this.changed = changed;
        this.sendWindow = new Http2Window(id, sendWindow);
        this.receiveWindow = new Http2Window(id, receiveWindow);
        this.receivePolicy = new WindowUpdatePolicy(receiveWindow);
    }

    /** Why a reset stream's reads and writes fail: the client went away (RST_STREAM, connection end), or our reset. */
    IOException resetFailure() {
        if (resetByPeer) {
            return new ClientGoneException("the client reset stream " + id + " (" + reset + ")");
        }
        if (connectionClosed) {
            return new ClientGoneException("the connection of stream " + id + " closed");
        }
        return new IOException("stream " + id + " reset: " + reset);
    }

    boolean isClosed() {
        return reset != null || (remoteEnded && localEnded);
    }

    @Override
    public String toString() {
        return "Http2Stream[" + id + (remoteEnded ? " remote-ended" : "") + (localEnded ? " local-ended" : "")
                + (reset != null ? " reset " + reset : "") + "]";
    }
}
