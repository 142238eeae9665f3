package dev.shuttle.lab.clients;

import java.io.IOException;
import java.net.URI;
import java.util.Map;

/**
 * One HTTP client under test, used the way its documentation tells users to. One instance is one pool: the lab
 * makes a fresh one per measured cell so that cells never lend each other connections.
 *
 * <p>Calls are made from one thread at a time except in the pool experiment, where adapters must be safe for
 * concurrent calls (every client measured here is).
 */
public interface LabClient extends AutoCloseable {

    /** The command-line name of this client. */
    ClientKind kind();

    /** Sends {@code GET uri} over HTTP/1.1, uses the body as {@code use} says, and closes it. */
    CallResult call(URI uri, BodyUse use) throws IOException;

    /**
     * Connections this client opened so far, from its own trace hook, or -1 when the client has no such hook
     * (the JDK client). The lab's own figures come from the fixture server; this is for {@code probe}, where the
     * server is not ours.
     */
    default long connectionsOpened() {
        return -1;
    }

    /**
     * The client's own account of what happened (Shuttle only: reuse, drain outcomes, bytes discarded), as plain
     * values for the JSON report; empty for clients that keep no such account.
     */
    default Map<String, Object> ownView() {
        return Map.of();
    }

    /** Releases the pool and any threads; never throws. */
    @Override
    void close();
}
