package dev.shuttle.transport;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Enforces the write timeout. A blocking socket write has no timeout, so writers stamp the start of each write
 * ({@link Watched#writeStartedNanos()}) and this watchdog, on one shared scheduler thread, sweeps the open
 * connections a few times per timeout and aborts (closes) any write older than the timeout; the blocked writer then
 * fails with an {@code AsynchronousCloseException}. The sweep costs nothing per write beyond two volatile stores,
 * and its resolution (a quarter of the timeout) is plenty for a bound measured in seconds.
 */
public final class WriteWatchdog implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(WriteWatchdog.class.getName());

    /** What the watchdog needs from a connection's write side. */
    public interface Watched {
        /** nanoTime when the write in progress began, or {@link Transport#NOT_WRITING}. */
        long writeStartedNanos();

        /** Makes the blocked write fail, by closing the channel; must not block. */
        void abortWrite();
    }

    private final long timeoutNanos;
    private final LongSupplier nanoClock;
    private final Supplier<? extends Iterable<? extends Watched>> watched;
    private final ScheduledExecutorService scheduler;

    public WriteWatchdog(Duration timeout, LongSupplier nanoClock,
                         Supplier<? extends Iterable<? extends Watched>> watched) {
        this.timeoutNanos = timeout.toNanos();
        this.nanoClock = nanoClock;
        this.watched = watched;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "shuttle-write-watchdog");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** The sweep period: a quarter of the timeout, between 10 ms and 1 s. */
    static long periodNanos(long timeoutNanos) {
        return Math.clamp(timeoutNanos / 4, TimeUnit.MILLISECONDS.toNanos(10), TimeUnit.SECONDS.toNanos(1));
    }

    public void start() {
        long period = periodNanos(timeoutNanos);
        scheduler.scheduleWithFixedDelay(this::sweepNow, period, period, TimeUnit.NANOSECONDS);
    }

    private void sweepNow() {
        try {
            sweep(nanoClock.getAsLong());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "write watchdog sweep failed", e);
        }
    }

    /** Aborts every write that began more than the timeout before {@code now}; returns how many. */
    public int sweep(long now) {
        int aborted = 0;
        for (Watched writer : watched.get()) {
            long started = writer.writeStartedNanos();
            if (started != Transport.NOT_WRITING && now - started > timeoutNanos) {
                LOG.log(Level.DEBUG, "write blocked for longer than {0} ms: closing the connection",
                        TimeUnit.NANOSECONDS.toMillis(timeoutNanos));
                writer.abortWrite();
                aborted++;
            }
        }
        return aborted;
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
