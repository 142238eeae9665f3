package dev.shuttle.lab.clients;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bounds every lab call, whatever the client's own timeouts do: past the limit the calling thread is interrupted,
 * which on a virtual thread closes the socket it is blocked on, so one stuck exchange costs the run a few seconds
 * and an error in its cell instead of hanging it. Calls must run on virtual threads (platform threads blocked in
 * socket reads ignore interrupts).
 */
public final class CallWatchdog implements AutoCloseable {
    /** Longest a lab call may take: the slowest fixture case takes about 160 ms. */
    public static final Duration DEFAULT_LIMIT = Duration.ofSeconds(5);

    private static final int RUNNING = 0;
    private static final int DONE = 1;
    private static final int FIRED = 2;

    private final Duration limit;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "shuttle-lab-watchdog");
        thread.setDaemon(true);
        return thread;
    });

    public CallWatchdog(Duration limit) {
        this.limit = limit;
    }

    /** Thrown when the watchdog had to stop a call. */
    public static final class CallTimedOutException extends InterruptedIOException {
        CallTimedOutException(String message) {
            super(message);
        }
    }

    public CallResult call(LabClient client, URI uri, BodyUse use) throws IOException {
        Thread caller = Thread.currentThread();
        AtomicInteger state = new AtomicInteger(RUNNING);
        ScheduledFuture<?> alarm = timer.schedule(() -> {
            if (state.compareAndSet(RUNNING, FIRED)) {
                caller.interrupt();
            }
        }, limit.toNanos(), TimeUnit.NANOSECONDS);
        try {
            return client.call(uri, use);
        } catch (IOException | RuntimeException e) {
            if (state.get() == FIRED) {
                CallTimedOutException timeout = new CallTimedOutException(client.kind().cliName() + ": no answer from "
                        + uri + " within " + limit.toMillis() + " ms (stopped by the lab's watchdog)");
                timeout.initCause(e);
                throw timeout;
            }
            throw e;
        } finally {
            if (!state.compareAndSet(RUNNING, DONE)) {
                // The alarm fired: wait until its interrupt has been delivered, then clear it so the next call is
                // not hit by a stale interrupt.
                awaitQuietly(alarm);
                Thread.interrupted();
            } else {
                alarm.cancel(false);
            }
        }
    }

    private static void awaitQuietly(ScheduledFuture<?> alarm) {
        boolean interrupted = false;
        while (true) {
            try {
                alarm.get();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the very interrupt we are waiting for; keep waiting for the alarm to end
            } catch (ExecutionException e) {
                break;
            }
        }
        if (interrupted) {
            Thread.interrupted();
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
