package dev.shuttle.interop;

import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * One run of a client: GETs of a body of {@code bodyBytes}, each closed unread, either one after another or from
 * {@code workers} at once. Counts are sized so a run is long enough for a rate limit to bite (a client that closes
 * 9-byte bodies unread at full speed met a GOAWAY every ~200 requests) and short enough for the module to stay
 * near a minute: fewer requests for larger bodies. A concurrent run makes one request first, so the connection
 * exists before the workers start, and then every worker its share: a client that dials once per run dials there.
 *
 * @param size      what the body size is called in test names
 * @param workers   1: sequential; more: that many at once
 * @param perWorker requests each worker makes
 */
record Workload(String size, int bodyBytes, int workers, int perWorker) {
    static final int CONCURRENCY = 50;

    /** Every size, sequential and concurrent. */
    static List<Workload> all() {
        return List.of(
                new Workload("9 B", 9, 1, 2_000),
                new Workload("9 B", 9, CONCURRENCY, 100),
                new Workload("2 KiB", 2 * 1024, 1, 500),
                new Workload("2 KiB", 2 * 1024, CONCURRENCY, 10),
                new Workload("64 KiB", 64 * 1024, 1, 200),
                new Workload("64 KiB", 64 * 1024, CONCURRENCY, 4),
                new Workload("1 MiB", 1024 * 1024, 1, 30),
                new Workload("1 MiB", 1024 * 1024, CONCURRENCY, 1));
    }

    /** Every workload over each transport, as JUnit arguments (transport, workload). */
    static Stream<Arguments> overEachTransport(Transport... transports) {
        return Stream.of(transports).flatMap(t -> all().stream().map(w -> Arguments.of(t, w)));
    }

    /** Only the concurrent ones, over each transport. */
    static Stream<Arguments> concurrentOverEachTransport(Transport... transports) {
        return Stream.of(transports)
                .flatMap(t -> all().stream().filter(Workload::concurrent).map(w -> Arguments.of(t, w)));
    }

    boolean concurrent() {
        return workers > 1;
    }

    /** Requests the run makes in all, the first one of a concurrent run included. */
    int requests() {
        return workers * perWorker + (concurrent() ? 1 : 0);
    }

    @Override
    public String toString() {
        return size + (concurrent()
                ? String.format(Locale.ROOT, ", %d x %d concurrent", workers, perWorker)
                : String.format(Locale.ROOT, " x %d sequential", perWorker));
    }
}
