package dev.shuttle.client.http1;

import dev.shuttle.client.BodyPublisher;
import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.pool.Lease;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A request body written on a virtual thread of its own while the calling thread reads the response head, so that a
 * server answering before the body is in (413 for a body too large, 401 without reading) is heard at once, as Go's
 * transport hears it, instead of through a broken pipe or a write that blocks until its timeout. Used for bodies that
 * may not fit the socket's send buffer, and for {@code Expect: 100-continue}, where the body waits for the server's
 * {@code 100 Continue} (or the client's {@code expectContinueTimeout}).
 *
 * <p>A final response that arrives first with a status above 299 stops the upload, as Go's HTTP/2 transport does
 * (the server does not want the body); a 1xx or 2xx lets it go on (the server may be streaming both ways). The
 * connection can carry another request only if the whole body went out ({@link #finish}).
 *
 * <p>Lifecycle: {@code WRITING → DONE | FAILED | STOPPED}, with {@code WAITING_CONTINUE} before {@code WRITING} for
 * {@code Expect: 100-continue}. The upload thread owns the transport's write side until it leaves {@code WRITING}.
 */
final class Upload {
    /**
     * How long a stop waits for the writer to end by itself before shutting the socket's output: a body whose last
     * byte went out just as the response arrived then still counts as sent, and keeps its connection (Go waits as long
     * for the write before reusing a connection).
     */
    private static final long STOP_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    /** {@link #endedNanos()} while the upload goes on. */
    static final long NOT_ENDED = Long.MIN_VALUE;

    enum State { WAITING_CONTINUE, WRITING, DONE, FAILED, STOPPED }

    private final Http1Connection connection;
    private final Lease lease;
    private final ClientTrace trace;
    private final byte[] head;
    private final BodyPublisher body;
    private final long length;
    private final long continueTimeoutNanos;
    private final Supplier<WriteGuard> guards;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Guarded by lock. */
    private State state;
    /** Guarded by lock: a {@code 100 Continue} arrived (or the wait for it is over). */
    private boolean continued;
    /** Written under lock, read without by the writer before each write: the reader asked it to stop. */
    private volatile boolean stopRequested;
    /** Guarded by lock: why the upload failed; set with FAILED. */
    private IOException failure;
    /** Guarded by lock: the failure came from the socket (the server may have answered), not from the body. */
    private boolean socketFailure;
    /** When the upload ended (on {@link #clock}), or {@link #NOT_ENDED}; written under lock, read by the reader. */
    private volatile long endedNanos = NOT_ENDED;
    private final LongSupplier clock;

    private Upload(Http1Connection connection, Lease lease, ClientTrace trace, byte[] head, BodyPublisher body,
                   long length, boolean expectContinue, long continueTimeoutNanos, Supplier<WriteGuard> guards,
                   LongSupplier clock) {
        this.connection = connection;
        this.clock = clock;
        this.lease = lease;
        this.trace = trace;
        this.head = head;
        this.body = body;
        this.length = length;
        this.continueTimeoutNanos = continueTimeoutNanos;
        this.guards = guards;
        this.state = expectContinue ? State.WAITING_CONTINUE : State.WRITING;
    }

    static Upload start(Http1Connection connection, Lease lease, ClientTrace trace, byte[] head, BodyPublisher body,
                        long length, boolean expectContinue, long continueTimeoutNanos, Supplier<WriteGuard> guards,
                        LongSupplier clock) {
        Upload upload = new Upload(connection, lease, trace, head, body, length, expectContinue, continueTimeoutNanos,
                guards, clock);
        Thread.ofVirtual().name("shuttle-upload").start(upload::run);
        return upload;
    }

    private void run() {
        WriteGuard guard = guards.get(); // null without a write timeout
        IOException error = null;
        State end = State.DONE;
        RequestOutputStream out = new RequestOutputStream(connection.transport(), connection.buffers());
        try {
            out.write(head);
            if (stateIs(State.WAITING_CONTINUE)) {
                out.flush();
                trace.wroteHeaders();
                if (!awaitContinue()) {
                    end = State.STOPPED; // a final answer came instead: the body is not wanted
                    return;
                }
            } else {
                trace.wroteHeaders();
            }
            Http1Exchange.writeFramed(body, length, new StoppableStream(out));
            out.flush();
        } catch (IOException | RuntimeException e) {
            error = e instanceof IOException io ? io : new IOException("the request body failed", e);
            end = stopRequested ? State.STOPPED : State.FAILED;
        } finally {
            if (guard != null) {
                guard.cancel();
            }
            out.close();
            ended(end, error, out.socketFailed());
        }
    }

    /** Waits for {@code 100 Continue}; false when a final response came first. */
    private boolean awaitContinue() throws IOException {
        lock.lock();
        try {
            long left = continueTimeoutNanos;
            while (!continued && !stopRequested && left > 0) {
                left = changed.awaitNanos(left);
            }
            if (stopRequested) {
                return false;
            }
            state = State.WRITING;
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for 100 Continue");
        } finally {
            lock.unlock();
        }
    }

    private void ended(State end, IOException error, boolean fromSocket) {
        lock.lock();
        try {
            state = end;
            endedNanos = clock.getAsLong();
            failure = end == State.FAILED ? error : null;
            socketFailure = fromSocket;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        trace.wroteRequest(end == State.DONE ? null : error);
        if (end == State.FAILED && !fromSocket) {
            // The body itself failed: nothing the server could answer is worth waiting for; unblock the reader.
            lease.abort(error);
        }
    }

    /** The reader saw {@code 100 Continue}: the body may go. */
    void continueReceived() {
        lock.lock();
        try {
            continued = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The reader has the final response head. Above 299 the body is not wanted: the upload stops (see
     * {@link #finish}); otherwise it goes on. Called on the reading thread.
     */
    void finalResponse(int status) {
        if (status > 299) {
            finish(STOP_WAIT_NANOS);
        } else {
            continueReceived(); // a 2xx without 100 Continue also means "send it"
        }
    }

    /**
     * Ends the upload if it is still going, waiting at most {@code waitNanos} for it to end by itself, then shutting
     * the socket's output (a writer blocked on a server that stopped reading fails at once).
     *
     * @return whether the whole request went out, so the connection may carry another one
     */
    boolean finish(long waitNanos) {
        boolean shut = false;
        lock.lock();
        try {
            stopRequested = true;
            changed.signalAll();
            long left = waitNanos;
            while (isRunningLocked() && left > 0) {
                left = changed.awaitNanos(left);
            }
            shut = state == State.WRITING; // a writer waiting for 100 Continue is not on the socket
            return state == State.DONE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            shut = true;
            return false;
        } finally {
            lock.unlock();
            if (shut) {
                shutdownOutput();
            }
        }
    }

    /** When the upload ended, on the client's clock; {@link #NOT_ENDED} while it goes on. */
    long endedNanos() {
        return endedNanos;
    }

    /**
     * The upload's failure when it failed because of the body or the socket, else null. A socket failure is what the
     * caller sees when no response head could be read either.
     */
    IOException failure() {
        lock.lock();
        try {
            return failure;
        } finally {
            lock.unlock();
        }
    }

    /** Whether the failure came from the body publisher, not the socket: then it is the call's error. */
    boolean failedInBody() {
        lock.lock();
        try {
            return failure != null && !socketFailure;
        } finally {
            lock.unlock();
        }
    }

    private boolean isRunningLocked() {
        assert lock.isHeldByCurrentThread();
        return state == State.WAITING_CONTINUE || state == State.WRITING;
    }

    private boolean stateIs(State expected) {
        lock.lock();
        try {
            return state == expected;
        } finally {
            lock.unlock();
        }
    }

    /** Fails a writer blocked on the socket: the TCP half-close, not TLS's close_notify (the writer owns TLS). */
    private void shutdownOutput() {
        try {
            connection.transport().channel().shutdownOutput();
        } catch (IOException e) {
            lease.abort(e); // cannot half-close: the connection goes, the response with it
        }
    }

    /** The body's stream, refusing further bytes once a stop was asked for. */
    private final class StoppableStream extends OutputStream {
        private final OutputStream out;

        StoppableStream(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            checkGoing();
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            checkGoing();
            out.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        private void checkGoing() throws IOException {
            if (stopRequested) {
                throw new IOException("upload stopped: the server answered before the request body was sent");
            }
        }
    }
}
