package dev.shuttle.client.pool;

import java.util.Arrays;

/**
 * The median of the last few samples. Used instead of a moving average for learned costs because a single outlier
 * (a GC pause, a descheduled thread) must not flip the wait-or-dial decision: the median ignores it until it becomes
 * the norm. Not thread-safe: guarded by its owner's lock.
 */
final class RecentMedian {
    private final double[] samples;
    private int count;
    private int next;

    RecentMedian(int window) {
        this.samples = new double[window];
    }

    void add(double sample) {
        samples[next] = sample;
        next = (next + 1) % samples.length;
        if (count < samples.length) {
            count++;
        }
    }

    boolean isEmpty() {
        return count == 0;
    }

    /** Samples held, at most the window. */
    int size() {
        return count;
    }

    /**
     * The lower of the two middle samples for an even count, the median for an odd one; NaN when empty. With two
     * samples that is the smaller: one outlier among two must not decide either.
     */
    double lowerMedian() {
        if (count == 0) {
            return Double.NaN;
        }
        double[] sorted = Arrays.copyOf(samples, count);
        Arrays.sort(sorted);
        return sorted[(count - 1) / 2];
    }

    /** The median of the samples held (the mean of the two middle ones for an even count); NaN when empty. */
    double median() {
        if (count == 0) {
            return Double.NaN;
        }
        double[] sorted = Arrays.copyOf(samples, count);
        Arrays.sort(sorted);
        return (sorted[(count - 1) / 2] + sorted[count / 2]) / 2;
    }
}
