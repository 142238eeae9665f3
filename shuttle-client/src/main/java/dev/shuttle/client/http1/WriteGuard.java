package dev.shuttle.client.http1;

import dev.shuttle.client.HttpTimeoutException;
import dev.shuttle.client.internal.TaskScheduler;
import dev.shuttle.client.pool.Lease;
import dev.shuttle.transport.Transport;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The write timeout of one HTTP/1.1 request. A blocking socket write has no timeout of its own, so while the request
 * is written this checks, a few times per timeout on the client's scheduler, how long the write in progress has been
 * blocked ({@link Transport#writeStartedNanos()}, stamped per 64 KiB slice), and aborts the connection through the
 * lease once that exceeds the timeout: the blocked writer then fails, and the exchange reports the abort reason. It
 * measures a single blocked write, not the whole upload, so a slow but moving upload is never cut off.
 */
final class WriteGuard {
    private final TaskScheduler scheduler;
    private final Transport transport;
    private final Lease lease;
    private final LongSupplier clock;
    private final long timeoutNanos;
    private final long periodNanos;
    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by lock: once true, nothing is scheduled again (the write ended). */
    private boolean done;
    /** Guarded by lock. */
    private TaskScheduler.Scheduled next;

    private WriteGuard(TaskScheduler scheduler, Transport transport, Lease lease, LongSupplier clock,
                       long timeoutNanos) {
        this.scheduler = scheduler;
        this.transport = transport;
        this.lease = lease;
        this.clock = clock;
        this.timeoutNanos = timeoutNanos;
        // A quarter of the timeout, as the server's write watchdog: a timeout of 10 s fires within 12.5 s.
        this.periodNanos = Math.clamp(timeoutNanos / 4, TimeUnit.MILLISECONDS.toNanos(5), TimeUnit.SECONDS.toNanos(1));
    }

    static WriteGuard start(TaskScheduler scheduler, Transport transport, Lease lease, LongSupplier clock,
                            long timeoutNanos) {
        WriteGuard guard = new WriteGuard(scheduler, transport, lease, clock, timeoutNanos);
        guard.lock.lock();
        try {
            guard.next = scheduler.schedule(guard.periodNanos, guard::check);
        } finally {
            guard.lock.unlock();
        }
        return guard;
    }

    private void check() {
        long started = transport.writeStartedNanos();
        if (started != Transport.NOT_WRITING && clock.getAsLong() - started >= timeoutNanos) {
            // Through the lease: harmless if the exchange has already let the connection go.
            lease.abort(new HttpTimeoutException(HttpTimeoutException.Kind.WRITE, "sending the request: a write"
                    + " stayed blocked for " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms after "
                    + transport.bytesSent() + " bytes sent on the connection; the server is not reading"));
            return;
        }
        lock.lock();
        try {
            if (!done) {
                next = scheduler.schedule(periodNanos, this::check);
            }
        } finally {
            lock.unlock();
        }
    }

    /** The write is over: no check runs after this returns, bar one already running. */
    void cancel() {
        lock.lock();
        try {
            done = true;
            if (next != null) {
                next.cancel();
            }
        } finally {
            lock.unlock();
        }
    }
}
