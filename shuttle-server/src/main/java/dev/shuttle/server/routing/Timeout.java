package dev.shuttle.server.routing;

import dev.shuttle.server.Cancellation;
import dev.shuttle.server.ForwardingRequest;
import dev.shuttle.server.Handler;
import dev.shuttle.server.Middleware;
import dev.shuttle.server.Request;
import dev.shuttle.server.Response;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Middleware that gives a handler a deadline, as Go's {@code http.TimeoutHandler}: the handler runs on a virtual thread
 * of its own against a buffered response; if it finishes in time, what it wrote is sent; if not, the client gets 503
 * with {@code message}, the handler's {@link Request#cancellation()} fires, and what it does afterwards goes nowhere
 * (body writes fail, header changes are ignored, body reads fail).
 *
 * <p>Because the 503 must be able to replace it, the response is buffered whole, up to {@code maxBufferedBytes}
 * (a larger body fails the handler's write, and the client gets 500): streaming handlers (server-sent events, large
 * downloads) want their own deadline checks instead. {@code flush()} freezes the head but sends nothing. A body read
 * in progress when the time runs out is waited for before the 503's handler returns (bounded by the server's
 * body-read timeout), so the connection's input is never read by two threads. Thread-safe.
 */
public final class Timeout {
    /** Default: what the handler may write before its response must be sent at once: small API answers fit. */
    public static final int DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024;

    private Timeout() {
    }

    /**
     * {@return a deadline of {@code timeout}, a plain-text 503 message, and 1 MiB of buffering}
     *
     * @param timeout how long the handler may take
     */
    public static Middleware of(Duration timeout) {
        return of(timeout, "503 service unavailable: the request timed out\n", DEFAULT_MAX_BUFFERED_BYTES);
    }

    /**
     * {@return middleware that answers 503 with {@code message} when the handler has not finished within {@code
     * timeout}} The response is buffered whole, so a late handler's partial response is never sent.
     *
     * @param timeout how long the handler may take
     * @param message the 503's plain-text body
     * @param maxBufferedBytes the most response bytes buffered; a larger body fails the handler's write
     */
    public static Middleware of(Duration timeout, String message, int maxBufferedBytes) {
        Objects.requireNonNull(message, "message");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        if (maxBufferedBytes < 0) {
            throw new IllegalArgumentException("negative maxBufferedBytes: " + maxBufferedBytes);
        }
        long nanos = timeout.toNanos();
        return next -> (request, response) -> run(next, request, response, nanos, message, maxBufferedBytes);
    }

    private static void run(Handler next, Request request, Response response, long nanos, String message,
                            int maxBufferedBytes) throws Exception {
        Guard guard = new Guard();
        Cancellation signal = request.cancellation().child(); // asked on the request's own thread: watched at once
        Guarded inner = new Guarded(request, signal, guard);
        BufferedResponse buffered = new BufferedResponse(maxBufferedBytes, guard);
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread.ofVirtual().name("shuttle-timeout").start(() -> {
            try {
                next.handle(inner, buffered);
                done.complete(null);
            } catch (Throwable t) {
                done.completeExceptionally(t);
            }
        });
        try {
            done.get(nanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            guard.timeOut(); // from here the handler's response goes nowhere
            signal.cancel(new IOException("the handler did not finish within "
                    + TimeUnit.NANOSECONDS.toMillis(nanos) + " ms"));
            response.header("Content-Type", "text/plain; charset=utf-8");
            response.send(503, message);
            return;
        } catch (ExecutionException e) {
            Throwable failure = e.getCause();
            if (failure instanceof Exception exception) {
                throw exception;
            }
            throw (Error) failure;
        }
        buffered.copyTo(response);
    }

    /** Whether the time ran out, and which body reads are under way. */
    static final class Guard {
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition readsDone = lock.newCondition();
        /** Guarded by lock. */
        private boolean timedOut;
        /** Guarded by lock. */
        private int reading;

        boolean timedOut() {
            lock.lock();
            try {
                return timedOut;
            } finally {
                lock.unlock();
            }
        }

        void startRead() throws IOException {
            lock.lock();
            try {
                if (timedOut) {
                    throw new IOException("the handler timed out: its request is over");
                }
                reading++;
            } finally {
                lock.unlock();
            }
        }

        void endRead() {
            lock.lock();
            try {
                if (--reading == 0) {
                    readsDone.signalAll();
                }
            } finally {
                lock.unlock();
            }
        }

        /** Marks the time out and waits for a body read under way, which the body-read timeout bounds. */
        void timeOut() {
            lock.lock();
            try {
                timedOut = true;
                while (reading > 0) {
                    readsDone.awaitUninterruptibly();
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /** The request as the timed handler sees it: its own cancellation, a body that stops at the time out. */
    private static final class Guarded extends ForwardingRequest {
        private final Cancellation signal;
        private final Guard guard;

        Guarded(Request request, Cancellation signal, Guard guard) {
            super(request);
            this.signal = signal;
            this.guard = guard;
        }

        @Override
        public Cancellation cancellation() {
            return signal;
        }

        @Override
        public InputStream body() {
            InputStream body = super.body();
            return new InputStream() {
                @Override
                public int read() throws IOException {
                    guard.startRead();
                    try {
                        return body.read();
                    } finally {
                        guard.endRead();
                    }
                }

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    guard.startRead();
                    try {
                        return body.read(b, off, len);
                    } finally {
                        guard.endRead();
                    }
                }

                @Override
                public int available() throws IOException {
                    return guard.timedOut() ? 0 : body.available();
                }

                @Override
                public void close() throws IOException {
                    body.close();
                }
            };
        }
    }
}
