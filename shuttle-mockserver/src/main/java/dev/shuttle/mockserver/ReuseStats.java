package dev.shuttle.mockserver;

import java.util.List;

/**
 * What a mock server counted, at one instant, from its start (or as the difference of two snapshots,
 * {@link #minus}). Counts of connections, requests and handshakes are final as soon as the client has its response;
 * bytes keep growing while a connection still sends, so read them once the client is closed
 * ({@link MockServer#awaitConnectionsClosed}).
 *
 * @param connections   new connections accepted
 * @param requests      requests received
 * @param tlsHandshakes TLS handshakes completed, full and resumed
 * @param tlsResumed    of those, resumed ones
 * @param bytesWritten  bytes the sockets accepted for sending, every connection
 * @param open          connections still open
 * @param perConnection the connections, oldest first (at most the last {@link MockServer#KEPT_CONNECTIONS}); empty in
 *                      a difference
 */
public record ReuseStats(long connections, long requests, long tlsHandshakes, long tlsResumed, long bytesWritten,
                         long open, List<ConnectionRecord> perConnection) {
    /** Copies the per-connection list, so a snapshot never changes after it is taken. */
    public ReuseStats {
        perConnection = List.copyOf(perConnection);
    }

    /**
     * Requests that did not need a new connection: {@code requests - connections}, never below 0. Counts a
     * connection that carried no request as one that cost a dial and gave nothing.
     *
     * @return the reused-request count
     */
    public long reusedRequests() {
        return Math.max(0, requests - connections);
    }

    /**
     * {@link #reusedRequests()} / {@link #requests()}: 1 - (connections / requests); 1.0 when nothing was requested.
     *
     * @return the ratio, 0 to 1
     */
    public double reuseRatio() {
        return requests == 0 ? 1.0 : (double) reusedRequests() / requests;
    }

    /**
     * {@return the counts since {@code earlier}: what happened between two snapshots (open stays this snapshot's)}
     *
     * @param earlier a snapshot taken before this one
     */
    public ReuseStats minus(ReuseStats earlier) {
        return new ReuseStats(connections - earlier.connections, requests - earlier.requests,
                tlsHandshakes - earlier.tlsHandshakes, tlsResumed - earlier.tlsResumed,
                bytesWritten - earlier.bytesWritten, open, List.of());
    }

    @Override
    public String toString() {
        return connections + " new connection" + (connections == 1 ? "" : "s") + " for " + requests + " request"
                + (requests == 1 ? "" : "s") + " (reuse " + String.format(java.util.Locale.ROOT, "%.2f", reuseRatio())
                + "), " + tlsHandshakes + " TLS handshake" + (tlsHandshakes == 1 ? "" : "s") + " (" + tlsResumed
                + " resumed), " + bytesWritten + " bytes written, " + open + " open";
    }
}
