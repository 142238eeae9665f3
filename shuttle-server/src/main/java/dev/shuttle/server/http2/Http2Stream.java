package dev.shuttle.server.http2;

import dev.shuttle.server.Cancellation;
import dev.shuttle.server.ClientGoneException;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.ReceiveWindows;
import dev.shuttle.wire.http2.ReceivedBody;
import dev.shuttle.wire.http2.SendWindows;
import dev.shuttle.wire.http2.StreamState;
import java.io.IOException;
import java.util.concurrent.locks.Condition;

/**
 * One HTTP/2 stream on the server: its state ({@link StreamState}, RFC 9113 5.1), its two flow-control windows, and
 * the request body bytes received and not yet read by the handler. Every mutable field is guarded by the
 * {@link Http2Streams} lock unless it says otherwise; the reader thread adds what arrives, the handler's thread takes
 * and writes.
 *
 * <p>The stream leaves the registry when it is closed <em>and</em> its handler has returned: until then its handler
 * keeps its slot, however early the client reset it (the rapid-reset defence, {@link HandlerSlots}).
 */
final class Http2Stream {
    final int id;
    /** Signalled when body bytes arrive, the body ends, the stream is reset, or the connection ends. */
    final Condition changed;
    final SendWindows.Stream send;
    final ReceiveWindows.Stream receive;
    /** The request body received and not yet read, and its content-length check. */
    final ReceivedBody body = new ReceivedBody();

    /** Opened by the client's HEADERS. Written under the lock; volatile so a thread can look without it. */
    volatile StreamState state = StreamState.OPEN;
    /**
     * RST_STREAM sent or received, or the connection failed: the code, null while not reset. Written under the lock,
     * volatile so a handler can look without it.
     */
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
    /** Which of the reader's reads brought the HEADERS that opened it. The reader's own, unguarded. */
    long openedInRead;
    Headers trailers = Headers.EMPTY;

    Http2Stream(int id, Condition changed, SendWindows.Stream send, ReceiveWindows.Stream receive) {
        this.id = id;
        this.changed = changed;
        this.send = send;
        this.receive = receive;
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

    boolean remoteEnded() {
        return !state.canReceive();
    }

    boolean localEnded() {
        return !state.canSend();
    }

    boolean isClosed() {
        return state == StreamState.CLOSED;
    }

    @Override
    public String toString() {
        return "Http2Stream[" + id + " " + state + (reset != null ? " reset " + reset : "") + "]";
    }
}
