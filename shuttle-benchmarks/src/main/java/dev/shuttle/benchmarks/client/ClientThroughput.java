package dev.shuttle.benchmarks.client;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Recorder;

/**
 * Client throughput side by side: for each round, each client in turn runs for a fixed time against the same
 * server (in another JVM), either sequentially on one virtual thread or on N concurrent virtual threads, each call
 * reading the whole body. Reports requests/s, p50, p99 and heap bytes allocated per request (the JVM-wide allocation
 * counter: the server is not in this JVM, so the client is what allocates), then the median of each over the rounds.
 *
 * <p>Fairness on a noisy machine: before the first round every client runs once, unmeasured, for {@code -Dwarmup}
 * seconds (default 3), so the JIT has compiled the harness and the shared JDK code before anyone is measured (the
 * first client measured used to pay for it); each round starts with the next client in turn, so none always runs
 * right after the same neighbour; each cell builds a new client and warms its connections for a second first.
 *
 * <p>Protocol ({@code -Dprotocol=h1|h2c|h2}, default h1, {@link Protocol}): every client is configured for it, and
 * each new client's first requests check it: one to {@code /stats/connections} (the connections the server has
 * accepted so far, served by both benchmark servers), then one GET of the URL that must come back over the asked
 * protocol, or the run stops (a client silently falling back to HTTP/1.1 would be measured as something else). After
 * the cell another {@code /stats/connections} gives the connections the client dialed in all (column {@code conns},
 * the most over the rounds): one for an HTTP/2 client that multiplexes, about the concurrency for HTTP/1.1. A server
 * without that path (any other body) shows {@code ?}.
 *
 * <p>Usage: {@code ClientThroughput URL [concurrency=1] [seconds=5] [rounds=3]
 * [clients=shuttle,jdk,okhttp,apache]}; {@code jetty} is Jetty 12's client; add {@code shuttle-base} with
 * {@code -Dshuttle.baseline=JAR} to compare another build of shuttle-client in the same run ({@link BaselineShuttle}).
 */
public final class ClientThroughput {
    private ClientThroughput() {
    }

    public static void main(String[] args) throws Exception {
        URI uri = URI.create(args[0]);
        int concurrency = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        String[] clients = split(args.length > 4 ? args[4] : "shuttle,jdk,okhttp,apache");
        int warmup = Integer.getInteger("warmup", 3);
        Protocol protocol = Protocol.parse(System.getProperty("protocol", "h1"));
        protocol.checkScheme(uri);

        System.out.printf("GET %s over %s, %d virtual thread(s), %d s per cell, %d rounds, clients rotate;"
                        + " warm-up %d s each%n", uri, protocol, concurrency, seconds, rounds, warmup);
        int maxConnections = Math.max(concurrency, 5);
        if (warmup > 0) {
            for (String name : clients) {
                try (BenchClient client = BenchClient.create(name, maxConnections, protocol)) {
                    start(client, name, uri, protocol);
                    run(client, uri, concurrency, warmup);
                }
            }
        }
        Map<String, List<Cell>> cells = new LinkedHashMap<>();
        for (String name : clients) {
            cells.put(name, new ArrayList<>());
        }
        for (int round = 1; round <= rounds; round++) {
            for (int i = 0; i < clients.length; i++) {
                String name = clients[(i + round - 1) % clients.length];
                try (BenchClient client = BenchClient.create(name, maxConnections, protocol)) {
                    long acceptedBefore = start(client, name, uri, protocol);
                    run(client, uri, concurrency, 1); // this client's connections, and its own JIT profile
                    Cell cell = run(client, uri, concurrency, seconds);
                    long accepted = acceptedConnections(client, uri);
                    cell = cell.withConnections(accepted < 0 || acceptedBefore < 0 ? -1 : accepted - acceptedBefore);
                    cells.get(name).add(cell);
                    System.out.printf("round %d %-12s %s%n", round, name, cell);
                }
            }
        }
        System.out.printf("%nmedian of %d rounds (%d virtual thread(s)):%n", rounds, concurrency);
        cells.forEach((name, list) -> System.out.printf("%-12s %s%n", name, Cell.median(list)));
    }

    /**
     * The new client's first requests: the server's count of accepted connections (this request's own connection
     * among them), then the protocol check.
     *
     * @return the connections the server had accepted before this client dialed, or -1 when it does not say
     * @throws IllegalStateException when the response did not come over the asked protocol
     */
    private static long start(BenchClient client, String name, URI uri, Protocol protocol) throws Exception {
        long accepted = acceptedConnections(client, uri);
        BenchClient.Checked checked = client.check(uri);
        if (!checked.version().equals(protocol.version)) {
            throw new IllegalStateException(name + " asked for " + protocol + " got a response over "
                    + checked.version() + ": it would be measured on the wrong protocol");
        }
        return accepted < 0 ? -1 : accepted - 1;
    }

    /** The server's {@code /stats/connections}, or -1 when the server answers something else. */
    private static long acceptedConnections(BenchClient client, URI uri) throws Exception {
        String body = new String(client.check(uri.resolve("/stats/connections")).body(), StandardCharsets.US_ASCII)
                .trim();
        return body.matches("[0-9]{1,18}") ? Long.parseLong(body) : -1;
    }

    /**
     * @param cpuMicrosPerRequest CPU time of this whole JVM (client, harness, JIT, GC) per request: less sensitive to
     *                            the machine's other load than throughput, as long as the JIT has settled
     */
    record Cell(double requestsPerSecond, double p50Micros, double p99Micros, double bytesAllocatedPerRequest,
                double cpuMicrosPerRequest, long errors, long connections) {

        /** Medians, but errors summed and connections the most any round saw (-1: unknown). */
        static Cell median(List<Cell> cells) {
            return new Cell(median(cells, Cell::requestsPerSecond), median(cells, Cell::p50Micros),
                    median(cells, Cell::p99Micros), median(cells, Cell::bytesAllocatedPerRequest),
                    median(cells, Cell::cpuMicrosPerRequest), cells.stream().mapToLong(Cell::errors).sum(),
                    cells.stream().mapToLong(Cell::connections).max().orElse(-1));
        }

        Cell withConnections(long dialed) {
            return new Cell(requestsPerSecond, p50Micros, p99Micros, bytesAllocatedPerRequest, cpuMicrosPerRequest,
                    errors, dialed);
        }

        private static double median(List<Cell> cells, ToDoubleFunction<Cell> metric) {
            double[] values = cells.stream().mapToDouble(metric).sorted().toArray();
            int n = values.length;
            return n == 0 ? Double.NaN : (values[(n - 1) / 2] + values[n / 2]) / 2;
        }

        @Override
        public String toString() {
            return String.format("requests/s %9.0f  p50 %7.1f us  p99 %8.1f us  alloc %7.0f B/req  cpu %6.1f us/req"
                            + "  errors %d  conns %s",
                    requestsPerSecond, p50Micros, p99Micros, bytesAllocatedPerRequest, cpuMicrosPerRequest, errors,
                    connections < 0 ? "?" : Long.toString(connections));
        }
    }

    private static Cell run(BenchClient client, URI uri, int concurrency, int seconds) throws InterruptedException {
        Recorder latencies = new Recorder(3);
        LongAdder requests = new LongAdder();
        LongAdder errors = new LongAdder();
        AtomicBoolean running = new AtomicBoolean(true);
        long allocatedBefore = allocatedBytes();
        long cpuBefore = cpuNanos();
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
        long cpu = cpuNanos() - cpuBefore;
        var histogram = latencies.getIntervalHistogram();
        long count = requests.sum();
        return new Cell(count / elapsed, histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(99),
                count == 0 ? 0 : (double) allocated / count, count == 0 ? 0 : cpu / 1e3 / count, errors.sum(), -1);
    }

    private static long allocatedBytes() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        return threads.getTotalThreadAllocatedBytes();
    }

    private static long cpuNanos() {
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        return os.getProcessCpuTime();
    }

    static String[] split(String list) {
        return Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toArray(String[]::new);
    }
}
