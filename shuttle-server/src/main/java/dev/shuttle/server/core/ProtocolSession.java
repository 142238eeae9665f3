package dev.shuttle.server.core;

import dev.shuttle.wire.HttpVersion;
import java.io.IOException;

/**
 * What a protocol (HTTP/1.1, HTTP/2) does with a connection once {@link ServerConnection} has detected it and run any
 * TLS handshake. {@link #serve} runs on the connection's reading thread, with the connection's buffers attached;
 * {@link #shutdown} on the thread that shuts the server down.
 */
public interface ProtocolSession {
    /** What the connection does when {@link #serve} returns. */
    enum Next {
        /** Nothing to read (the session moved the connection to IDLE): give the buffers back and park. */
        PARK,
        /** Close the connection. */
        CLOSE,
        /** The session replaced itself ({@link ServerConnection#switchTo}): serve on with the new one. */
        SWITCH
    }

    /**
     * Serves the connection from its current state (ACTIVE, with the first bytes of a request buffered) until it has
     * nothing to read or must close. {@code headDeadline} bounds the first request's head.
     */
    Next serve(long headDeadline) throws IOException;

    /**
     * After {@link #serve} returned {@link Next#PARK}, before the connection parks: work the reader kept back to run on
     * its own thread once the connection is parked (HTTP/2: the last handler its read started), or null.
     */
    default Runnable takeKeptHandler() {
        return null;
    }

    /** The protocol this session speaks (an h2c upgrade replaces the session, and the connection learns it then). */
    default HttpVersion version() {
        return HttpVersion.HTTP_1_1;
    }

    /** How long the connection may stay parked from now: the idle timeout, or longer while streams are open. */
    long idleTimeoutNanos();

    /**
     * The watcher handed the parked connection back at its deadline or because the server shuts down. Say goodbye if
     * the protocol has one (HTTP/2: GOAWAY).
     *
     * @return true when the connection must stay open to finish its streams: a reader then serves it again (without
     *         parking); false closes it
     */
    default boolean parkedEnd(ServerConnection.End reason) {
        return false;
    }

    /** Graceful shutdown began (from the shutting-down thread): HTTP/2 sends GOAWAY and closes once its streams end. */
    default void shutdown() {
    }

    /** The connection closed (from whichever thread closed it): fail what still waits on it. */
    default void closed() {
    }

    /**
     * Whether the calling thread holds a lock of this session (HTTP/2: its write lock, its goodbye's lock): the
     * connection's listener events then wait, to be delivered once the thread lets go (see
     * {@code ConnectionListener}).
     */
    default boolean lockedByCurrentThread() {
        return false;
    }

    /**
     * Whether the session still has work that must finish before the connection closes (HTTP/2: handlers that run, or
     * a goodbye under way): then the connection must not just be closed, and the session closes it itself.
     */
    default boolean hasUnfinishedWork() {
        return false;
    }
}
