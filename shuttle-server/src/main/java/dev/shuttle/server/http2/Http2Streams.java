package dev.shuttle.server.http2;

import dev.shuttle.server.Cancellation;
import dev.shuttle.server.ClientGoneException;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Exception;
import dev.shuttle.wire.http2.Http2Settings;
import dev.shuttle.wire.http2.Http2Window;
import dev.shuttle.wire.http2.WindowUpdatePolicy;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The streams of one HTTP/2 connection and both directions of flow control, under one lock: the reader thread adds
 * streams, body bytes, resets and window updates; handler threads read bodies, take send window and end their streams.
 * No I/O happens under the lock: what must be sent as a consequence (WINDOW_UPDATE, RST_STREAM) is returned to the
 * caller, who sends it after unlocking.
 */
final class Http2Streams {
    /** Returned by {@link #read} at the end of the body. */
    static final int END = -1;

    final ReentrantLock lock = new ReentrantLock();
    /** Signalled when a send window opens or the connection ends. */
    private final Condition windowOpened = lock.newCondition();
    /** Guarded by lock: streams that are not yet closed or whose handler still runs. */
    private final Map<Integer, Http2Stream> streams = new HashMap<>();
    /** Guarded by lock. */
    private final Http2Window connectionSend = new Http2Window(0, Http2Settings.DEFAULT_INITIAL_WINDOW_SIZE);
    /** Guarded by lock. */
    private final Http2Window connectionReceive;
    /** Guarded by lock. */
    private final WindowUpdatePolicy connectionPolicy;
    /** Guarded by lock: the peer's SETTINGS_INITIAL_WINDOW_SIZE, for new streams' send windows. */
    private int peerInitialWindow = Http2Settings.DEFAULT_INITIAL_WINDOW_SIZE;
    private final int localInitialWindow;
    /** Guarded by lock: the highest stream id the client opened; read for GOAWAY by any thread through the lock. */
    private int highestStreamId;
    /** Guarded by lock: streams open as the client counts them (neither closed nor reset), for MAX_CONCURRENT_STREAMS. */
    private int open;
    /** Guarded by lock: octets of DATA sent on the connection that the client has not credited back yet. */
    private long connectionSendOwed;
    /** Guarded by lock: the lower stream ids the client skipped, which it can never open (RFC 9113 5.1.1). */
    private final SkippedStreamIds skipped = new SkippedStreamIds();
    /** Guarded by lock: the connection ended; every wait fails from now on. */
    private boolean ended;
    /** Guarded by lock: connection window credit of a frame refused with an exception; see {@link #takeOwedCredit}. */
    private int owedCredit;
    /**
     * Guarded by lock: the ids of the last {@link #RECENT_RESETS} streams we reset or refused that have left the
     * registry, in a ring (0: empty). Frames the client sent before it saw our RST_STREAM still arrive on them; RFC
     * 9113 5.1 has them ignored, not answered with STREAM_CLOSED (which would also count against the client's reset
     * budget, and for HEADERS end the connection).
     */
    private final int[] resetByUs = new int[RECENT_RESETS];
    private int resetByUsNext;

    /**
     * Streams we reset whose late frames are still ignored: 256, two of the default 128 concurrent streams' worth.
     * Frames on one reset longer ago than that are answered as on any closed stream (RFC 9113 5.4.2 lets an endpoint
     * limit the period).
     */
    static final int RECENT_RESETS = 256;

    /** Told when a stream enters or leaves the registry (the server's stream gauge). */
    private final java.util.function.IntConsumer gauge;

    Http2Streams(int localInitialWindow, int connectionWindow, java.util.function.IntConsumer gauge) {
        this.gauge = gauge;
        this.localInitialWindow = localInitialWindow;
        this.connectionReceive = new Http2Window(0, connectionWindow);
        this.connectionPolicy = new WindowUpdatePolicy(connectionWindow);
    }

    // ---- reader thread ----

    /** A new stream (HEADERS on an idle id, already checked to be odd and higher than any before). */
    Http2Stream open(int id) {
        lock.lock();
        try {
            Http2Stream stream = new Http2Stream(id, lock.newCondition(), peerInitialWindow, localInitialWindow);
            streams.put(id, stream);
            gauge.accept(1);
            skipped.opened(highestStreamId, id);
            highestStreamId = id;
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
            skipped.opened(highestStreamId, id);
            highestStreamId = Math.max(highestStreamId, id);
            rememberResetByUsLocked(id);
        } finally {
            lock.unlock();
        }
    }

    boolean isClosed(Http2Stream stream) {
        lock.lock();
        try {
            return stream.isClosed();
        } finally {
            lock.unlock();
        }
    }

    boolean remoteHasEnded(Http2Stream stream) {
        lock.lock();
        try {
            return stream.remoteEnded;
        } finally {
            lock.unlock();
        }
    }

    boolean localHasEnded(Http2Stream stream) {
        lock.lock();
        try {
            return stream.localEnded;
        } finally {
            lock.unlock();
        }
    }

    /** A stream id the client has not used yet (higher than any opened). */
    boolean isIdle(int id) {
        lock.lock();
        try {
            return id > highestStreamId;
        } finally {
            lock.unlock();
        }
    }

    int highestStreamId() {
        lock.lock();
        try {
            return highestStreamId;
        } finally {
            lock.unlock();
        }
    }

    /**
     * A lower id the client skipped when it opened a higher one: it was never opened, and never can be, so a frame that
     * opens it is a connection PROTOCOL_ERROR (RFC 9113 5.1.1), not a frame on a closed stream.
     */
    boolean wasSkipped(int id) {
        lock.lock();
        try {
            return skipped.contains(id);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Streams open as the client counts them against our MAX_CONCURRENT_STREAMS (RFC 9113 5.1.2): neither closed nor
     * reset, whether or not a handler still runs for them.
     */
    int open() {
        lock.lock();
        try {
            return open;
        } finally {
            lock.unlock();
        }
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
     * stream; the body bytes are copied into the stream's queue. Bytes that no handler will read (padding, a stream
     * already reset or closed) are credited back to the connection at once.
     *
     * @return a connection WINDOW_UPDATE increment to send now, or 0
     * @throws Http2Exception a connection FLOW_CONTROL_ERROR, or a stream error (the caller resets the stream)
     */
    int dataReceived(int streamId, ByteBuffer data, int flowControlled, boolean endStream) throws Http2Exception {
        lock.lock();
        try {
            connectionReceive.receive(flowControlled);
            Http2Stream stream = streams.get(streamId);
            int payload = data.remaining();
            if (stream == null && streamId > highestStreamId) {
                throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR, "DATA on idle stream " + streamId);
            }
            if (stream == null && wasResetByUsLocked(streamId)) {
                return creditConnectionLocked(flowControlled); // sent before the client saw our reset: ignored
            }
            if (stream == null || stream.reset != null || stream.remoteEnded) {
                // Nobody reads these bytes, but they count against the connection window: credit them back.
                int credit = creditConnectionLocked(flowControlled);
                if (stream != null && stream.reset != null && !stream.resetByPeer) {
                    return credit; // we reset it; the client may have sent this before it knew (RFC 9113 5.4.2)
                }
                owedCredit += credit;
                throw Http2Exception.streamError(streamId, Http2ErrorCode.STREAM_CLOSED,
                        "DATA on closed stream " + streamId);
            }
            try {
                stream.receiveWindow.receive(flowControlled);
            } catch (Http2Exception e) {
                // A stream error (the client overran the stream's window): the stream is reset and its bytes are never
                // read, but they did count against the connection window (RFC 9113 6.9): credit them back, or every
                // such frame would shrink the connection's window for good until the whole connection stalls.
                owedCredit += creditConnectionLocked(flowControlled);
                throw e;
            }
            int credit = creditConnectionLocked(flowControlled - payload); // padding is nobody's to read
            if (payload > 0) {
                byte[] copy = new byte[payload];
                data.get(copy);
                stream.inbound.add(copy);
                stream.buffered += payload;
                stream.received += payload;
                if (stream.declaredLength >= 0 && stream.received > stream.declaredLength) {
                    throw Http2Exception.streamError(streamId, Http2ErrorCode.PROTOCOL_ERROR,
                            "more body than content-length " + stream.declaredLength);
                }
            }
            if (endStream) {
                endRemoteLocked(stream);
            }
            stream.changed.signalAll();
            return credit;
        } finally {
            lock.unlock();
        }
    }

    /** Connection window credit a refused DATA frame still consumed: the caller sends it after resetting the stream. */
    int takeOwedCredit() {
        lock.lock();
        try {
            int credit = owedCredit;
            owedCredit = 0;
            return credit;
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
        stream.remoteEnded = true;
        countIfClosedLocked(stream);
        if (stream.declaredLength >= 0 && stream.received != stream.declaredLength) {
            throw Http2Exception.streamError(stream.id, Http2ErrorCode.PROTOCOL_ERROR, "body of " + stream.received
                    + " bytes, content-length " + stream.declaredLength);
        }
        removeIfDoneLocked(stream);
    }

    /**
     * The stream is reset (by the peer, or by us after a stream error): waits fail, buffered bytes are credited back.
     * After a reset by the peer, any frame but PRIORITY on it is a stream error (RFC 9113 5.1).
     *
     * @return a connection WINDOW_UPDATE increment to send now, or 0
     */
    int reset(int streamId, Http2ErrorCode code, boolean byPeer) {
        lock.lock();
        try {
            Http2Stream stream = streams.get(streamId);
            if (stream == null || stream.reset != null) {
                return 0;
            }
            stream.resetByPeer = byPeer;
            stream.reset = code;
            countIfClosedLocked(stream);
            if (stream.cancellation != null) {
                stream.cancellation.cancel(resetFailureLocked(stream));
            }
            int credit = creditConnectionLocked(stream.buffered);
            stream.inbound.clear();
            stream.buffered = 0;
            stream.changed.signalAll();
            windowOpened.signalAll(); // a writer waiting for window must notice
            removeIfDoneLocked(stream);
            return credit;
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
                    stream.cancellation.cancel(resetFailureLocked(stream));
                }
            }
            return stream.cancellation;
        } finally {
            lock.unlock();
        }
    }

    /** What a reset stream's body reads and writes throw. */
    IOException resetFailure(Http2Stream stream) {
        lock.lock();
        try {
            return resetFailureLocked(stream);
        } finally {
            lock.unlock();
        }
    }

    private IOException resetFailureLocked(Http2Stream stream) {
        assert lock.isHeldByCurrentThread();
        return stream.resetFailure();
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
            boolean ordinary;
            if (streamId == 0) {
                connectionSend.increase(increment);
                ordinary = increment <= connectionSendOwed;
                connectionSendOwed = Math.max(0, connectionSendOwed - increment);
            } else {
                Http2Stream stream = streams.get(streamId);
                if (stream == null) {
                    if (streamId > highestStreamId) {
                        throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR,
                                "WINDOW_UPDATE on idle stream " + streamId);
                    }
                    return true;
                }
                stream.sendWindow.increase(increment);
                ordinary = increment <= stream.sendOwed || !stream.windowUpdated;
                stream.windowUpdated = true;
                stream.sendOwed = Math.max(0, stream.sendOwed - increment);
            }
            windowOpened.signalAll();
            return ordinary;
        } finally {
            lock.unlock();
        }
    }

    /** The peer changed SETTINGS_INITIAL_WINDOW_SIZE: every open stream's send window moves by the difference. */
    void peerInitialWindow(int size) throws Http2Exception {
        lock.lock();
        try {
            for (Http2Stream stream : streams.values()) {
                stream.sendWindow.adjustInitialSize(peerInitialWindow, size);
            }
            peerInitialWindow = size;
            windowOpened.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The connection ended: every wait fails; the streams are dropped. */
    void endAll() {
        lock.lock();
        try {
            ended = true;
            for (Http2Stream stream : streams.values()) {
                if (stream.reset == null) {
                    stream.connectionClosed = true;
                    stream.reset = Http2ErrorCode.CANCEL;
                }
                countIfClosedLocked(stream);
                if (stream.cancellation != null) {
                    stream.cancellation.cancel(resetFailureLocked(stream));
                }
                stream.changed.signalAll();
            }
            windowOpened.signalAll();
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
            while (stream.buffered == 0) {
                if (stream.reset != null) {
                    throw resetFailureLocked(stream);
                }
                if (stream.remoteEnded) {
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
            int n = 0;
            while (n < len && !stream.inbound.isEmpty()) {
                byte[] head = stream.inbound.peekFirst();
                int take = Math.min(len - n, head.length - stream.headOffset);
                System.arraycopy(head, stream.headOffset, b, off + n, take);
                n += take;
                stream.headOffset += take;
                if (stream.headOffset == head.length) {
                    stream.inbound.pollFirst();
                    stream.headOffset = 0;
                }
            }
            stream.buffered -= n;
            credits[0] = stream.remoteEnded ? 0 : stream.receivePolicy.consumed(n);
            if (credits[0] > 0) {
                stream.receiveWindow.increase(credits[0]);
            }
            credits[1] = creditConnectionLocked(n);
            return n;
        } catch (Http2Exception e) {
            throw new IllegalStateException("our own window overflowed", e); // cannot happen: we only return credit
        } finally {
            lock.unlock();
        }
    }

    /** The request's trailers once its body ended; empty before (and when there were none). */
    dev.shuttle.wire.Headers trailers(Http2Stream stream) {
        lock.lock();
        try {
            return stream.remoteEnded ? stream.trailers : dev.shuttle.wire.Headers.EMPTY;
        } finally {
            lock.unlock();
        }
    }

    /** Trailers arrived: they end the body. */
    void trailersReceived(Http2Stream stream, dev.shuttle.wire.Headers trailers) throws Http2Exception {
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
            return stream.buffered;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes up to {@code wanted} octets of send window for a DATA frame, waiting until both the stream's and the
     * connection's windows allow at least one.
     *
     * @throws IOException when the stream is reset or the connection ended, or the window stays shut past
     *                     {@code timeoutNanos} (a client that stopped reading)
     */
    int takeSendWindow(Http2Stream stream, int wanted, long timeoutNanos) throws IOException {
        lock.lock();
        try {
            long left = timeoutNanos;
            while (true) {
                if (stream.reset != null) {
                    throw resetFailureLocked(stream);
                }
                if (ended) {
                    throw new ClientGoneException("the connection of stream " + stream.id + " closed");
                }
                int granted = Math.min(wanted, Math.min(stream.sendWindow.available(), connectionSend.available()));
                if (granted > 0) {
                    consumeSendWindowLocked(stream, granted);
                    return granted;
                }
                if (left <= 0) {
                    throw new SocketTimeoutException("the client kept its flow-control window shut for "
                            + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms");
                }
                try {
                    left = windowOpened.awaitNanos(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted waiting for flow-control window");
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes {@code wanted} bytes of send window at once if both windows have them, without waiting; 0 otherwise (and
     * nothing is taken).
     */
    int tryTakeSendWindow(Http2Stream stream, int wanted) {
        lock.lock();
        try {
            if (stream.reset != null || ended || stream.sendWindow.available() < wanted
                    || connectionSend.available() < wanted) {
                return 0;
            }
            consumeSendWindowLocked(stream, wanted);
            return wanted;
        } finally {
            lock.unlock();
        }
    }

    private void consumeSendWindowLocked(Http2Stream stream, int length) {
        assert lock.isHeldByCurrentThread();
        stream.sendWindow.consume(length);
        connectionSend.consume(length);
        stream.sendOwed += length;
        connectionSendOwed += length;
    }

    /** Our END_STREAM went out. */
    void localEnded(Http2Stream stream) {
        lock.lock();
        try {
            stream.localEnded = true;
            countIfClosedLocked(stream);
            removeIfDoneLocked(stream);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The handler returned. Body bytes it left unread are dropped and their connection window credit is owed
     * ({@link #takeOwedCredit}): the caller sends it, with the reset below or on its own.
     *
     * @return true when the client has not finished sending its body: the caller resets the stream with NO_ERROR
     *         (RFC 9113 8.1: the response is complete, the rest is not wanted)
     */
    boolean handlerDone(Http2Stream stream) {
        lock.lock();
        try {
            stream.handlerDone = true;
            boolean unfinished = stream.reset == null && !stream.remoteEnded;
            if (stream.buffered > 0) {
                // A body the handler did not read: nobody will now. It counted against the connection window, which
                // would otherwise shrink by every ignored body until the connection stalls (owed: the caller sends it).
                owedCredit += creditConnectionLocked(stream.buffered);
                stream.inbound.clear();
                stream.buffered = 0;
            }
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

    private void removeIfDoneLocked(Http2Stream stream) {
        assert lock.isHeldByCurrentThread();
        if (stream.handlerDone && stream.isClosed() && streams.remove(stream.id) != null) {
            gauge.accept(-1);
            if (stream.reset != null && !stream.resetByPeer) {
                rememberResetByUsLocked(stream.id);
            }
        }
    }

    private void rememberResetByUsLocked(int id) {
        assert lock.isHeldByCurrentThread();
        resetByUs[resetByUsNext] = id;
        resetByUsNext = (resetByUsNext + 1) % RECENT_RESETS;
    }

    private boolean wasResetByUsLocked(int id) {
        assert lock.isHeldByCurrentThread();
        for (int resetId : resetByUs) {
            if (resetId == id) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code id} is one of the last {@link #RECENT_RESETS} streams we reset or refused, no longer registered:
     * frames on it are the client's, sent before it saw the reset, and are ignored.
     */
    boolean wasResetByUs(int id) {
        lock.lock();
        try {
            return wasResetByUsLocked(id);
        } finally {
            lock.unlock();
        }
    }

    /** Counts {@code n} octets of the connection window as consumed; returns the WINDOW_UPDATE increment, or 0. */
    private int creditConnectionLocked(int n) {
        assert lock.isHeldByCurrentThread();
        if (n <= 0) {
            return 0;
        }
        int increment = connectionPolicy.consumed(n);
        if (increment > 0) {
            try {
                connectionReceive.increase(increment);
            } catch (Http2Exception e) {
                throw new IllegalStateException("our own window overflowed", e);
            }
        }
        return increment;
    }

    /** The stream ids still registered (for diagnostics and tests). */
    List<Integer> ids() {
        lock.lock();
        try {
            return new ArrayList<>(streams.keySet());
        } finally {
            lock.unlock();
        }
    }
}
