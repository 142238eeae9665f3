package dev.shuttle.benchmarks.transport;

import dev.shuttle.transport.DeadlineQueue;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The readiness watcher's deadline queue under the mostly-idle pattern: {@code parked} connections wait with the same
 * idle timeout; one at random becomes readable (its entry leaves the queue) and parks again after its request (its
 * entry comes back with the latest deadline of all). One operation is that removal and that add.
 *
 * <p>Entries are allocated between filler arrays so that, as with the watcher's tickets, they do not sit next to each
 * other in memory. Run: {@code mvn -B -pl shuttle-benchmarks -am package -DskipTests}, then
 * {@code java -cp shuttle-benchmarks/target/classes:$(cat shuttle-benchmarks/target/classpath.txt)
 * org.openjdk.jmh.Main DeadlineQueueBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DeadlineQueueBenchmark {
    private static final long PARK_INTERVAL_NANOS = 1_000_000; // 1 000 parks/s

    @Param({"5000", "100000", "1000000"})
    int parked;

    private final DeadlineQueue<Parked> queue = new DeadlineQueue<>();
    private Parked[] entries;
    private Object[] fillers;
    private long clock;
    private long random = 0x9E3779B97F4A7C15L;

    static final class Parked extends DeadlineQueue.Entry {
    }

    @Setup
    public void fill() {
        entries = new Parked[parked];
        fillers = new Object[parked];
        for (int i = 0; i < parked; i++) {
            fillers[i] = new byte[200 + (i % 7) * 64];
            entries[i] = new Parked();
            queue.add(entries[i], clock += PARK_INTERVAL_NANOS);
        }
    }

    @Benchmark
    public int wakeAndParkAgain() {
        random ^= random << 13;
        random ^= random >>> 7;
        random ^= random << 17;
        Parked woken = entries[(int) ((random >>> 1) % parked)];
        queue.remove(woken);
        queue.add(woken, clock += PARK_INTERVAL_NANOS);
        return queue.size();
    }
}
