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
import dev.shuttle.client.intercept.CallChain;
import dev.shuttle.client.intercept.NetworkChain;
import dev.shuttle.client.pool.Lease;
import dev.shuttle.client.pool.Route;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.Proxy;
import java.nio.channels.ClosedByInterruptException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One call to {@code send}: the interceptors, then per exchange checkout, the network interceptors, the exchange and
 * at most one retry, all under the whole-call timeout. Runs on the calling thread; the returned response's body takes
 * over the connection.
 *
 * <p>Retry rule: an attempt on a <em>reused</em> connection that fails before any response byte arrived is sent
 * once more on a freshly dialed connection, if the request is idempotent and its body replayable; the likely cause is
 * a server that closed the idle connection as we sent on it. Never after a response byte, never after a timeout or
 * an interrupt, never for a non-idempotent request (its body may have been processed). Apart from that rule, an
 * HTTP/2 attempt the server provably never processed (REFUSED_STREAM, a stream above a GOAWAY's last stream id, a
 * stream that never left) is sent again whatever its method, up to {@link #MAX_UNPROCESSED_RETRIES} times.
 */
final class RealCall implements CallChain {
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
    /** The next of {@link ClientCore#callInterceptors} to run; owned by the calling thread. */
    private int position;
    /** The request at the current position of the chain; owned by the calling thread. */
    private Request current;
    /** The attempt in progress, for its failure handling; owned by the calling thread. */
    private ExchangeCodec exchange;
    /** The attempt's body took over its lease; owned by the calling thread. */
    private boolean leaseHandedOver;

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
        this.context = trace == ClientTrace.NONE ? core.untracedContext
                : new ExchangeContext(settings, trace, core.drainer, core.stats, core.scheduler);
    }

    /**
     * Runs the call: the application interceptors and the client's own (redirects, authentication, cookies,
     * decompression) in {@link ClientCore#callInterceptors}, ending in {@link #exchanges}.
     */
    Response execute() throws IOException {
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedIOException("interrupted before sending " + request);
        }
        core.stats.request();
        try {
            Response response = proceed(request);
            // Only the response the caller gets ends the call timeout with its body; hops that redirects or
            // authentication closed on the way did not.
            if (response.settle() instanceof Settle settle) {
                settle.arm();
            } else {
                settled(); // an interceptor's own answer: nothing of the network is left to time
            }
            return response;
        } catch (IOException e) {
            settled();
            throw CallErrors.describe(request, e);
        } catch (RuntimeException e) {
            settled();
            throw e;
        }
    }

    // ---- the call's interceptors: this call is their chain, one position at a time (no object per step) ----

    @Override
    public Request request() {
        return current;
    }

    @Override
    public ConnectionInfo connection() {
        return null;
    }

    @Override
    public ClientTrace trace() {
        return trace;
    }

    @Override
    public Request callRequest() {
        return request;
    }

    /**
     * Runs the interceptor at the current position with {@code next}, or the exchanges after the last. Calls nest
     * on the calling thread, so the position and request are saved and restored around each: an interceptor that
     * proceeds twice (a retry, a redirect) runs the rest of the chain twice.
     */
    @Override
    public Response proceed(Request next) throws IOException {
        List<Interceptor> interceptors = core.callInterceptors;
        int at = position;
        Request saved = current;
        current = next;
        try {
            if (at == interceptors.size()) {
                return exchanges(next);
            }
            position = at + 1;
            Interceptor interceptor = interceptors.get(at);
            Response response = interceptor.intercept(this);
            if (response == null) {
                throw new IllegalStateException("interceptor " + interceptor + " returned no response");
            }
            return response;
        } finally {
            position = at;
            current = saved;
        }
    }

    /**
     * One exchange of {@code hop} (the call's request, or one a redirect or challenge led to): checkout, the network
     * interceptors, the exchange, and at most one retry on a fresh connection.
     */
    private Response exchanges(Request hop) throws IOException {
        Lease retryOf = null; // the lease whose exchange failed, once this call retries (at most once)
        int unprocessedRetries = 0;
        Route route = core.routes.route(hop);
        while (true) {
            trace.getConn(hop.origin());
            Lease lease = retryOf == null
                    ? core.pool.acquire(route, false, !hop.isIdempotent(), deadline, trace)
                    : core.pool.acquireRetry(route, retryOf, deadline, trace);
            ProtocolConnection connection = (ProtocolConnection) lease.connection();
            List<Interceptor> network = core.settings.networkInterceptors();
            // Made here only for those who look at once; a response makes its own when asked (Response.connection).
            ConnectionInfo info = trace == ClientTrace.NONE && network.isEmpty() ? null : connectionInfo(lease);
            if (info != null) {
                trace.gotConn(info);
            }
            core.stats.attempt(hop.origin(), lease.reused());
            exchange = null;
            leaseHandedOver = false;
            try {
                return network.isEmpty() ? exchange(hop, lease, connection, info)
                        : NetworkChain.run(network, hop, info, sent -> exchange(sent, lease, connection, info));
            } catch (IOException | RuntimeException e) {
                ExchangeCodec failed = exchange;
                if (leaseHandedOver) {
                    throw e; // a network interceptor failed after the exchange: its response holds the connection
                }
                if (failed == null) { // a network interceptor failed before the exchange began
                    lease.abort(e instanceof IOException io ? io : new IOException(e));
                    lease.release(false);
                    throw e;
                }
                IOException failure = describe(failed, e);
                failed.fail(failure);
                if (unprocessedRetries < MAX_UNPROCESSED_RETRIES && unprocessed(hop, failed, failure)) {
                    // HTTP/2 told us the server never processed it (REFUSED_STREAM, GOAWAY): any method may go
                    // again, on any connection that takes it (the pool no longer offers one that sent GOAWAY).
                    trace.retrying(failure);
                    core.stats.retry();
                    unprocessedRetries++;
                    continue;
                }
                if (retryOf == null && retryable(hop, lease, failed, failure)) {
                    trace.retrying(failure);
                    core.stats.retry();
                    retryOf = lease;
                    continue;
                }
                throw failure;
            }
        }
    }

    /** The exchange itself, after the network interceptors: the request as it goes on the wire. */
    private Response exchange(Request sent, Lease lease, ProtocolConnection connection, ConnectionInfo info)
            throws IOException {
        ExchangeCodec codec = connection.newExchange(lease, sent, context);
        exchange = codec;
        if (timer != null) {
            timer.watch(codec);
        }
        ResponseStart head = codec.send();
        Settle settle = timer == null ? null : new Settle(timer);
        ResponseBody body = codec.openBody(head, settle == null ? NOTHING : settle);
        leaseHandedOver = true;
        return info == null ? new Response(sent, head, body, lease, settle)
                : new Response(sent, head, body, info, settle);
    }

    /** What {@link ClientTrace#gotConn} and {@link Response#connection()} report about the lease's connection. */
    static ConnectionInfo connectionInfo(Lease lease) {
        ProtocolConnection c = (ProtocolConnection) lease.connection();
        Route route = lease.route();
        return new ConnectionInfo(c.id(), c.origin(), c.localAddress(), c.remoteAddress(), lease.reused(),
                lease.wasIdle(), Duration.ofNanos(lease.idleNanos()), lease.afterDrain(), c.protocol(), c.tls(),
                route.isDirect() ? Proxy.NO_PROXY : route.proxy().asProxy());
    }

    private boolean unprocessed(Request hop, ExchangeCodec exchange, IOException failure) {
        return exchange.unprocessed()
                && hop.body().isReplayable()
                && !(failure instanceof HttpTimeoutException)
                && !(failure instanceof InterruptedIOException)
                && !Thread.currentThread().isInterrupted()
                && !core.isClosed();
    }

    private boolean retryable(Request hop, Lease lease, ExchangeCodec exchange, IOException failure) {
        return lease.reused()
                && !exchange.responseStarted()
                && hop.isIdempotent()
                && hop.body().isReplayable()
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

    /** For a response whose body has no call timer to stop. */
    private static final Runnable NOTHING = () -> {
    };

    /**
     * Stops the call timer when the body of the call's final response settles (its end, failure or close): the
     * body runs this when it settles, the call arms it once it knows the response is the caller's. Either may come
     * first; a response the call does not return (a redirect hop) is never armed and stops nothing.
     */
    private static final class Settle implements Runnable {
        private static final int SETTLED = 1;
        private static final int ARMED = 2;
        private final CallTimer timer;
        private final AtomicInteger state = new AtomicInteger();

        Settle(CallTimer timer) {
            this.timer = timer;
        }

        @Override
        public void run() {
            if ((state.getAndAccumulate(SETTLED, (a, b) -> a | b) & ARMED) != 0) {
                timer.cancel();
            }
        }

        void arm() {
            if ((state.getAndAccumulate(ARMED, (a, b) -> a | b) & SETTLED) != 0) {
                timer.cancel();
            }
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
