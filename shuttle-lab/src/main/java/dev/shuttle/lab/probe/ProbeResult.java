package dev.shuttle.lab.probe;

import dev.shuttle.lab.clients.ClientKind;
import dev.shuttle.lab.report.RunEnvironment;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * What {@code shuttle probe URL} measured.
 *
 * @param trust over https, whom the clients trusted, in words; null for http
 */
public record ProbeResult(URI uri, int requests, RunEnvironment environment, List<Row> rows, String trust) {

    /**
     * One client's figures.
     *
     * @param completed         calls that got a response
     * @param statuses          count per status code
     * @param connectionsOpened from the client's trace; -1 when the client has no hook (JDK)
     * @param bytesDiscarded    bytes the client drained and threw away; -1 when it does not say
     * @param wallNanos         time for all calls
     * @param error             why the client stopped early, or null
     * @param ownView           the client's own account (Shuttle), empty for peers
     */
    public record Row(ClientKind client, int completed, Map<Integer, Integer> statuses, long connectionsOpened,
                      long bytesDiscarded, long p50Nanos, long p90Nanos, long p99Nanos, long maxNanos,
                      long wallNanos, String error, Map<String, Object> ownView) {

        /** Requests that ran on a connection opened earlier, over completed requests; NaN when unknown. */
        public double reuseRatio() {
            if (connectionsOpened < 0 || completed == 0) {
                return Double.NaN;
            }
            return Math.max(0, completed - connectionsOpened) / (double) completed;
        }
    }
}
