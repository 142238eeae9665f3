package dev.shuttle.client;

import java.util.Map;

/**
 * A snapshot of a client's counters since it was built. Totals only grow; {@code idle}, {@code leased} and
 * {@code draining} are gauges. Each counter is read atomically, the snapshot as a whole is not.
 *
 * @param requests          calls to {@code send} (retries not counted again)
 * @param reusedRequests    attempts that ran on a connection that had carried a request before
 * @param retries           attempts repeated on a fresh connection after a reused one failed
 * @param connectionsOpened connections dialed successfully
 * @param connectionsClosed connections closed (for any reason)
 * @param drains            how closed bodies ended, per outcome (every outcome present, possibly 0)
 * @param bytesDiscarded    body bytes read and thrown away by drains
 * @param handOffWaits      requests that found no idle connection and waited for a draining one (hand-off rule)
 * @param handOffDials      requests that found a draining connection but dialed, the drain being expected to take
 *                          longer than a dial (they still took the drained connection if it was ready first)
 * @param origins           per-origin counters
 */
public record ClientStats(long requests, long reusedRequests, long retries, long connectionsOpened,
                          long connectionsClosed, Map<DrainOutcome, Long> drains, long bytesDiscarded,
                          long handOffWaits, long handOffDials, Map<Origin, OriginStats> origins) {
    /** Copies the maps, so a snapshot never changes after it is taken. */
    public ClientStats {
        drains = Map.copyOf(drains);
        origins = Map.copyOf(origins);
    }

    /**
     * Reused attempts over all attempts; 0 before the first request.
     *
     * @return a ratio from 0 to 1
     */
    public double reuseRatio() {
        long attempts = requests + retries;
        return attempts == 0 ? 0 : (double) reusedRequests / attempts;
    }

    /**
     * {@return how many closed bodies ended with {@code outcome}}
     *
     * @param outcome a drain outcome
     */
    public long drains(DrainOutcome outcome) {
        return drains.getOrDefault(outcome, 0L);
    }

    /**
     * {@return the counters of one origin, or all zeros when the client never talked to it}
     *
     * @param origin scheme, host and port, as {@link Origin#of} makes them
     */
    public OriginStats origin(Origin origin) {
        return origins.getOrDefault(origin, OriginStats.EMPTY);
    }

    /**
     * The counters of one origin (scheme, host and port), since the client was built.
     *
     * @param connectionsOpened connections dialed successfully
     * @param connectionsClosed connections closed
     * @param requests          attempts sent to this origin (retries included)
     * @param reusedRequests    attempts on a reused connection
     * @param idle              gauge: connections in the idle pool
     * @param leased            gauge: connections carrying an exchange
     * @param draining          gauge: connections being drained in the background
     */
    public record OriginStats(long connectionsOpened, long connectionsClosed, long requests, long reusedRequests,
                              int idle, int leased, int draining) {
        public static final OriginStats EMPTY = new OriginStats(0, 0, 0, 0, 0, 0, 0);
    }
}
