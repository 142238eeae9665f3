package dev.shuttle.client.pool;

import dev.shuttle.client.Origin;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * What the pool needs from a connection. The pool never does I/O on it while holding its lock: health checks,
 * un-watching and closes happen outside; {@link #watch} (a non-blocking hand-over) is the one call made under it.
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

    /**
     * Called when the connection enters the idle list, or is about to close after use, by the thread that used it:
     * gives back its pooled buffers. Must not block.
     */
    void onIdle();

    /**
     * The connection has been idle a while: hand its socket to the client's readiness watcher, so a server that
     * closes it (or sends anything) is noticed at once, without a thread. {@code onWake} runs, on a thread of its own,
     * when the watcher gives the socket back by itself. Must not block.
     *
     * @return false when it could not be watched (it stays as it was)
     */
    boolean watch(Runnable onWake);

    /**
     * Takes a watched connection back for use; blocks until the watcher let go of it (microseconds).
     *
     * @return true when nothing arrived meanwhile; false when the watcher saw readiness first (its {@code onWake}
     *         runs or ran): check {@link #isHealthy()} before use
     */
    boolean unwatch();

    /** Closes the socket from any thread, recording why, so a thread blocked on it can report the real cause. */
    void abort(IOException reason);

    /** Closes the socket; idempotent; may be called from any thread, unblocking a thread reading it. */
    void close();

    /**
     * Whether many exchanges share this connection at once (HTTP/2). The pool then hands out one lease per stream,
     * up to {@link #streamCapacity()}, and the connection watches itself while idle ({@link #watch} refuses).
     */
    default boolean isMultiplexed() {
        return false;
    }

    /**
     * Exchanges this connection may carry at once: 1 for HTTP/1.1; for HTTP/2 the peer's
     * SETTINGS_MAX_CONCURRENT_STREAMS; 0 once it takes no new ones (GOAWAY, failure). Non-blocking, lock-free: the
     * pool calls it under its lock.
     */
    default int streamCapacity() {
        return 1;
    }

    /**
     * The pool's callback for what a multiplexed connection notices by itself: a new stream limit, a GOAWAY, a
     * failure. The connection runs it on one of its own threads, holding none of its locks. Set once, by the pool,
     * before the connection is handed out.
     */
    default void onChange(Runnable listener) {
    }
}
