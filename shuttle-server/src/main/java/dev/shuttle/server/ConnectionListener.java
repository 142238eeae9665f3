package dev.shuttle.server;

/**
 * Observes connection state changes, like Go's {@code http.Server.ConnState}; a lambda will do. Later additions
 * (HTTP/2 streams) will come as default no-op methods.
 *
 * <p>Rules: calls for one connection arrive in transition order, never concurrently, and on whichever thread made the
 * transition (the acceptor, the readiness watcher, the connection's virtual thread, or the thread calling
 * shutdown); calls for different connections may run concurrently. Keep them fast and non-blocking: they run while
 * the connection's state lock is held, and the watcher thread serves every parked connection. An exception thrown by
 * a listener is logged and otherwise ignored.
 */
@FunctionalInterface
public interface ConnectionListener {
    ConnectionListener NONE = (connection, from, to) -> {
    };

    /**
     * Called once per transition listed in {@link ConnectionState}; the first call for a connection has
     * {@code from == null, to == NEW}.
     */
    void onStateChange(ConnectionInfo connection, ConnectionState from, ConnectionState to);
}
