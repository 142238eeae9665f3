package dev.shuttle.lab.reuse;

import dev.shuttle.lab.clients.ClientKind;
import java.util.Arrays;
import java.util.List;

/**
 * One cell of the table: the median of its rounds, with the spread of the connection count.
 *
 * @param rounds            how many rounds the medians are of
 * @param newConnections    median new connections
 * @param minNewConnections fewest in one round
 * @param maxNewConnections most in one round
 * @param serverBytes       median bytes the server wrote
 * @param tlsHandshakes     median TLS handshakes (0 over plaintext)
 * @param minTlsHandshakes  fewest in one round
 * @param maxTlsHandshakes  most in one round
 * @param tlsResumed        median resumed handshakes (the median of their own counts, not of the rounds above)
 * @param goAways           GOAWAYs before the client closed, over all rounds (any one is a connection the server
 *                          took from a client that wanted it); -1 when not counted
 * @param wallNanos         median time for the cell's calls
 * @param p50Nanos          median over rounds of the per-call median
 * @param p99Nanos          median over rounds of the per-call 99th percentile
 * @param errors            failed calls over all rounds
 */
public record CellSummary(ClientKind client, ReuseCase reuseCase, int requests, int rounds, long newConnections,
                          long minNewConnections, long maxNewConnections, long serverBytes, long tlsHandshakes,
                          long minTlsHandshakes, long maxTlsHandshakes, long tlsResumed, long goAways, long wallNanos,
                          long p50Nanos, long p99Nanos, int errors) {

    /** Summarises the rounds of one cell; they must all be of the same client and case. */
    public static CellSummary of(List<CellMeasurement> rounds) {
        CellMeasurement first = rounds.getFirst();
        long[] connections = rounds.stream().mapToLong(CellMeasurement::newConnections).toArray();
        long[] handshakes = rounds.stream().mapToLong(CellMeasurement::tlsHandshakes).toArray();
        return new CellSummary(first.client(), first.reuseCase(), first.requests(), rounds.size(),
                median(connections),
                Arrays.stream(connections).min().orElse(0),
                Arrays.stream(connections).max().orElse(0),
                median(rounds.stream().mapToLong(CellMeasurement::serverBytes).toArray()),
                median(handshakes),
                Arrays.stream(handshakes).min().orElse(0),
                Arrays.stream(handshakes).max().orElse(0),
                median(rounds.stream().mapToLong(CellMeasurement::tlsResumed).toArray()),
                first.goAways() < 0 ? -1 : rounds.stream().mapToLong(CellMeasurement::goAways).sum(),
                median(rounds.stream().mapToLong(CellMeasurement::wallNanos).toArray()),
                median(rounds.stream().mapToLong(CellMeasurement::p50Nanos).toArray()),
                median(rounds.stream().mapToLong(CellMeasurement::p99Nanos).toArray()),
                rounds.stream().mapToInt(CellMeasurement::errors).sum());
    }

    /** The middle value; for an even count the lower middle, so a median is always a value that was measured. */
    static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(sorted.length - 1) / 2];
    }
}
