package dev.shuttle.client;

import dev.shuttle.client.http1.Http1Connection;
import dev.shuttle.client.http1.Http1Exchange;
import dev.shuttle.client.http1.ResponseBody;
import dev.shuttle.client.internal.Deadline;
import dev.shuttle.client.internal.ClientSettings;
import dev.shuttle.client.internal.Scheduler;
import dev.shuttle.client.internal.Traces;
import dev.shuttle.client.pool.Lease;
import dev.shuttle.client.pool.PooledConnection;
import dev.shuttle.wire.http1.ResponseHead;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One call to {@code send}: checkout, exchange, at most one retry, and the whole-call timeout. Runs on the calling
 * thread; the returned response's body takes over the connection.
 *
 * <p>Retry rule: an attempt on a <em>reused</em> connection that fails before any response byte arrived is sent
 * once more on a freshly dialed connection, if the request is idempotent and its body replayable; the likely cause is
 * a server that closed the idle connection as we sent on it. Never after a response byte, never after a timeout or
 * an interrupt, never for a non-idempotent request (its body may have been processed).
 */
final class RealCall {
    private final ClientCore core;
    private final Request request;
    private final ClientTrace trace;
    private final long deadline;
    private final CallTimer timer;

    RealCall(ClientCore core, Request request) {
        this.core = core;
        this.request = request;
        ClientSettings settings = core.settings;
        this.trace = Traces.combine(settings.trace(), request.trace());
        Duration timeout = request.timeout() != null ? request.timeout() : settings.callTimeout();
        this.deadline = timeout == null ? Deadline.NONE
                : Deadline.after(settings.nanoClock().getAsLong(), ClientSettings.nanos(timeout));
        this.timer = timeout == null ? null : new CallTimer(core.scheduler, ClientSettings.nanos(timeout));
    }

    Response execute() throws IOException {
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedIOException("interrupted before sending " + request);
        }
        core.stats.request();
        boolean retry = false;
        try {
            while (true) {
                trace.getConn(request.origin());
                Lease lease = core.pool.acquire(request.origin(), retry, deadline, trace);
                ConnectionInfo info = connectionInfo(lease);
                trace.gotConn(info);
                core.stats.attempt(request.origin(), lease.reused());
                Http1Exchange exchange = new Http1Exchange(lease, request, core.settings, trace);
                if (timer != null) {
                    timer.watch(exchange.connection());
                }
                try {
                    ResponseHead head = exchange.send();
                    ResponseBody body = exchange.openBody(head, core.drainer, core.stats, this::settled);
                    return new Response(request, head, body, info);
                } catch (IOException | RuntimeException e) {
                    IOException failure = describe(exchange, e);
                    exchange.fail(failure);
                    if (!retry && retryable(lease, exchange, failure)) {
                        trace.retrying(failure);
                        core.stats.retry();
                        retry = true;
                        continue;
                    }
                    throw failure;
                }
            }
        } catch (IOException | RuntimeException e) {
            settled();
            throw e;
        }
    }

    private ConnectionInfo connectionInfo(Lease lease) {
        PooledConnection c = lease.connection();
        return new ConnectionInfo(c.id(), c.origin(), c.localAddress(), c.remoteAddress(), lease.reused(),
                lease.wasIdle(), Duration.ofNanos(lease.idleNanos()), lease.afterDrain());
    }

    private boolean retryable(Lease lease, Http1Exchange exchange, IOException failure) {
        return lease.reused()
                && !exchange.responseStarted()
                && request.isIdempotent()
                && request.body().isReplayable()
                && !(failure instanceof HttpTimeoutException)
                && !(failure instanceof InterruptedIOException)
                && !Thread.currentThread().isInterrupted()
                && !core.isClosed();
    }

    /** The exception the caller sees: the abort reason (call timeout) when the connection was aborted under us. */
    private IOException describe(Http1Exchange exchange, Throwable e) {
        Http1Connection connection = exchange.connection();
        IOException reason = connection.abortReason();
        if (reason instanceof HttpTimeoutException timeout) {
            HttpTimeoutException copy = new HttpTimeoutException(timeout.kind(), timeout.getMessage());
            copy.initCause(e);
            return copy;
        }
        if (e instanceof ClosedByInterruptException) {
            InterruptedIOException interrupted = new InterruptedIOException("interrupted during " + request);
            interrupted.initCause(e);
            return interrupted;
        }
        if (e instanceof IOException io) {
            return io;
        }
        return new IOException(e.getMessage(), e);
    }

    /** The body's end, failure or close settled the call: the call timeout no longer applies. */
    private void settled() {
        if (timer != null) {
            timer.cancel();
        }
    }

    /**
     * Aborts the call's current connection when the whole-call timeout expires, unblocking a write or read in
     * progress, or a caller that never reads its body. Socket reads also stop at a response-header or read timeout;
     * this covers everything else.
     */
    private static final class CallTimer {
        private final Scheduler.Task task;
        private final ReentrantLock lock = new ReentrantLock();
        /** Guarded by lock: expired or cancelled; once true, no connection is aborted any more. */
        private boolean done;
        /** Guarded by lock. */
        private boolean expired;
        /** Guarded by lock: the connection of the current attempt. */
        private Http1Connection current;

        CallTimer(Scheduler scheduler, long timeoutNanos) {
            this.task = scheduler.schedule(timeoutNanos, this::expire);
        }

        void watch(Http1Connection connection) {
            lock.lock();
            try {
                current = connection;
                if (expired) {
                    abort(connection);
                }
            } finally {
                lock.unlock();
            }
        }

        private void expire() {
            lock.lock();
            try {
                if (!done) {
                    done = true;
                    expired = true;
                    abort(current);
                }
            } finally {
                lock.unlock();
            }
        }

        /** Abort only closes a socket: no blocking I/O under the lock. */
        private static void abort(Http1Connection connection) {
            if (connection != null) {
                connection.abort(new HttpTimeoutException(HttpTimeoutException.Kind.CALL, "call timed out"));
            }
        }

        /** After this returns, the timer never touches the connection again (it may be someone else's by then). */
        void cancel() {
            lock.lock();
            try {
                done = true;
            } finally {
                lock.unlock();
            }
            task.cancel();
        }
    }
}
