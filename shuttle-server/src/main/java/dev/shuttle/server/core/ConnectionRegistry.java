package dev.shuttle.server.core;

import dev.shuttle.server.ConnectionInfo;
import dev.shuttle.server.ConnectionListener;
import dev.shuttle.server.ConnectionState;
import dev.shuttle.server.GoAwayEvent;
import dev.shuttle.server.ServerStats;
import dev.shuttle.transport.tls.TlsInfo;
import java.lang.System.Logger.Level;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Every open connection of one server, the counters behind {@link ServerStats}, and the listener. Connections report
 * each state transition here under their own state lock, so the gauges move in order; this class keeps the gauges,
 * wakes a shutdown waiting for the last connection to close, and calls the listener (shielding the server from its
 * exceptions) when a connection dispatches its events, outside that lock. Thread-safe.
 */
final class ConnectionRegistry {
    private static final System.Logger LOG = System.getLogger(ConnectionRegistry.class.getName());

    private final ConnectionListener listener;
    /** Null when connections are unlimited; a permit per open connection otherwise. */
    private final Semaphore connectionPermits;

    /** The open connections, by identity: a set rather than a map by id, so no connection carries a boxed key. */
    private final Set<ServerConnection> open = ConcurrentHashMap.newKeySet();
    private final LongAdder accepted = new LongAdder();
    private final LongAdder closed = new LongAdder();
    private final LongAdder requests = new LongAdder();
    /** Gauge: HTTP/2 streams registered (open, or with a handler running), over all connections. */
    private final LongAdder streams = new LongAdder();
    /** Gauges indexed by ConnectionState ordinal; CLOSED's slot stays 0. */
    private final AtomicLong[] inState = new AtomicLong[ConnectionState.values().length];

    private final ReentrantLock emptyLock = new ReentrantLock();
    /** Signalled (under emptyLock) whenever a connection closes, for shutdown's wait. */
    private final Condition connectionClosed = emptyLock.newCondition();

    ConnectionRegistry(ConnectionListener listener, int maxConnections) {
        this.listener = listener;
        this.connectionPermits = maxConnections > 0 ? new Semaphore(maxConnections) : null;
        for (int i = 0; i < inState.length; i++) {
            inState[i] = new AtomicLong();
        }
    }

    /** Blocks the acceptor while the server is at its connection limit. */
    void acquireConnectionPermit() throws InterruptedException {
        if (connectionPermits != null) {
            connectionPermits.acquire();
        }
    }

    /** Gives back a permit taken for a connection that was never registered (accept failed). */
    void releaseConnectionPermit() {
        if (connectionPermits != null) {
            connectionPermits.release();
        }
    }

    /** Called from the connection's transition to NEW (its state lock held). */
    void added(ServerConnection connection) {
        accepted.increment();
        open.add(connection);
    }

    void requestStarted() {
        requests.increment();
    }

    void streams(int delta) {
        streams.add(delta);
    }

    /** Called by a connection for each transition, while it holds its state lock; never calls the listener. */
    void transitioned(ServerConnection connection, ConnectionState from, ConnectionState to) {
        if (from != null) {
            inState[from.ordinal()].decrementAndGet();
        }
        if (to != ConnectionState.CLOSED) {
            inState[to.ordinal()].incrementAndGet();
        }
        if (to == ConnectionState.CLOSED) {
            open.remove(connection);
            closed.increment();
            releaseConnectionPermit();
        }
        if (to == ConnectionState.CLOSED) {
            emptyLock.lock();
            try {
                connectionClosed.signalAll();
            } finally {
                emptyLock.unlock();
            }
        }
    }

    /** Whether anyone listens: connections then queue their events for {@link #notifyListener}. */
    boolean hasListener() {
        return listener != ConnectionListener.NONE;
    }

    void notifyListener(ConnectionInfo connection, ConnectionState from, ConnectionState to) {
        try {
            listener.onStateChange(connection, from, to);
        } catch (Throwable t) {
            LOG.log(Level.WARNING, "connection listener threw on " + from + " -> " + to + "; ignored", t);
        }
    }

    void notifyTlsHandshake(ConnectionInfo connection, TlsInfo tls) {
        try {
            listener.onTlsHandshake(connection, tls);
        } catch (Throwable t) {
            LOG.log(Level.WARNING, "connection listener threw on a TLS handshake; ignored", t);
        }
    }

    void notifyGoAway(ConnectionInfo connection, GoAwayEvent goAway) {
        try {
            listener.onGoAway(connection, goAway);
        } catch (Throwable t) {
            LOG.log(Level.WARNING, "connection listener threw on a GOAWAY; ignored", t);
        }
    }

    Collection<ServerConnection> openConnections() {
        return open;
    }

    /**
     * Waits until every connection has closed or {@code deadlineNanos} (nanoTime) passes.
     *
     * @return true when none is open
     */
    boolean awaitAllClosed(long deadlineNanos) throws InterruptedException {
        emptyLock.lock();
        try {
            while (!open.isEmpty()) {
                long remaining = deadlineNanos - System.nanoTime();
                if (remaining <= 0) {
                    return false;
                }
                // No lost wakeup: a closing connection leaves the map before it signals under emptyLock.
                connectionClosed.await(remaining, TimeUnit.NANOSECONDS);
            }
            return true;
        } finally {
            emptyLock.unlock();
        }
    }

    ServerStats stats() {
        long active = inState[ConnectionState.ACTIVE.ordinal()].get();
        long idle = inState[ConnectionState.IDLE.ordinal()].get();
        long parked = inState[ConnectionState.PARKED.ordinal()].get();
        long fresh = inState[ConnectionState.NEW.ordinal()].get();
        return new ServerStats(accepted.sum(), fresh + active + idle + parked, active, idle, parked, closed.sum(),
                requests.sum(), streams.sum());
    }
}
