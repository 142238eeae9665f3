package dev.shuttle.server.http2;

/**
 * A rate limit in one {@code long}: at most {@code burst} events at once, and on average no more than {@code burst}
 * per {@code periodNanos} (the generic cell rate algorithm, a token bucket kept as the time its bucket would be
 * refilled). Constant size whatever the traffic, so an idle connection pays a long and a flag for it and a flood cannot make
 * it grow, unlike a queue of timestamps. Not thread-safe: one owner (the connection's reader).
 */
final class RateBudget {
    private final long intervalNanos;
    private final long toleranceNanos;
    /** When the bucket is full again at the current rate ("theoretical arrival time"); valid once started. */
    private long emptyAt;
    private boolean started;

    RateBudget(int burst, long periodNanos) {
        if (burst <= 0 || periodNanos <= 0) {
            throw new IllegalArgumentException("burst " + burst + " per " + periodNanos + " ns");
        }
        this.intervalNanos = Math.max(1, periodNanos / burst);
        this.toleranceNanos = periodNanos - intervalNanos;
    }

    /** Counts one event at {@code nowNanos}; false when it exceeds the budget (the event is then not counted). */
    boolean spend(long nowNanos) {
        long base = !started || emptyAt - nowNanos < 0 ? nowNanos : emptyAt;
        if (base - nowNanos > toleranceNanos) {
            return false;
        }
        emptyAt = base + intervalNanos;
        started = true;
        return true;
    }
}
