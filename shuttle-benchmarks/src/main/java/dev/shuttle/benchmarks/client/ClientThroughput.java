package dev.shuttle.benchmarks.client;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Recorder;

/**
 * Client throughput side by side: for each round, each client in turn runs for a fixed time against the same
 * server (in another JVM), either sequentially on one virtual thread or on N concurrent virtual threads, each call
 * reading the whole body. Reports requests/s, p50, p99 and heap bytes allocated per request (the JVM-wide allocation
 * counter: the server is not in this JVM, so the client is what allocates).
 *
 * <p>Usage: {@code ClientThroughput URL [concurrency=1] [seconds=5] [rounds=3] [clients=shuttle,jdk,okhttp,apache]}
 */
public final class ClientThroughput {
    private ClientThroughput() {
    }

    public static void main(String[] args) throws Exception {
        URI uri = URI.create(args[0]);
        int concurrency = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        String[] clients = (args.length > 4 ? args[4] : "shuttle,jdk,okhttp,apache").split(",");

        System.out.printf("GET %s, %d virtual thread(s), %d s per cell, %d rounds, clients alternate%n",
                uri, concurrency, seconds, rounds);
        for (int round = 1; round <= rounds; round++) {
            for (String name : clients) {
                try (BenchClient client = BenchClient.create(name, Math.max(concurrency, 5))) {
                    run(client, uri, concurrency, 1); // warm-up: JIT, connections
                    Cell cell = run(client, uri, concurrency, seconds);
                    System.out.printf("round %d %-8s requests/s %9.0f  p50 %7.1f us  p99 %8.1f us  alloc %7.0f B/req"
                                    + "  errors %d%n",
                            round, name, cell.requestsPerSecond(), cell.p50Micros(), cell.p99Micros(),
                            cell.bytesAllocatedPerRequest(), cell.errors());
                }
            }
        }
    }

    record Cell(double requestsPerSecond, double p50Micros, double p99Micros, double bytesAllocatedPerRequest,
                long errors) {
    }

    private static Cell run(BenchClient client, URI uri, int concurrency, int seconds) throws InterruptedException {
        Recorder latencies = new Recorder(3);
        LongAdder requests = new LongAdder();
        LongAdder errors = new LongAdder();
        AtomicBoolean running = new AtomicBoolean(true);
        long allocatedBefore = allocatedBytes();
        long start = System.nanoTime();
        List<Thread> workers = new ArrayList<>(concurrency);
        for (int i = 0; i < concurrency; i++) {
            workers.add(Thread.ofVirtual().start(() -> {
                while (running.get()) {
                    long t0 = System.nanoTime();
                    try {
                        client.get(uri);
                        latencies.recordValue((System.nanoTime() - t0) / 1000);
                        requests.increment();
                    } catch (Exception e) {
                        if (errors.sum() == 0) {
                            System.err.println(client + ": " + e);
                        }
                        errors.increment();
                    }
                }
            }));
        }
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
        running.set(false);
        for (Thread worker : workers) {
            worker.join();
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        long allocated = allocatedBytes() - allocatedBefore;
        var histogram = latencies.getIntervalHistogram();
        long count = requests.sum();
        return new Cell(count / elapsed, histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(99),
                count == 0 ? 0 : (double) allocated / count, errors.sum());
    }

    private static long allocatedBytes() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        return threads.getTotalThreadAllocatedBytes();
    }
}
