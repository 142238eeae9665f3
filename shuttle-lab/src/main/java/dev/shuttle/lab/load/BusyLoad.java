package dev.shuttle.lab.load;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The two shapes of seed 001's busy experiment, on connections that are already open (one request each):
 * <ul>
 *   <li>{@link #mostlyIdle}: every connection sends one request per interval at its own random offset, so a
 *       connection is idle between requests and wakes up for each one;</li>
 *   <li>{@link #hot}: a closed loop, each connection keeping {@code streams} requests in flight (a new one as soon as
 *       one completes).</li>
 * </ul>
 * Each connection has one virtual thread that sends and reads. The window opens after the warm-up; the run prints
 * {@code MEASURING} and {@code MEASURED} on stdout at its edges, so the lab can read the server's CPU time there.
 */
final class BusyLoad {
    private BusyLoad() {
    }

    static LoadResult mostlyIdle(List<LabConnection> connections, Duration interval, Duration warmup,
                                 Duration duration, PrintStream out) throws InterruptedException {
        long start = System.nanoTime();
        LoadStats stats = new LoadStats(start + warmup.toNanos(), start + warmup.toNanos() + duration.toNanos());
        long period = interval.toNanos();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (LabConnection connection : connections) {
                long offset = ThreadLocalRandom.current().nextLong(period);
                threads.submit(() -> {
                    for (long next = start + offset; next < stats.windowEnd(); next += period) {
                        LoadStats.sleepUntil(next);
                        try {
                            connection.send();
                            stats.completed(connection.awaitResponse(), System.nanoTime());
                        } catch (IOException | RuntimeException e) {
                            stats.failed(e, System.nanoTime());
                            return null;
                        }
                    }
                    return null;
                });
            }
            markWindow(stats, out);
        }
        return stats.result(connections.size(), "lab");
    }

    /** {@code generator}: the name the result gives the load's source ("lab", "shuttle-h2"). */
    static LoadResult hot(List<LabConnection> connections, int streams, Duration warmup, Duration duration,
                          String generator, PrintStream out) throws InterruptedException {
        long start = System.nanoTime();
        LoadStats stats = new LoadStats(start + warmup.toNanos(), start + warmup.toNanos() + duration.toNanos());
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (LabConnection connection : connections) {
                int inFlight = Math.max(1, Math.min(streams, connection.maxInFlight()));
                threads.submit(() -> {
                    try {
                        for (int i = 0; i < inFlight; i++) {
                            connection.send();
                        }
                        int outstanding = inFlight;
                        while (outstanding > 0) {
                            LabConnection.Completion done = connection.awaitResponse();
                            long now = System.nanoTime();
                            stats.completed(done, now);
                            outstanding--;
                            if (now < stats.windowEnd()) {
                                connection.send();
                                outstanding++;
                            }
                        }
                    } catch (IOException | RuntimeException e) {
                        stats.failed(e, System.nanoTime());
                    }
                    return null;
                });
            }
            markWindow(stats, out);
        }
        return stats.result(connections.size(), generator);
    }

    private static void markWindow(LoadStats stats, PrintStream out) throws InterruptedException {
        LoadStats.sleepUntil(stats.windowStart());
        out.println("MEASURING");
        out.flush();
        LoadStats.sleepUntil(stats.windowEnd());
        out.println("MEASURED");
        out.flush();
    }
}
