package dev.shuttle.client.http1;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.DrainOutcome;
import dev.shuttle.client.HttpTimeoutException;
import dev.shuttle.client.drain.DrainTarget;
import dev.shuttle.client.drain.Drainer;
import dev.shuttle.client.exchange.BodySource;
import dev.shuttle.client.internal.StatsRecorder;
import dev.shuttle.client.pool.Lease;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.http1.BodyDecoder;
import dev.shuttle.wire.http1.BodyInputStream;
import dev.shuttle.wire.http1.Http1Source;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.SocketException;
import java.net.URI;
import java.nio.channels.ClosedByInterruptException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The state of one response body and of its connection's lease, shared by the caller's reads, {@code close()} from
 * any thread, a background drain and the leak guard. It releases the lease exactly once.
 *
 * <p>Lifecycle ({@link State}):
 * <pre>
 *   OPEN --read reaches the end: lease released-------------> ENDED --close--> CLOSED  (COMPLETE, or
 *                                                                                      COMPLETE_CLOSED when the
 *                                                                                      connection was not reusable)
 *   OPEN --read fails: connection closed, lease released-----> FAILED --close--> CLOSED (ABANDONED_ERROR)
 *   OPEN --close before the end: {@link Drainer} takes the lease-------------> CLOSED   (its outcome)
 * </pre>
 *
 * <p>Locking: {@code ioLock} is held for each read and for the close decision, so they never interleave; it is not
 * held by a background drain, which starts only after the state became CLOSED (reads then fail without touching the
 * connection). {@code close()} never waits for a read in progress on another thread: it sets
 * {@code closeRequested} and lets a virtual thread take the lock once that read returns, aborting the connection if
 * the read is still blocked after the drain time cap. This is the close/read race that deadlocked in Go 1.27
 * (golang/go#81404). That abort goes through the lease: if the read reached the end and released the connection just
 * as the wait ran out, the connection is idle or another call's, and the abort must not touch it.
 */
final class Http1Body implements DrainTarget, BodySource {
    private static final System.Logger LOG = System.getLogger(Http1Body.class.getName());
    /** CAS on {@link #outcomeReported} without an AtomicBoolean per body. */
    private static final VarHandle REPORTED;

    static {
        try {
            REPORTED = MethodHandles.lookup().findVarHandle(Http1Body.class, "outcomeReported", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    enum State { OPEN, ENDED, FAILED, CLOSED }

    /**
     * How long a body read to its end waits for an upload still going (a server that answered 2xx before reading
     * the whole request) before the connection is given up: Go's wait before reusing such a connection.
     */
    private static final long UPLOAD_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final Lease lease;
    private final Http1Connection connection;
    private final BodyInputStream stream;
    private final BodyDecoder decoder;
    private final boolean reusable;
    /** The request body still on its way when the response came, or null: the connection needs it sent whole. */
    private final Upload upload;
    private final Drainer drainer;
    private final Duration closeWait;
    private final ClientTrace trace;
    private final StatsRecorder stats;
    /** Cancels the call's timeout once the body's fate is settled; runs at most once. */
    private final Runnable onSettled;
    private final long declaredLength;

    private final ReentrantLock ioLock = new ReentrantLock();
    /** Written under ioLock; volatile so close() and reads can check it first without the lock. */
    private volatile State state = State.OPEN;
    /** Set by a close() that found a read in progress; later reads fail at once. */
    private volatile boolean closeRequested;
    /** Set first thing by close(): the leak guard, which close() also runs, must then stay silent. */
    private volatile boolean closeCalled;
    /**
     * Why the call was cancelled (its timeout, a cancelled future, an interrupt), set before the close it causes;
     * reads then fail with it rather than with "closed". Null when the body was just closed.
     */
    private volatile IOException cancelReason;
    /** Guarded by ioLock. */
    private long bytesRead;
    /** Guarded by ioLock: the failure of a read, rethrown by later reads. */
    private IOException failure;
    /** Guarded by ioLock: set when the body ended, whether its connection went back to the pool. */
    private boolean releasedReusable;
    /** Test seam: runs in {@link #available()} before the lock is taken, to stage the body ending meanwhile. */
    Runnable beforeAvailableLock = () -> {
    };
    /** Test seam: runs in the read that ended the body, lease released, lock still held (to hold it at the end). */
    Runnable afterEnd = () -> {
    };
    /** Test seam: runs on the closing thread once its wait for a read ran out and the abort was issued. */
    Runnable afterCloseWaitExpired = () -> {
    };
    /** Set once, by whichever thread reports the outcome first (through REPORTED). */
    @SuppressWarnings("unused")
    private volatile boolean outcomeReported;

    Http1Body(Lease lease, Http1Connection connection, BodyDecoder decoder, boolean reusable, Upload upload,
              Drainer drainer, Duration closeWait, ClientTrace trace, StatsRecorder stats, Runnable onSettled) {
        this.lease = lease;
        this.connection = connection;
        this.decoder = decoder;
        this.stream = new BodyInputStream(connection.source(), decoder);
        this.reusable = reusable;
        this.upload = upload;
        this.drainer = drainer;
        this.closeWait = closeWait;
        this.trace = trace;
        this.stats = stats;
        this.onSettled = onSettled;
        this.declaredLength = decoder.remainingLength();
        if (decoder.isComplete()) {
            endLocked(); // no body (HEAD, 204, 304, Content-Length: 0): the connection is free right away
        }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        checkReadable();
        ioLock.lock();
        try {
            checkReadable();
            if (state == State.ENDED) {
                return -1;
            }
            if (state == State.FAILED) {
                throw failure;
            }
            if (Thread.currentThread().isInterrupted()) {
                throw interruptedLocked(); // before the socket, which an interrupted read would close
            }
            int n;
            try {
                n = stream.read(b, off, len);
            } catch (IOException e) {
                throw failLocked(e);
            }
            if (n > 0) {
                bytesRead += n;
            }
            if (decoder.isComplete()) {
                endLocked();
                afterEnd.run();
            }
            return n;
        } finally {
            ioLock.unlock();
        }
    }

    /** Reads to the end, throwing the bytes away (blocking, no cap): {@code Response.discard()}. */
    @Override
    public void skipToEnd() throws IOException {
        checkReadable();
        ioLock.lock();
        try {
            checkReadable();
            if (state == State.FAILED) {
                throw failure;
            }
            if (state == State.OPEN) {
                try {
                    stream.skipBlocking(Long.MAX_VALUE);
                } catch (IOException e) {
                    throw failLocked(e);
                }
                endLocked();
            }
        } finally {
            ioLock.unlock();
        }
    }

    /**
     * What the buffer shows, without blocking and without waiting for a read in progress. The state is checked under
     * the lock: a body that ended meanwhile has released its connection, whose source must not be touched (it would
     * attach a pooled buffer to a connection that is idle or another call's).
     */
    @Override
    public int available() {
        beforeAvailableLock.run();
        if (!ioLock.tryLock()) {
            return 0;
        }
        try {
            return state == State.OPEN ? stream.available() : 0;
        } finally {
            ioLock.unlock();
        }
    }

    private void checkReadable() throws IOException {
        if (closeRequested || state == State.CLOSED) {
            IOException reason = cancelReason;
            throw reason != null ? again(reason, null) : new IOException("response body closed");
        }
    }

    /**
     * The calling thread was interrupted between reads: the call is cancelled, but the connection is not lost with
     * it, as a read would lose it (an interrupted channel closes). The body is closed as the caller would close it,
     * so what is left goes to the drain policy (on a background thread: the interrupted one must not read).
     */
    private IOException interruptedLocked() {
        assert ioLock.isHeldByCurrentThread();
        InterruptedIOException interrupted = new InterruptedIOException("interrupted while reading the response body ("
                + bytesRead + " bytes read); the rest goes to the drain policy");
        cancelReason = interrupted;
        closeCalled = true;
        closeLocked();
        return interrupted;
    }

    /**
     * Cancels the call from another thread (its timeout, a cancelled future): the body closes as by {@link #close()},
     * keeping the connection when the drain policy can, and reads fail with {@code reason}.
     */
    @Override
    public void cancel(IOException reason) {
        if (cancelReason == null) {
            cancelReason = reason;
        }
        close();
    }

    /** A fresh exception like {@code reason} (its type and message), caused by {@code cause}. */
    private static IOException again(IOException reason, IOException cause) {
        IOException copy;
        if (reason instanceof HttpTimeoutException timeout) {
            copy = new HttpTimeoutException(timeout.kind(), timeout.getMessage());
        } else if (reason instanceof InterruptedIOException) {
            copy = new InterruptedIOException(reason.getMessage());
        } else {
            copy = new IOException(reason.getMessage());
        }
        copy.initCause(cause != null ? cause : reason);
        return copy;
    }

    private void endLocked() {
        state = State.ENDED;
        onSettled.run(); // before the release: once released, the connection may be another call's
        // Bytes after the end of the body were never asked for: the connection cannot be trusted with another.
        releasedReusable = reusable && connection.source().buffered() == 0 && uploadFinished(UPLOAD_WAIT_NANOS);
        lease.release(releasedReusable);
    }

    private IOException failLocked(IOException e) {
        IOException cause = connection.abortReason();
        IOException reported = e;
        if (cancelReason != null) {
            reported = again(cancelReason, e); // the cancellation, not the socket it closed
        } else if (e instanceof ClosedByInterruptException
                || (Thread.currentThread().isInterrupted() && !(e instanceof InterruptedIOException))) {
            // The same exception as an interrupted send(): the channel reports an interrupt as a bare
            // ClosedByInterruptException with no message, which callers would not recognise as one.
            reported = new InterruptedIOException("interrupted while reading the response body (" + bytesRead
                    + " bytes read); the connection was closed");
            reported.initCause(e);
        } else if (cause instanceof HttpTimeoutException timeout) {
            reported = new HttpTimeoutException(timeout.kind(), timeout.getMessage());
            reported.initCause(e);
        } else if (cause != null) {
            reported = new IOException(cause.getMessage(), e);
        } else if (e instanceof SocketException) {
            // The socket's own words ("Connection reset") without the when: say it was the body, and how far in.
            // Still a SocketException, for callers that catch that type.
            reported = new SocketException((e.getMessage() == null ? "socket error" : e.getMessage()) + " while reading the response body (" + bytesRead
                    + " bytes read)");
            reported.initCause(e);
        }
        failure = reported;
        state = State.FAILED;
        onSettled.run();
        connection.abort(reported);
        lease.release(false);
        return reported;
    }

    @Override
    public void close() {
        closeCalled = true;
        if (state == State.CLOSED) {
            return;
        }
        if (ioLock.tryLock()) {
            try {
                closeLocked();
            } finally {
                ioLock.unlock();
            }
            return;
        }
        closeRequested = true;
        Thread.ofVirtual().name("shuttle-close").start(this::closeAfterRead);
    }

    /** On its own thread: waits for the read in progress, at most the drain time cap, then closes. */
    private void closeAfterRead() {
        boolean locked = false;
        try {
            locked = ioLock.tryLock(closeWait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!locked) {
            // Through the lease: a no-op if the read has just ended and released the connection.
            IOException reason = cancelReason;
            lease.abort(reason != null ? reason
                    : new IOException("response body closed while another thread was blocked reading it"));
            afterCloseWaitExpired.run();
            ioLock.lock();
        }
        try {
            closeLocked();
        } finally {
            ioLock.unlock();
        }
    }

    private void closeLocked() {
        assert ioLock.isHeldByCurrentThread();
        State was = state;
        if (was == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        switch (was) {
            case ENDED -> finished(releasedReusable ? DrainOutcome.COMPLETE : DrainOutcome.COMPLETE_CLOSED, 0);
            case FAILED -> finished(DrainOutcome.ABANDONED_ERROR, 0);
            case OPEN -> {
                onSettled.run();
                drainer.closeEarly(this);
            }
            default -> throw new IllegalStateException("state: " + was);
        }
    }

    /**
     * The response became unreachable, or was closed (a Cleaner runs its action on close too): if it was never closed
     * and still holds its connection, report it and release that.
     */
    @Override
    public void leaked(String method, URI uri) {
        if (closeCalled || !ioLock.tryLock()) {
            return; // in use: not leaked after all
        }
        try {
            if (state == State.OPEN) {
                LOG.log(System.Logger.Level.WARNING, "response to " + method + " " + uri + " was never closed;"
                        + " closing its connection (close every Response, e.g. with try-with-resources)");
                state = State.CLOSED;
                onSettled.run();
                connection.abort(new IOException("response leaked"));
                lease.release(false);
                finished(DrainOutcome.ABANDONED_ERROR, 0);
            } else if (state != State.CLOSED) {
                closeLocked(); // read to its end or failed: nothing held, just settle the report
            }
        } finally {
            ioLock.unlock();
        }
    }

    @Override
    public boolean isComplete() {
        return decoder.isComplete();
    }

    @Override
    public Headers trailers() {
        return decoder.trailers();
    }

    @Override
    public long declaredLength() {
        return declaredLength;
    }

    /**
     * For the reading thread, which owns the decoder while the body is OPEN: see
     * {@link dev.shuttle.client.exchange.ResponseBody#remainingLength()}.
     * Without the lock: it is a size hint, and a close() racing with it makes the read that follows fail anyway.
     */
    @Override
    public long remainingLength() {
        return switch (state) {
            case OPEN -> decoder.remainingLength();
            case ENDED -> 0;
            case FAILED, CLOSED -> -1;
        };
    }

    // --- DrainTarget: used by the Drainer after close(), by one thread at a time ---

    @Override
    public BodyInputStream stream() {
        return stream;
    }

    @Override
    public BodyDecoder decoder() {
        return decoder;
    }

    @Override
    public Http1Source source() {
        return connection.source();
    }

    @Override
    public void drainDeadline(long deadline) {
        connection.source().idleTimeout(0);
        connection.source().deadline(deadline, HttpTimeoutException.Kind.READ);
    }

    @Override
    public boolean connectionReusable() {
        return reusable && uploadFinished(0); // from close(), which never waits
    }

    /** Whether the request went out whole; an upload still going is stopped, after at most {@code waitNanos}. */
    private boolean uploadFinished(long waitNanos) {
        return upload == null || upload.finish(waitNanos);
    }

    @Override
    public Lease lease() {
        return lease;
    }

    @Override
    public void abortConnection(IOException reason) {
        connection.abort(reason);
    }

    @Override
    public void finished(DrainOutcome outcome, long bytesDiscarded) {
        if (REPORTED.compareAndSet(this, false, true)) {
            long read;
            // bytesRead is final once the state is CLOSED; reading it without the lock from a drain thread is safe
            // because the state write (volatile) happened after the last update.
            read = bytesRead;
            stats.drain(outcome, bytesDiscarded);
            trace.bodyClosed(read, outcome, bytesDiscarded);
        }
    }
}
