package dev.shuttle.server.core;

import java.io.IOException;

/**
 * What a protocol (HTTP/1.1 now, HTTP/2 next) does with a connection once {@link ServerConnection} has detected it
 * and run any TLS handshake. Every method runs on the connection's virtual thread, with the connection's buffers
 * attached.
 */
public interface ProtocolSession {
    /** What the connection does when a session returns. */
    enum Next {
        /** Nothing to do: give the buffers back and wait in the readiness watcher without a thread. */
        PARK,
        /** Close the connection. */
        CLOSE
    }

    /**
     * Serves the connection from its current state (ACTIVE, with the first bytes of a request buffered) until it has
     * nothing to do or must close. {@code headDeadline} bounds the first request's head.
     */
    Next serve(long headDeadline) throws IOException;

    /** How the connection was woken while parked, when it was not by bytes: say goodbye if the protocol has one. */
    default void parkedEnd(ServerConnection.End reason) {
    }
}
