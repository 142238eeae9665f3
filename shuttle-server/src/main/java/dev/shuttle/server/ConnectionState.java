package dev.shuttle.server;

/**
 * Where a server connection is in its life, as reported to {@link ConnectionListener} and counted in
 * {@link ServerStats}. Modelled on Go's {@code http.ConnState}, plus {@link #PARKED}.
 *
 * <pre>
 *   NEW --------> ACTIVE &lt;-----------------+
 *    |            |    ^                   | bytes arrive
 *    |            v    | request buffered  |
 *    |           IDLE -+-------------> PARKED
 *    v            v                        v
 *   CLOSED &lt;------+------------------------+     (ACTIVE -> CLOSED too)
 * </pre>
 *
 * Allowed transitions: NEW → ACTIVE | CLOSED; ACTIVE → IDLE | CLOSED; IDLE → ACTIVE | PARKED | CLOSED;
 * PARKED → ACTIVE | CLOSED. CLOSED is final. Every connection starts NEW and ends CLOSED exactly once.
 */
public enum ConnectionState {
    /**
     * Accepted, no byte of a request read yet. A new connection waits for its first bytes in the readiness watcher,
     * holding no thread, bounded by the header-read timeout.
     */
    NEW,
    /** Reading a request head, running a handler, or writing a response: one virtual thread is working on it. */
    ACTIVE,
    /**
     * A response was finished and the connection may carry another request; its thread is checking for the next
     * one. Short-lived when parking is on; with parking off, the thread waits here for the next request.
     */
    IDLE,
    /**
     * Idle keep-alive connection with no thread and no read buffer: registered with the shared readiness watcher,
     * which starts a new virtual thread when bytes arrive, or closes it at the idle timeout or on shutdown.
     */
    PARKED,
    /** Closed; final. */
    CLOSED
}
