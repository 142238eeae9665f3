package dev.shuttle.lab.proxy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** What {@code lab proxy} measured: one cell per proxy and body size, each the median of its rounds. */
public record ProxyResult(ProxySettings settings, List<Cell> cells, List<String> skipped) {
    /**
     * One proxy and size.
     *
     * @param version             what ran ({@code nginx/1.22.1}, {@code go1.19.8}, {@code shuttle})
     * @param upstreamConnections upstream connections opened during the aborted requests (median of rounds)
     * @param perHundred          the same per 100 requests
     * @param requestsPerSecond   aborted requests completed per second (median)
     * @param p99Millis           99th percentile of connect-to-abort time, ms (median of rounds)
     * @param failed              requests that failed, over all rounds
     * @param rounds              how many rounds the medians are of
     */
    public record Cell(ProxySubject subject, String version, int size, int requests, double upstreamConnections,
                       double perHundred, double requestsPerSecond, double p99Millis, int failed, int rounds,
                       String firstFailure) {
    }

    /** One round's raw figures of a cell. */
    record Round(long upstreamConnections, int completed, int failed, long elapsedNanos, long p99Micros,
                 String failure) {
    }

    static Cell summarize(ProxySubject subject, String version, int size, int requests, List<Round> rounds) {
        double connections = median(rounds.stream().mapToDouble(Round::upstreamConnections).toArray());
        double rate = median(rounds.stream()
                .mapToDouble(r -> r.completed() / Math.max(1e-9, r.elapsedNanos() / 1e9)).toArray());
        double p99 = median(rounds.stream().mapToDouble(r -> r.p99Micros() / 1000.0).toArray());
        int failed = rounds.stream().mapToInt(Round::failed).sum();
        String failure = rounds.stream().map(Round::failure).filter(f -> f != null).findFirst().orElse(null);
        return new Cell(subject, version, size, requests, connections, connections * 100.0 / requests, rate, p99,
                failed, rounds.size(), failure);
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** Cells of one subject, in size order. */
    public List<Cell> of(ProxySubject subject) {
        List<Cell> found = new ArrayList<>();
        for (Cell cell : cells) {
            if (cell.subject() == subject) {
                found.add(cell);
            }
        }
        return found;
    }
}
