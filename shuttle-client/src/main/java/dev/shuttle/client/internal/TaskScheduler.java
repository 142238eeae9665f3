package dev.shuttle.client.internal;

/**
 * Runs short actions later: pool maintenance and call timeouts. {@link Scheduler} is the real one; tests pass one
 * they drive by hand, so nothing in a test waits for time to pass.
 */
public interface TaskScheduler {
    /** A scheduled action; cancelling is idempotent and harmless after it ran. */
    interface Scheduled {
        void cancel();
    }

    /** Runs {@code action} once, about {@code delayNanos} from now, unless cancelled first. */
    Scheduled schedule(long delayNanos, Runnable action);
}
