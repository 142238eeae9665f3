package dev.shuttle.client.pool;

import dev.shuttle.client.Origin;
import java.net.InetSocketAddress;

/**
 * What the pool needs from a connection. The pool never does I/O on it while holding its lock: health checks and
 * closes happen outside.
 */
public interface PooledConnection {
    /** Unique per client, increasing in dial order. */
    long id();

    Origin origin();

    InetSocketAddress localAddress();

    InetSocketAddress remoteAddress();

    /**
     * Non-blocking check before reuse: false when the socket is closed, the peer closed its side, or bytes arrived
     * that no request asked for. Called by the thread taking the connection from the idle list.
     */
    boolean isHealthy();

    /** False once closed (by us, or aborted). */
    boolean isOpen();

    /** Called when the connection enters the idle list: it gives back its read buffer. Must not block. */
    void onIdle();

    /** Closes the socket; idempotent; may be called from any thread, unblocking a thread reading it. */
    void close();
}
