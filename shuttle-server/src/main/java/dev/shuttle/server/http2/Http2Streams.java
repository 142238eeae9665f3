package dev.shuttle.server.http2;

import dev.shuttle.server.Cancellation;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.http2.ChunkPool;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Exception;
import dev.shuttle.wire.http2.ReceiveWindows;
import dev.shuttle.wire.http2.ReceivedBody;
import dev.shuttle.wire.http2.PeerStreamIds;
import dev.shuttle.wire.http2.SendWindows;
import dev.shuttle.wire.http2.StreamState;
import dev.shuttle.wire.http2.StreamTable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntConsumer;
import java.util.function.Predicate;

/**
 * The streams of one HTTP/2 connection and both directions of their flow control, under one lock: the reader thread
 * adds streams, body bytes, resets and window updates; handler threads read bodies, take send window and end their
 * streams. The protocol's rules and arithmetic are the wire module's ({@link StreamState}, {@link SendWindows},
 * {@link ReceiveWindows}, {@link ReceivedBody}, {@link StreamTable}), shared with the client; this class adds the
 * server's waiting and its registry. No I/O happens under the lock: what must be sent as a consequence (WINDOW_UPDATE,
 * RST_STREAM) is returned to the caller, or waits in {@link #takeConnectionUpdate}, and is sent after unlocking.
 */
final class Http2Streams {
    /** Returned by {@link #read} at the end of the body. */
    static final int END = -1;

    final ReentrantLock lock = new ReentrantLock();
    /** Guarded by lock: streams that are not yet closed or whose handler still runs (or waits to run). */
    private final StreamTable<Http2Stream> streams = new StreamTable<>();
    /** The send side, under this lock too: handlers take window from it directly. */
    final SendCredit send = new SendCredit(lock);
    /** Guarded by lock. */
    private final ReceiveWindows receive;
    /** Guarded by lock: recycled chunks for request bodies. */
    private final ChunkPool chunks = new ChunkPool();
    /** Guarded by lock: the ids the client opened, skipped, or had reset by us lately. */
    private final PeerStreamIds peerIds = new PeerStreamIds();
    /** Streams the client counts open (not closed or reset); written under lock, read without. */
    private volatile int open;

    /** Told when a stream enters or leaves the registry (the server's stream gauge). */
    private final IntConsumer gauge;

    Http2Streams(int localInitialWindow, int connectionWindow, IntConsumer gauge) {
        this.gauge = gauge;
        this.receive = new ReceiveWindows(connectionWindow, localInitialWindow);
    }

    // ---- reader thread ----

    /** A new stream (HEADERS on an idle id, already checked to be odd and higher than any before). */
    Http2Stream open(int id) {
        lock.lock();
        try {
            Http2Stream stream = new Http2Stream(id, lock.newCondition(), send.openLocked(id), receive.open(id));
            streams.put(id, stream);
            gauge.accept(1);
            peerIds.opened(id);
            open++;
            return stream;
        } finally {
            lock.unlock();
        }
    }

    /** A stream refused at once (REFUSED_STREAM): its id is used up all the same. */
    void refuse(int id) {
        lock.lock();
        try {
            peerIds.opened(id);
            peerIds.resetByUs(id);
        } finally {
            lock.unlock();
        }
    }

    /** A stream id the client has not used yet (higher than any opened). */
    boolean isIdle(int id) {
        return locked(ids -> ids.isIdle(id));
    }

    int highestStreamId() {
        lock.lock();
        try {
            return peerIds.highest();
        } finally {
            lock.unlock();
        }
    }

    /**
     * A lower id the client skipped when it opened a higher one: it was never opened, and never can be, so a frame that
     * opens it is a connection PROTOCOL_ERROR (RFC 9113 5.1.1), not a frame on a closed stream.
     */
    boolean wasSkipped(int id) {
        return locked(ids -> ids.wasSkipped(id));
    }

    /**
     * Streams open as the client counts them against our MAX_CONCURRENT_STREAMS (RFC 9113 5.1.2): neither closed nor
     * reset, whether or not a handler still runs for them.
     */
    int open() {
        return open;
    }

    /** Streams not yet finished on our side: not closed, or with a handler still running (or waiting to run). */
    int active() {
        lock.lock();
        try {
            return streams.size();
        } finally {
            lock.unlock();
        }
    }

    Http2Stream get(int id) {
        lock.lock();
        try {
            return streams.get(id);
        } finally {
            lock.unlock();
        }
    }

    /**
     * A DATA frame arrived. Flow control first, on the connection (a connection error when exceeded) and then on the
     * stream; the body bytes are copied into the stream's chunks. Bytes that no handler will read (padding, a stream
     * already reset or closed) are credited back to the connection at once ({@link #takeConnectionUpdate}), and
     * padding to the stream as well.
     *
     * @return the stream WINDOW_UPDATE increment the frame's padding made due; 0 when none is, or the stream ended
     * @throws Http2Exception a connection error, or a stream error (the caller resets the stream)
     */
    int dataReceived(int streamId, ByteBuffer data, int flowControlled, boolean endStream) throws Http2Exception {
        lock.lock();
        try {
            Http2Stream stream = streams.get(streamId);
            if (stream == null && peerIds.isIdle(streamId)) {
                throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR, "DATA on idle stream " + streamId);
            }
            if (stream == null || stream.reset != null || stream.remoteEnded()) {
                receive.receive(null, flowControlled, 0); // nobody reads these bytes: straight back to the connection
                if (stream == null ? peerIds.wasResetByUs(streamId) : stream.reset != null && !stream.resetByPeer) {
                    return 0; // we reset it; the client may have sent this before it knew (RFC 9113 5.4.2)
                }
                throw Http2Exception.streamError(streamId, Http2ErrorCode.STREAM_CLOSED,
                        "DATA on closed stream " + streamId);
            }
            int payload = data.remaining();
            int paddingCredit = receive.receive(stream.receive, flowControlled, payload);
            if (payload > 0) {
                stream.body.append(streamId, data.array(), data.arrayOffset() + data.position(), payload, chunks);
            }
            if (endStream) {
                endRemoteLocked(stream);
            }
            stream.changed.signalAll();
            return endStream ? 0 : paddingCredit;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The connection WINDOW_UPDATE increment due now, or 0: octets read by handlers, dropped with a stream or a body
     * nobody read, or padding, half a window at a time. The caller sends it after unlocking.
     */
    int takeConnectionUpdate() {
        lock.lock();
        try {
            return receive.takeConnectionUpdate();
        } finally {
            lock.unlock();
        }
    }

    /** The request's content-length, 0 for a request without a body, -1 when undeclared; before any DATA. */
    void declareLength(Http2Stream stream, long length) {
        lock.lock();
        try {
            stream.body.declaredLength(length);
        } finally {
            lock.unlock();
        }
    }

    long declaredLength(Http2Stream stream) {
        lock.lock();
        try {
            return stream.body.declaredLength();
        } finally {
            lock.unlock();
        }
    }

    /** END_STREAM arrived (on DATA or trailers). */
    void remoteEnded(Http2Stream stream) throws Http2Exception {
        lock.lock();
        try {
            endRemoteLocked(stream);
            stream.changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void endRemoteLocked(Http2Stream stream) throws Http2Exception {
        assert lock.isHeldByCurrentThread();
        stream.state = stream.state.receivedEndStream();
        countIfClosedLocked(stream);
        stream.body.end(stream.id);
        removeIfDoneLocked(stream);
    }

    /**
     * The stream is reset (by the peer, or by us after a stream error): waits fail, buffered bytes are credited back
     * ({@link #takeConnectionUpdate}). After a reset by the peer, any frame but PRIORITY on it is a stream error (RFC
     * 9113 5.1).
     */
    void reset(int streamId, Http2ErrorCode code, boolean byPeer) {
        lock.lock();
        try {
            Http2Stream stream = streams.get(streamId);
            if (stream == null || stream.reset != null) {
                return;
            }
            stream.resetByPeer = byPeer;
            stream.reset = code;
            stream.state = stream.state.reset();
            countIfClosedLocked(stream);
            if (stream.cancellation != null) {
                stream.cancellation.cancel(stream.resetFailure());
            }
            receive.connectionConsumed(stream.body.discard(chunks));
            stream.changed.signalAll();
            send.wakeLocked(); // a writer waiting for window must notice
            removeIfDoneLocked(stream);
        } finally {
            lock.unlock();
        }
    }

    /** The stream's cancellation signal, made on the first request for it; fired already if it was reset. */
    Cancellation cancellation(Http2Stream stream) {
        lock.lock();
        try {
            if (stream.cancellation == null) {
                stream.cancellation = Cancellation.create();
                if (stream.reset != null) {
                    stream.cancellation.cancel(stream.resetFailure());
                }
            }
            return stream.cancellation;
        } finally {
            lock.unlock();
        }
    }

    /**
     * WINDOW_UPDATE from the peer; on a stream already gone it is ignored (RFC 9113 6.9).
     *
     * @return whether it is one a client sends in normal use, however small: credit back for DATA we sent (a client
     *         that read or dropped a body), a stream's first update (a client growing each stream's window as it
     *         opens it), or late credit for a stream that is gone; false when it grows a window beyond all that
     */
    boolean windowUpdate(int streamId, int increment) throws Http2Exception {
        lock.lock();
        try {
            Http2Stream stream = streamId == 0 ? null : streams.get(streamId);
            if (streamId != 0 && stream == null) {
                if (peerIds.isIdle(streamId)) {
                    throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR,
                            "WINDOW_UPDATE on idle stream " + streamId);
                }
                return true;
            }
            return send.updateLocked(stream == null ? null : stream.send, increment);
        } finally {
            lock.unlock();
        }
    }

    /** The peer changed SETTINGS_INITIAL_WINDOW_SIZE: every open stream's send window moves by the difference. */
    void peerInitialWindow(int size) throws Http2Exception {
        lock.lock();
        try {
            List<SendWindows.Stream> windows = new ArrayList<>(streams.size());
            streams.forEach(stream -> windows.add(stream.send));
            send.initialWindowSizeLocked(size, windows);
        } finally {
            lock.unlock();
        }
    }

    /** The connection ended: every wait fails; the streams are dropped. */
    void endAll() {
        lock.lock();
        try {
            for (Http2Stream stream : streams.snapshot()) {
                if (stream.reset == null) {
                    stream.connectionClosed = true;
                    stream.reset = Http2ErrorCode.CANCEL;
                    stream.state = stream.state.reset();
                }
                countIfClosedLocked(stream);
                if (stream.cancellation != null) {
                    stream.cancellation.cancel(stream.resetFailure());
                }
                stream.body.discard(chunks);
                stream.changed.signalAll();
            }
            chunks.release();
            send.endLocked();
            gauge.accept(-streams.size()); // the connection is gone; its streams no longer count
            streams.clear();
        } finally {
            lock.unlock();
        }
    }

    // ---- handler threads ----

    /**
     * Reads request body bytes, waiting up to {@code timeoutNanos} for them.
     *
     * @param credits receives the WINDOW_UPDATE increments to send: [0] for the stream, [1] for the connection
     * @return bytes read, or {@link #END}
     */
    int read(Http2Stream stream, byte[] b, int off, int len, long timeoutNanos, int[] credits) throws IOException {
        lock.lock();
        try {
            long left = timeoutNanos;
            while (stream.body.buffered() == 0) {
                if (stream.reset != null) {
                    throw stream.resetFailure();
                }
                if (stream.remoteEnded()) {
                    return END;
                }
                if (left <= 0) {
                    throw new SocketTimeoutException("no request body bytes for "
                            + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms");
                }
                try {
                    left = stream.changed.awaitNanos(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted reading the request body");
                }
            }
            int n = stream.body.take(b, off, len, chunks);
            credits[0] = stream.remoteEnded() ? 0 : receive.streamConsumed(stream.receive, n);
            receive.connectionConsumed(n);
            credits[1] = receive.takeConnectionUpdate();
            return n;
        } finally {
            lock.unlock();
        }
    }

    /** The request's trailers once its body ended; empty before (and when there were none). */
    dev.shuttle.wire.Headers trailers(Http2Stream stream) {
        lock.lock();
        try {
            return stream.remoteEnded() ? stream.trailers : Headers.EMPTY;
        } finally {
            lock.unlock();
        }
    }

    /** Trailers arrived: they end the body. */
    void trailersReceived(Http2Stream stream, Headers trailers) throws Http2Exception {
        lock.lock();
        try {
            stream.trailers = trailers;
            endRemoteLocked(stream);
            stream.changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    int available(Http2Stream stream) {
        lock.lock();
        try {
            return (int) Math.min(Integer.MAX_VALUE, stream.body.buffered());
        } finally {
            lock.unlock();
        }
    }

    /** Our END_STREAM went out. */
    void localEnded(Http2Stream stream) {
        lock.lock();
        try {
            stream.state = stream.state.sentEndStream();
            countIfClosedLocked(stream);
            removeIfDoneLocked(stream);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The handler returned. Body bytes it left unread are dropped and their connection window credit is due
     * ({@link #takeConnectionUpdate}): the caller sends it, with the reset below or on its own.
     *
     * @return true when the client has not finished sending its body: the caller resets the stream with NO_ERROR
     *         (RFC 9113 8.1: the response is complete, the rest is not wanted)
     */
    boolean handlerDone(Http2Stream stream) {
        lock.lock();
        try {
            stream.handlerDone = true;
            boolean unfinished = stream.reset == null && !stream.remoteEnded();
            // A body the handler did not read: nobody will now. It counted against the connection window, which would
            // otherwise shrink by every ignored body until the connection stalls.
            receive.connectionConsumed(stream.body.discard(chunks));
            removeIfDoneLocked(stream);
            return unfinished;
        } finally {
            lock.unlock();
        }
    }

    /** The stream just closed (both ends, or reset): it no longer counts against MAX_CONCURRENT_STREAMS. Once. */
    private void countIfClosedLocked(Http2Stream stream) {
        assert lock.isHeldByCurrentThread();
        if (!stream.closeCounted && stream.isClosed()) {
            stream.closeCounted = true;
            open--;
        }
    }

    /**
     * A stream whose handler returned and whose both ends closed leaves the table; what its body still buffers (the
     * end of an upload that came after the handler returned) will never be read, and goes back to the connection.
     */
    private void removeIfDoneLocked(Http2Stream stream) {
        assert lock.isHeldByCurrentThread();
        if (stream.handlerDone && stream.isClosed() && streams.remove(stream.id)) {
            receive.connectionConsumed(stream.body.discard(chunks));
            gauge.accept(-1);
            if (stream.reset != null && !stream.resetByPeer) {
                peerIds.resetByUs(stream.id);
            }
        }
    }

    /**
     * Whether {@code id} is one of the last streams we reset or refused ({@link PeerStreamIds}), no longer
     * registered: frames on it are the client's, sent before it saw the reset, and are ignored.
     */
    boolean wasResetByUs(int id) {
        return locked(ids -> ids.wasResetByUs(id));
    }

    /** A question about the client's stream ids, asked under the lock. */
    private boolean locked(Predicate<PeerStreamIds> query) {
        lock.lock();
        try {
            return query.test(peerIds);
        } finally {
            lock.unlock();
        }
    }

    /** The client acknowledged our SETTINGS: streams it opens from now on get exactly our initial window. */
    void settingsAcknowledged() {
        lock.lock();
        try {
            receive.settingsAcknowledged();
        } finally {
            lock.unlock();
        }
    }

    /** The stream ids still registered (for diagnostics and tests). */
    List<Integer> ids() {
        lock.lock();
        try {
            return streams.ids();
        } finally {
            lock.unlock();
        }
    }
}
