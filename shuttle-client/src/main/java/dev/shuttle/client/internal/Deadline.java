package dev.shuttle.client.internal;

/** Arithmetic on absolute {@code System.nanoTime()}-style deadlines, where Long.MAX_VALUE means "none". */
public final class Deadline {
    public static final long NONE = Long.MAX_VALUE;

    private Deadline() {
    }

    /** {@code now + nanos}, saturating at {@link #NONE}. */
    public static long after(long now, long nanos) {
        if (nanos == NONE) {
            return NONE;
        }
        long sum = now + nanos;
        return ((now ^ sum) & (nanos ^ sum)) < 0 ? NONE : sum;
    }
}
