package dev.shuttle.client.pool;

/**
 * The recent peak of concurrent use of one origin, decaying linearly to zero over a window (the idle timeout).
 * The adaptive idle limit keeps this many idle connections: a burst as wide as the last one finds them all waiting,
 * while an origin that has gone quiet drops to zero.
 *
 * <p>Not thread-safe: guarded by the pool's lock.
 */
final class PeakConcurrency {
    private final long windowNanos;
    private int peak;
    private long peakAt;

    PeakConcurrency(long windowNanos) {
        this.windowNanos = windowNanos;
    }

    /** Records that {@code busy} connections were in use at {@code now}. */
    void observe(int busy, long now) {
        if (busy > 0 && busy >= allowance(now)) {
            peak = busy;
            peakAt = now;
        }
    }

    /** The decayed peak at {@code now}: {@code ceil(peak * (1 - age / window))}, 0 once the window has passed. */
    int allowance(long now) {
        if (peak == 0) {
            return 0;
        }
        long age = Math.max(0, now - peakAt);
        if (age >= windowNanos) {
            return 0;
        }
        return (int) Math.ceil(peak * ((double) (windowNanos - age) / windowNanos));
    }
}
