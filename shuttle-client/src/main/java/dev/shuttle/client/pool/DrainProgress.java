package dev.shuttle.client.pool;

/**
 * How far a background drain has got, read by requests deciding whether to wait for it (hand-off rule). Written only
 * by the drain's thread; read by any thread.
 */
public final class DrainProgress {
    private final long startNanos;
    private final long remainingAtStart;
    private volatile long drained;

    /**
     * @param startNanos       when the background drain started, on the pool's clock
     * @param remainingAtStart body bytes left when it started, or -1 when the framing does not say (chunked)
     */
    public DrainProgress(long startNanos, long remainingAtStart) {
        this.startNanos = startNanos;
        this.remainingAtStart = remainingAtStart;
    }

    /** Called by the drain's thread after each step. */
    public void drained(long totalDrained) {
        this.drained = totalDrained;
    }

    public long startNanos() {
        return startNanos;
    }

    public long drained() {
        return drained;
    }

    /** Body bytes still to drain, or -1 when unknown. */
    public long remaining() {
        return remainingAtStart < 0 ? -1 : Math.max(0, remainingAtStart - drained);
    }
}
