package dev.shuttle.lab.load;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Counts and latencies of one load run, recorded by many connection threads at once; only requests sent inside the
 * measurement window count.
 */
final class LoadStats {
    private static final long MAX_MICROS = TimeUnit.MINUTES.toMicros(2);

    private final long windowStart;
    private final long windowEnd;
    private final Recorder latencies = new Recorder(MAX_MICROS, 3);
    private final LongAdder requests = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final AtomicReference<String> firstError = new AtomicReference<>();

    LoadStats(long windowStart, long windowEnd) {
        this.windowStart = windowStart;
        this.windowEnd = windowEnd;
    }

    long windowStart() {
        return windowStart;
    }

    long windowEnd() {
        return windowEnd;
    }

    boolean inWindow(long nanos) {
        return nanos >= windowStart && nanos < windowEnd;
    }

    /** A response completed at {@code now}: counted when it was sent inside the window. */
    void completed(LabConnection.Completion completion, long now) {
        if (!inWindow(completion.sentNanos())) {
            return;
        }
        if (!completion.ok()) {
            error("status " + completion.status());
            return;
        }
        requests.increment();
        latencies.recordValue(Math.min(MAX_MICROS, Math.max(1, (now - completion.sentNanos()) / 1000)));
    }

    /** A failure at {@code now}: counted when it happened inside the window. */
    void failed(Exception e, long now) {
        if (inWindow(now)) {
            error(e.toString());
        }
    }

    private void error(String what) {
        errors.increment();
        firstError.compareAndSet(null, what);
    }

    LoadResult result(int connections, String generator) {
        Histogram h = latencies.getIntervalHistogram();
        boolean empty = h.getTotalCount() == 0;
        return new LoadResult(connections, requests.sum(), errors.sum(), (windowEnd - windowStart) / 1e6,
                empty ? 0 : h.getValueAtPercentile(50), empty ? 0 : h.getValueAtPercentile(99),
                empty ? 0 : h.getValueAtPercentile(99.9), empty ? 0 : h.getMaxValue(), firstError.get(), generator);
    }

    static void sleepUntil(long deadlineNanos) throws InterruptedException {
        long left;
        while ((left = deadlineNanos - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }
}
