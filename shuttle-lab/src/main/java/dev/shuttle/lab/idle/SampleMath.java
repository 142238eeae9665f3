package dev.shuttle.lab.idle;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The arithmetic of {@code lab idle}, kept apart so it can be tested on its own: medians (of samples within a round,
 * then of rounds), and the cost per connection as the growth over the round's own baseline divided by the number of
 * connections added.
 */
public final class SampleMath {
    private SampleMath() {
    }

    /** The median; for an even count the mean of the two middle values, rounded half up. Empty → 0. */
    public static long median(Collection<Long> values) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        if (n % 2 == 1) {
            return sorted.get(n / 2);
        }
        return Math.floorDiv(sorted.get(n / 2 - 1) + sorted.get(n / 2) + 1, 2);
    }

    /** The median of doubles; for an even count the mean of the two middle values. Empty → NaN. */
    public static double medianOfDoubles(Collection<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** Field by field median of samples: each figure is the median of its own samples, as seed 001 reports. */
    public static IdleSample medianOfSamples(List<IdleSample> samples) {
        return new IdleSample(
                medianOf(samples, IdleSample::rssBytes),
                medianOf(samples, IdleSample::liveHeapBytes),
                medianOf(samples, IdleSample::osThreads),
                medianOf(samples, IdleSample::virtualThreads));
    }

    public static <T> long medianOf(List<T> items, ToLongFunction<T> field) {
        List<Long> values = new ArrayList<>(items.size());
        for (T item : items) {
            values.add(field.applyAsLong(item));
        }
        return median(values);
    }

    /** (loaded - baseline) / connections; may be negative when the figure shrank (GC, noise). */
    public static double perConnection(long baseline, long loaded, int connections) {
        if (connections <= 0) {
            throw new IllegalArgumentException("connections must be positive: " + connections);
        }
        return (double) (loaded - baseline) / connections;
    }
}
