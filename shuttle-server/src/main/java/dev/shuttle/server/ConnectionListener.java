package dev.shuttle.server;

import dev.shuttle.transport.tls.TlsInfo;

/**
 * Observes connection state changes, like Go's {@code http.Server.ConnState}; a lambda will do. Other events come as
 * default no-op methods: {@link #onTlsHandshake}, and HTTP/2's {@link #onGoAway}.
 *
 * <p>Rules: calls for one connection arrive in the order their events happened, never concurrently, on a thread that
 * worked on that connection: the acceptor for NEW, the connection's virtual thread, an HTTP/2 handler's thread, or
 * the thread that shut the server down or closed the connection from outside. Never while that thread holds a lock of
 * the server (an event waits until it lets go), and never on the server's shared threads, the readiness watcher's and
 * the write watchdog's: a connection the watchdog closes is reported by the writer it cut off. Calls for different
 * connections may run concurrently. Keep them quick all the same: a slow listener delays the thread that delivers
 * it. An exception thrown by a listener is logged and otherwise ignored.
 */
@FunctionalInterface
public interface ConnectionListener {
    /** The listener that ignores every event: the server's default. */
    ConnectionListener NONE = (connection, from, to) -> {
    };

    /**
     * Called once per transition listed in {@link ConnectionState}; the first call for a connection has
     * {@code from == null, to == NEW}.
     *
     * @param connection the connection that changed state
     * @param from the state it left; null for the first call
     * @param to the state it entered
     */
    void onStateChange(ConnectionInfo connection, ConnectionState from, ConnectionState to);

    /**
     * A TLS handshake completed on {@code connection} (before its first request): protocol, cipher suite, ALPN
     * protocol, whether the session was resumed, and how long the handshake took. Failed handshakes are logged (one
     * line each) and the connection closes without a call here.
     *
     * @param connection the connection whose handshake completed
     * @param tls what the handshake settled
     */
    default void onTlsHandshake(ConnectionInfo connection, TlsInfo tls) {
    }

    /**
     * The server sent GOAWAY on an HTTP/2 connection: it takes no stream above {@code goAway.lastStreamId()} and
     * will close once the others are done. In order with the connection's state changes (before its CLOSED); usually
     * after the frame left, at the earliest while it is being written.
     *
     * @param connection the HTTP/2 connection
     * @param goAway the frame's last stream id, error code and whether the client had closed first
     */
    default void onGoAway(ConnectionInfo connection, GoAwayEvent goAway) {
    }
}
