package dev.shuttle.server.http2;

import dev.shuttle.server.ClientGoneException;
import dev.shuttle.wire.http2.Http2Exception;
import dev.shuttle.wire.http2.SendWindows;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The send side of a connection's flow control on the server: handler threads wait here for window to send DATA
 * ({@link SendWindows} does the arithmetic), and the reader opens it (WINDOW_UPDATE, SETTINGS) or ends every wait
 * (a reset, the connection's end). Guarded by the lock of {@link Http2Streams}, which it shares.
 */
final class SendCredit {
    private final ReentrantLock lock;
    /** Signalled when a send window opens, a stream is reset, or the connection ends. */
    private final Condition opened;
    /** Guarded by lock. */
    private final SendWindows windows = new SendWindows();
    /** Guarded by lock: the connection ended; every wait fails from now on. */
    private boolean ended;

    SendCredit(ReentrantLock lock) {
        this.lock = lock;
        this.opened = lock.newCondition();
    }

    /** A new stream's send window. */
    SendWindows.Stream openLocked(int streamId) {
        assert lock.isHeldByCurrentThread();
        return windows.open(streamId);
    }

    /**
     * Takes up to {@code wanted} octets of send window for a DATA frame, waiting until both the stream's and the
     * connection's windows allow at least one.
     *
     * @throws IOException when the stream is reset or the connection ended, or the window stays shut past
     *                     {@code timeoutNanos} (a client that stopped reading)
     */
    int take(Http2Stream stream, int wanted, long timeoutNanos) throws IOException {
        lock.lock();
        try {
            long left = timeoutNanos;
            while (true) {
                if (stream.reset != null) {
                    throw stream.resetFailure();
                }
                if (ended) {
                    throw new ClientGoneException("the connection of stream " + stream.id + " closed");
                }
                int granted = windows.take(stream.send, wanted, Http2Writer.MAX_DATA_FRAME);
                if (granted > 0) {
                    return granted;
                }
                if (left <= 0) {
                    throw new SocketTimeoutException("the client kept its flow-control window shut for "
                            + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms");
                }
                try {
                    left = opened.awaitNanos(left);
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
     * Takes {@code wanted} octets of send window at once if both windows have them, without waiting; 0 otherwise (and
     * nothing is taken).
     */
    int tryTake(Http2Stream stream, int wanted) {
        lock.lock();
        try {
            if (stream.reset != null || ended || !windows.takeExactly(stream.send, wanted)) {
                return 0;
            }
            return wanted;
        } finally {
            lock.unlock();
        }
    }

    /** The client's WINDOW_UPDATE ({@code stream} null: the connection's); see {@link SendWindows#update}. */
    boolean updateLocked(SendWindows.Stream stream, int increment) throws Http2Exception {
        assert lock.isHeldByCurrentThread();
        boolean ordinary = windows.update(stream, increment);
        opened.signalAll();
        return ordinary;
    }

    /** The client changed SETTINGS_INITIAL_WINDOW_SIZE: every open stream's window moves by the difference. */
    void initialWindowSizeLocked(int size, Iterable<SendWindows.Stream> open) throws Http2Exception {
        assert lock.isHeldByCurrentThread();
        windows.initialWindowSize(size, open);
        opened.signalAll();
    }

    /** A stream was reset: a handler waiting for its window must notice. */
    void wakeLocked() {
        assert lock.isHeldByCurrentThread();
        opened.signalAll();
    }

    /** The connection ended: every wait fails. */
    void endLocked() {
        assert lock.isHeldByCurrentThread();
        ended = true;
        opened.signalAll();
    }
}
