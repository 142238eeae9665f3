package dev.shuttle.lab.reuse;

import dev.shuttle.lab.clients.ClientKind;
import java.util.Map;

/**
 * One round of one cell: a fresh client making {@code requests} sequential calls for one case.
 *
 * @param newConnections connections the fixture accepted during the cell
 * @param serverBytes    bytes the fixture wrote to those connections (heads included), counted once they closed;
 *                       against a peer server, the bytes the relay passed on to the client (TLS records included)
 * @param tlsHandshakes  TLS handshakes the fixture completed during the cell (0 over plaintext, -1 against a peer
 *                       server, which does not say); fewer than
 *                       {@code newConnections} only when some connection closed before its handshake ended
 * @param tlsResumed     of those, handshakes that resumed an earlier session of the same client
 * @param goAways        GOAWAY frames the fixture sent while the client still wanted its connection (before the client
 *                       closed or sent a GOAWAY of its own); -1 when not reported (HTTP/1.1 runs, peer servers)
 * @param wallNanos      time for all the cell's calls, from the first send to the last close
 * @param p50Nanos       median time of one call (send to body closed)
 * @param p99Nanos       99th percentile of one call
 * @param errors         calls that failed (they still count in the wall time)
 * @param firstError     the first failure's message, or null
 * @param ownView        the client's own account (Shuttle: reuse and drain outcomes), empty for peers
 */
public record CellMeasurement(ClientKind client, ReuseCase reuseCase, int round, int requests, long newConnections,
                              long serverBytes, long tlsHandshakes, long tlsResumed, long goAways, long wallNanos,
                              long p50Nanos, long p99Nanos, int errors,
                              String firstError, Map<String, Object> ownView) {
}
