package dev.shuttle.client;

import dev.shuttle.client.exchange.ExchangeCodec;
import dev.shuttle.client.exchange.ExchangeContext;
import dev.shuttle.client.exchange.ProtocolConnection;
import dev.shuttle.client.exchange.ResponseBody;
import dev.shuttle.client.exchange.ResponseStart;
import dev.shuttle.client.internal.CallErrors;
import dev.shuttle.client.internal.ClientSettings;
import dev.shuttle.client.internal.Deadline;
import dev.shuttle.client.internal.Scheduler;
import dev.shuttle.client.internal.Traces;
import dev.shuttle.client.pool.Lease;
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
 * an interrupt, never for a non-idempotent request (its body may have been processed). Apart from that rule, an
 * HTTP/2 attempt the server provably never processed (REFUSED_STREAM, a stream above a GOAWAY's last stream id, a
 * stream that never left) is sent again whatever its method, up to {@link #MAX_UNPROCESSED_RETRIES} times.
 */
final class RealCall {
    /**
     * Attempts repeated because HTTP/2 proved the server never processed them: a server at its stream limit may
     * refuse a few in a row; beyond this the refusals are the answer.
     */
    private static final int MAX_UNPROCESSED_RETRIES = 5;

    private final ClientCore core;
    private final Request request;
    private final ClientTrace trace;
    private final long deadline;
    private final CallTimer timer;
    private final ExchangeContext context;

    RealCall(ClientCore core, Request request) {
        this.core = core;
        this.request = request;
        ClientSettings settings = core.settings;
        ClientTrace clientWide = settings.traceFactory() == null ? settings.trace()
                : Traces.combine(settings.trace(), settings.traceFactory().create(request));
        this.trace = Traces.combine(clientWide, request.trace());
        Duration timeout = settings.callTimeout(request);
        this.deadline = timeout == null ? Deadline.NONE
                : Deadline.after(settings.nanoClock().getAsLong(), ClientSettings.nanos(timeout));
        this.timer = timeout == null ? null : new CallTimer(core.scheduler, ClientSettings.nanos(timeout));
        this.context = new ExchangeContext(settings, trace, core.drainer, core.stats, core.scheduler);
    }

    Response execute() throws IOException {
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedIOException("interrupted before sending " + request);
        }
        core.stats.request();
        Lease retryOf = null; // the lease whose exchange failed, once this call retries (at most once)
        int unprocessedRetries = 0;
        try {
            while (true) {
                trace.getConn(request.origin());
                Lease lease = retryOf == null
                        ? core.pool.acquire(request.origin(), false, !request.isIdempotent(), deadline, trace)
                        : core.pool.acquireRetry(request.origin(), retryOf, deadline, trace);
                ProtocolConnection connection = (ProtocolConnection) lease.connection();
                ConnectionInfo info = connectionInfo(lease, connection);
                trace.gotConn(info);
                core.stats.attempt(request.origin(), lease.reused());
                ExchangeCodec exchange = connection.newExchange(lease, request, context);
                if (timer != null) {
                    timer.watch(exchange);
                }
                try {
                    ResponseStart head = exchange.send();
                    ResponseBody body = exchange.openBody(head, this::settled);
                    return new Response(request, head, body, info);
                } catch (IOException | RuntimeException e) {
                    IOException failure = describe(exchange, e);
                    exchange.fail(failure);
                    if (unprocessedRetries < MAX_UNPROCESSED_RETRIES && unprocessed(exchange, failure)) {
                        // HTTP/2 told us the server never processed it (REFUSED_STREAM, GOAWAY): any method may go
                        // again, on any connection that takes it (the pool no longer offers one that sent GOAWAY).
                        trace.retrying(failure);
                        core.stats.retry();
                        unprocessedRetries++;
                        continue;
                    }
                    if (retryOf == null && retryable(lease, exchange, failure)) {
                        trace.retrying(failure);
                        core.stats.retry();
                        retryOf = lease;
                        continue;
                    }
                    throw failure;
                }
            }
        } catch (IOException e) {
            settled();
            throw CallErrors.describe(request, e);
        } catch (RuntimeException e) {
            settled();
            throw e;
        }
    }

    private static ConnectionInfo connectionInfo(Lease lease, ProtocolConnection c) {
        return new ConnectionInfo(c.id(), c.origin(), c.localAddress(), c.remoteAddress(), lease.reused(),
                lease.wasIdle(), Duration.ofNanos(lease.idleNanos()), lease.afterDrain(), c.protocol(), c.tls());
    }

    private boolean unprocessed(ExchangeCodec exchange, IOException failure) {
        return exchange.unprocessed()
                && request.body().isReplayable()
                && !(failure instanceof HttpTimeoutException)
                && !(failure instanceof InterruptedIOException)
                && !Thread.currentThread().isInterrupted()
                && !core.isClosed();
    }

    private boolean retryable(Lease lease, ExchangeCodec exchange, IOException failure) {
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
    private IOException describe(ExchangeCodec exchange, Throwable e) {
        IOException reason = exchange.abortReason();
        if (reason instanceof HttpTimeoutException timeout) {
            HttpTimeoutException copy = new HttpTimeoutException(timeout.kind(), timeout.getMessage());
            copy.initCause(e);
            return copy;
        }
        if (e instanceof ClosedByInterruptException
                || (Thread.currentThread().isInterrupted() && e instanceof IOException
                && !(e instanceof InterruptedIOException))) {
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
     * Aborts the call's current attempt when the whole-call timeout expires, unblocking a write or read in progress,
     * or a caller that never reads its body. Socket reads also stop at a response-header or read timeout; this covers
     * everything else. The abort goes through the attempt's lease, so it never touches a connection the call has
     * already given back.
     */
    private static final class CallTimer {
        private final Scheduler.Task task;
        private final ReentrantLock lock = new ReentrantLock();
        /** Guarded by lock: expired or cancelled; once true, no connection is aborted any more. */
        private boolean done;
        /** Guarded by lock. */
        private boolean expired;
        /** Guarded by lock: the current attempt. */
        private ExchangeCodec current;

        CallTimer(Scheduler scheduler, long timeoutNanos) {
            this.task = scheduler.schedule(timeoutNanos, this::expire);
        }

        void watch(ExchangeCodec exchange) {
            lock.lock();
            try {
                current = exchange;
                if (expired) {
                    abort(exchange);
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
        private static void abort(ExchangeCodec exchange) {
            if (exchange != null) {
                exchange.abort(new HttpTimeoutException(HttpTimeoutException.Kind.CALL, "call timed out"));
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
