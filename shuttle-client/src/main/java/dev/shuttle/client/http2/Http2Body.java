package dev.shuttle.client.http2;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.DrainOutcome;
import dev.shuttle.client.HttpTimeoutException;
import dev.shuttle.client.exchange.BodySource;
import dev.shuttle.client.internal.Deadline;
import dev.shuttle.client.internal.StatsRecorder;
import dev.shuttle.client.pool.Lease;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.http2.Http2ErrorCode;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.URI;

/**
 * An HTTP/2 response body: reads what the connection's reader put in the stream, handing the flow-control credit
 * back as the caller consumes it. Releases the stream's lease exactly once.
 *
 * <p>Lifecycle (guarded by the connection's lock, like the stream; the read after the end and the close of a body
 * read to its end need no lock, see {@link #state}):
 * <pre>
 *   OPEN --read reaches END_STREAM: lease released--> ENDED --close--> CLOSED   (COMPLETE)
 *   OPEN --read fails (reset, connection lost, timeout): lease released--> FAILED --close--> CLOSED (ABANDONED_ERROR)
 *   OPEN --close: all of it had arrived, the rest is dropped-------------> CLOSED   (REUSED_INLINE)
 *   OPEN --close before the end: RST_STREAM(CANCEL), credit returned------> CLOSED   (RESET_STREAM)
 * </pre>
 * Nothing is drained: closing early resets the stream and the connection carries on with the others (HTTP/2 never
 * had HTTP/1's unread-body problem). A read waiting for data releases the lock while it waits, so {@code close()}
 * from another thread takes effect at once and the read fails with "closed". No network I/O happens on the caller's
 * thread, and the pool is only called after the connection's lock is released.
 */
final class Http2Body implements BodySource {
    private static final System.Logger LOG = System.getLogger(Http2Body.class.getName());

    enum State { OPEN, ENDED, FAILED, CLOSED }

    private final Lease lease;
    private final Http2Connection connection;
    private final Http2Stream stream;
    private final Http2Exchange exchange;
    private final ClientTrace trace;
    private final StatsRecorder stats;
    private final Runnable onSettled;

    /**
     * Written under the connection's lock, except ENDED to CLOSED, which {@link #close} does by compare-and-set
     * without it: once ENDED nothing else changes, so a read may see ENDED without the lock, and so may a close.
     */
    private volatile State state = State.OPEN;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Http2Body.class, "state", State.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    /** Guarded by the connection's lock. */
    private long bytesRead;
    /** Guarded by the connection's lock: the failure later reads rethrow. */
    private IOException failure;
    private volatile boolean closeCalled;

    /**
     * @param endedEmpty the stream had ended with no body byte when the head was taken (seen under the connection's
     *                   lock then; it cannot change back), so the body starts ENDED
     */
    Http2Body(Lease lease, Http2Connection connection, Http2Stream stream, Http2Exchange exchange, ClientTrace trace,
              StatsRecorder stats, Runnable onSettled, boolean endedEmpty) {
        this.lease = lease;
        this.connection = connection;
        this.stream = stream;
        this.exchange = exchange;
        this.trace = trace;
        this.stats = stats;
        this.onSettled = onSettled;
        if (endedEmpty) {
            state = State.ENDED; // no other thread knows this body yet
            settle(true); // no body (HEAD, 204, 304, END_STREAM on the head): the stream is free at once
        }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        return transfer(b, off, len);
    }

    /**
     * Reads up to {@code len} bytes into {@code b}, or with {@code b} null drops up to {@code len} of them (for
     * {@link #skipToEnd}: the chunks go straight back, nothing is copied); waits while none has arrived. Returns how
     * many, or -1 at the end.
     */
    private int transfer(byte[] b, int off, int len) throws IOException {
        if (state == State.ENDED) {
            return -1; // the read after the last bytes: no lock needed
        }
        int n = -1;
        boolean ended = false;
        boolean failed = false;
        connection.lock.lock();
        try {
            while (true) {
                if (state == State.CLOSED) {
                    throw new IOException("response body closed");
                }
                if (state == State.FAILED) {
                    throw failure;
                }
                if (state == State.ENDED) {
                    return -1;
                }
                if (stream.body.buffered() > 0) {
                    n = b != null ? stream.body.take(b, off, len, connection.chunks)
                            : stream.body.skip(len, connection.chunks);
                    bytesRead += n;
                    connection.streams.consumedLocked(stream, n);
                    if (stream.body.buffered() == 0 && stream.remoteEnd) {
                        state = State.ENDED;
                        ended = true;
                    }
                    break;
                }
                if (stream.remoteEnd) {
                    state = State.ENDED;
                    ended = true;
                    n = -1;
                    break;
                }
                if (stream.failure != null) {
                    failure = exchange.abortReason() != null ? exchange.abortReason() : stream.failure;
                    state = State.FAILED;
                    failed = true;
                    break;
                }
                try {
                    exchange.await(Deadline.NONE, HttpTimeoutException.Kind.READ);
                } catch (IOException e) {
                    failure = exchange.abortReason() != null ? exchange.abortReason() : e;
                    state = State.FAILED;
                    failed = true;
                    break;
                }
            }
        } finally {
            connection.lock.unlock();
        }
        if (ended) {
            settle(true);
        }
        if (failed) {
            settle(connection.isHealthy());
            throw failure;
        }
        return n;
    }

    /** The body ended or failed: the call's timeout stops, the stream's lease goes back. Outside the lock. */
    private void settle(boolean reusable) {
        onSettled.run();
        lease.release(reusable);
    }

    @Override
    public int available() {
        connection.lock.lock();
        try {
            return state == State.OPEN ? (int) Math.min(Integer.MAX_VALUE, stream.body.buffered()) : 0;
        } finally {
            connection.lock.unlock();
        }
    }

    @Override
    public void skipToEnd() throws IOException {
        while (transfer(null, 0, Integer.MAX_VALUE) >= 0) {
            // dropped, credit returned as for bytes read
        }
    }

    @Override
    public void close() {
        closeCalled = true;
        closeBody(null);
    }

    /** @param leaked the request's name when the leak guard closes it, else null */
    private void closeBody(String leaked) {
        if (state == State.ENDED && STATE.compareAndSet(this, State.ENDED, State.CLOSED)) {
            // Read to its end (the common close): nothing to drop or reset, no read waits; bytesRead was written
            // before ENDED and never changes after it.
            stats.drain(DrainOutcome.COMPLETE, 0);
            trace.bodyClosed(bytesRead, DrainOutcome.COMPLETE, 0);
            return;
        }
        State was;
        long discarded = 0;
        DrainOutcome outcome;
        long read;
        connection.lock.lock();
        try {
            was = state;
            if (was == State.CLOSED || !STATE.compareAndSet(this, was, State.CLOSED)) {
                return; // closed already, or just now without the lock
            }
            read = bytesRead;
            outcome = switch (was) {
                case ENDED -> DrainOutcome.COMPLETE;
                case FAILED -> DrainOutcome.ABANDONED_ERROR;
                default -> stream.remoteEnd && stream.failure == null
                        ? DrainOutcome.REUSED_INLINE : DrainOutcome.RESET_STREAM;
            };
            if (was == State.OPEN) {
                discarded = stream.body.discard(connection.chunks);
                connection.streams.consumedLocked(stream, discarded);
                if (outcome == DrainOutcome.RESET_STREAM) {
                    connection.streams.resetLocked(stream, Http2ErrorCode.CANCEL,
                            new IOException(leaked != null ? "response leaked" : "response body closed"));
                }
            }
            stream.changed.signalAll(); // a read waiting on another thread sees CLOSED
        } finally {
            connection.lock.unlock();
        }
        if (was == State.OPEN) {
            if (leaked != null) {
                LOG.log(System.Logger.Level.WARNING, "response to " + leaked + " was never closed; resetting its"
                        + " HTTP/2 stream (close every Response, e.g. with try-with-resources)");
            }
            settle(true);
        }
        stats.drain(outcome, discarded);
        trace.bodyClosed(read, outcome, discarded);
    }

    @Override
    public boolean isComplete() {
        connection.lock.lock();
        try {
            return state == State.ENDED || (stream.remoteEnd && stream.body.buffered() == 0 && stream.failure == null);
        } finally {
            connection.lock.unlock();
        }
    }

    @Override
    public Headers trailers() {
        connection.lock.lock();
        try {
            return stream.trailers;
        } finally {
            connection.lock.unlock();
        }
    }

    @Override
    public long remainingLength() {
        connection.lock.lock();
        try {
            return switch (state) {
                case OPEN -> stream.body.declaredLength() < 0 ? -1 : stream.body.declaredLength() - bytesRead;
                case ENDED -> 0;
                case FAILED, CLOSED -> -1;
            };
        } finally {
            connection.lock.unlock();
        }
    }

    /** Set by the reader with the head, under the lock the exchange took the head with; never changes after. */
    @Override
    public long declaredLength() {
        return stream.body.declaredLength();
    }

    @Override
    public void leaked(String method, URI uri) {
        if (closeCalled) {
            return;
        }
        // Read to its end or failed: only the report is settled; open: reset and reported.
        closeBody(method + " " + uri);
    }
}
