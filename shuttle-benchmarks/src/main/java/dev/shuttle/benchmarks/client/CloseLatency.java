package dev.shuttle.benchmarks.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * How long {@code close()} of a response whose body was not read takes, per client and body: the caller's cost of
 * giving a response up. Sequential GETs against the Jetty benchmark server ({@code ServeOneKiB jetty}); each response
 * is closed as soon as its head has arrived, and only the close is timed (HdrHistogram, nanoseconds). Also counts the
 * connections the server accepted during the cell, per 100 requests: 1 or less means the connection survived the
 * unread body.
 *
 * <p>Bodies ({@code JettyOneKiBServer}'s paths): {@code size/N} (Content-Length), {@code chunked/N}, and
 * {@code late/N/MS} (chunked, N bytes at once, the end MS ms later). Clients: Shuttle with each drain policy
 * (default, bounded = Go 1.27's 256 KiB / 50 ms background drain, none), OkHttp 5 ({@code Response.close()}),
 * Apache HttpClient 5 (closing the classic response), the JDK client (closing the body InputStream).
 *
 * <p>Each round runs every case for every client, clients in rotating order; the summary gives the median over the
 * rounds of each figure, and the largest max.
 *
 * <p>Usage: {@code CloseLatency BASE_URL [seconds=3] [rounds=3]
 * [cases=size/2048,size/65536,chunked/2048,late/1024/20] [clients=shuttle,shuttle-bounded,shuttle-none,okhttp,apache,jdk]};
 * {@code shuttle-base}, {@code shuttle-base-bounded} and {@code shuttle-base-none} measure another build of the client
 * given with {@code -Dshuttle.baseline=JAR} ({@link BaselineShuttle}).
 */
public final class CloseLatency {
    private static final String DEFAULT_CASES = "size/2048,size/65536,chunked/2048,late/1024/20";
    private static final String DEFAULT_CLIENTS = "shuttle,shuttle-bounded,shuttle-none,okhttp,apache,jdk";

    private CloseLatency() {
    }

    public static void main(String[] args) throws Exception {
        URI base = URI.create(args[0]);
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        String[] cases = ClientThroughput.split(args.length > 3 ? args[3] : DEFAULT_CASES);
        String[] clients = ClientThroughput.split(args.length > 4 ? args[4] : DEFAULT_CLIENTS);
        int warmup = Integer.getInteger("warmup", 2);

        System.out.printf("close() of an unread body, sequential GETs to %s, %d s per cell, %d rounds, warm-up %d s"
                + " each%n", base, seconds, rounds, warmup);
        for (String name : clients) { // JIT and class loading before anything is measured
            try (UnreadCloser client = UnreadCloser.create(name)) {
                run(client, base.resolve("/" + cases[0]), warmup * 1000L, base);
            }
        }
        Map<String, List<Cell>> cells = new LinkedHashMap<>();
        for (int round = 1; round <= rounds; round++) {
            for (String bodyCase : cases) {
                URI uri = base.resolve("/" + bodyCase);
                for (int i = 0; i < clients.length; i++) {
                    String name = clients[(i + round - 1) % clients.length];
                    try (UnreadCloser client = UnreadCloser.create(name)) {
                        run(client, uri, 300, base); // its connections and its own JIT profile
                        Cell cell = run(client, uri, seconds * 1000L, base);
                        cells.computeIfAbsent(bodyCase + " " + name, k -> new ArrayList<>()).add(cell);
                        System.out.printf("round %d %-18s %-20s %s%n", round, bodyCase, name, cell);
                    }
                }
            }
        }
        System.out.printf("%nclose() latency, median of %d rounds (max: the largest of any round)%n", rounds);
        System.out.printf("%-18s %-20s %9s %9s %9s %10s %9s %7s%n", "body", "client", "requests", "p50 us",
                "p99 us", "max us", "conns/100", "errors");
        for (String bodyCase : cases) {
            for (String name : clients) {
                List<Cell> list = cells.get(bodyCase + " " + name);
                System.out.printf("%-18s %-20s %9.0f %9.1f %9.1f %10.1f %9.1f %7d%n", bodyCase, name,
                        median(list, Cell::requests), median(list, Cell::p50Micros),
                        median(list, Cell::p99Micros), list.stream().mapToDouble(Cell::maxMicros).max().orElse(0),
                        median(list, Cell::connectionsPer100), list.stream().mapToLong(Cell::errors).sum());
            }
        }
    }

    record Cell(long requests, double p50Micros, double p99Micros, double maxMicros, double connectionsPer100,
                long errors) {
        @Override
        public String toString() {
            return String.format("requests %6d  close p50 %8.1f us  p99 %8.1f us  max %9.1f us  conns/100 %6.1f"
                    + "  errors %d", requests, p50Micros, p99Micros, maxMicros, connectionsPer100, errors);
        }
    }

    private static Cell run(UnreadCloser client, URI uri, long millis, URI base) throws IOException {
        Histogram closeNanos = new Histogram(3);
        long requests = 0;
        long errors = 0;
        long connectionsBefore = connectionsAccepted(base);
        long end = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < end) {
            AutoCloseable response;
            try {
                response = client.open(uri);
            } catch (Exception e) {
                if (errors++ == 0) {
                    System.err.println(uri + ": " + e);
                }
                continue;
            }
            long start = System.nanoTime();
            try {
                response.close();
            } catch (Exception e) {
                if (errors++ == 0) {
                    System.err.println(uri + " close: " + e);
                }
            }
            closeNanos.recordValue(System.nanoTime() - start);
            requests++;
        }
        long connections = connectionsAccepted(base) - connectionsBefore - 1; // minus the stats query's own
        return new Cell(requests, closeNanos.getValueAtPercentile(50) / 1e3,
                closeNanos.getValueAtPercentile(99) / 1e3, closeNanos.getMaxValue() / 1e3,
                requests == 0 ? 0 : 100.0 * connections / requests, errors);
    }

    /** The server's count of accepted connections, over a connection of its own (counted too). */
    private static long connectionsAccepted(URI base) throws IOException {
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET /stats/connections HTTP/1.1\r\nHost: " + base.getHost()
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            String body = response.substring(response.indexOf("\r\n\r\n") + 4).trim();
            return Long.parseLong(body);
        }
    }

    private static double median(List<Cell> cells, ToDoubleFunction<Cell> metric) {
        double[] values = cells.stream().mapToDouble(metric).sorted().toArray();
        int n = values.length;
        return n == 0 ? Double.NaN : (values[(n - 1) / 2] + values[n / 2]) / 2;
    }
}
