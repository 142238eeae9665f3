package dev.shuttle.server.core;

import dev.shuttle.server.ConnectionInfo;
import dev.shuttle.server.ConnectionState;
import dev.shuttle.server.GoAwayEvent;
import dev.shuttle.server.io.ByteCounts;
import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What a connection tells the outside: its listener events, in the order they happened, and its live counters. An
 * event is queued under the state lock with the transition it reports, and delivered outside it, one at a time, by
 * whichever thread working on the connection finds the queue undelivered while it holds no lock of the connection or
 * its session ({@link #lockedByCurrentThread}); a thread inside such a lock leaves them to be delivered once it lets
 * go. A slow listener delays only this connection's own threads.
 *
 * <p>A base class of {@link ServerConnection} rather than an object of its own, as {@link ParkGate} is: a parked
 * connection keeps its connection object, and every object more would cost each idle connection its header and a
 * reference.
 */
abstract class ConnectionReporting implements ConnectionInfo, ByteCounts {
    final ServerContext context;
    final long id;
    /** Application bytes received: written by the connection's current thread (through its input), read by any. */
    private volatile long bytesRead;
    /** Application bytes sent: written by one writer at a time (its output, HTTP/2's frame writer), read by any. */
    private volatile long bytesWritten;
    /** Written only by the connection's current thread; read by any. */
    private volatile long requestCount;
    /** Guards the connection's state, its park gate and these events. */
    final ReentrantLock stateLock = new ReentrantLock();
    /** Guarded by stateLock: events not yet delivered; null until the first. */
    private ArrayDeque<Runnable> events;
    /** Guarded by stateLock: a thread is delivering one. */
    private boolean dispatching;

    ConnectionReporting(ServerContext context, long id) {
        this.context = context;
        this.id = id;
    }

    @Override
    public final long id() {
        return id;
    }

    @Override
    public final void countRead(int n) {
        bytesRead += n;
    }

    /** Also called by HTTP/2's frame writer, under its write lock, for the frames it writes to the transport. */
    @Override
    public final void countWritten(int n) {
        bytesWritten += n;
    }

    /** A request's handling starts (the connection's count and the server's). */
    public final void requestStarted() {
        requestCount++;
        context.requestStarted();
    }

    @Override
    public final long bytesRead() {
        return bytesRead;
    }

    @Override
    public final long bytesWritten() {
        return bytesWritten;
    }

    @Override
    public final long requestCount() {
        return requestCount;
    }

    /** Whether the calling thread holds the state lock or a lock of the session: events wait then. */
    public abstract boolean lockedByCurrentThread();

    /** The listener's event of a transition, queued with it under the state lock. */
    final void queueStateEventLocked(ConnectionState from, ConnectionState to) {
        assert stateLock.isHeldByCurrentThread();
        if (context.registry.hasListener()) {
            queueLocked(() -> context.registry.notifyListener(this, from, to));
        }
    }

    /**
     * Queues the listener's GOAWAY event, in order with the state transitions (none once CLOSED): the caller, which
     * may hold a lock of its session, delivers it with {@link #deliverQueuedEvents()} once it let go.
     */
    public final void queueGoAway(GoAwayEvent goAway) {
        if (!context.registry.hasListener()) {
            return;
        }
        stateLock.lock();
        try {
            if (state() != ConnectionState.CLOSED) {
                queueLocked(() -> context.registry.notifyGoAway(this, goAway));
            }
        } finally {
            stateLock.unlock();
        }
    }

    /**
     * Delivers the listener events queued so far, on this thread, for a session that let go of its lock (while it
     * holds one, events wait: {@link #lockedByCurrentThread}).
     */
    public final void deliverQueuedEvents() {
        deliverEvents();
    }

    final void queueLocked(Runnable event) {
        assert stateLock.isHeldByCurrentThread();
        if (events == null) {
            events = new ArrayDeque<>(4);
        }
        events.add(event);
    }

    /** Queues an event that goes with no transition (a TLS handshake), and delivers what waits. */
    final void dispatch(Runnable event) {
        stateLock.lock();
        try {
            queueLocked(event);
        } finally {
            stateLock.unlock();
        }
        deliverEvents();
    }

    /**
     * Delivers queued events one at a time, in order; one deliverer at a time. Not while the calling thread holds the
     * state lock or a lock of the session: whoever holds it calls this again once it lets go (an outer frame of the
     * connection, the HTTP/2 writer's {@code endWrite}, the goodbye's last unlock).
     */
    final void deliverEvents() {
        if (lockedByCurrentThread()) {
            return;
        }
        while (true) {
            Runnable event;
            stateLock.lock();
            try {
                if (dispatching || events == null || events.isEmpty()) {
                    return;
                }
                dispatching = true;
                event = events.poll();
            } finally {
                stateLock.unlock();
            }
            try {
                event.run();
            } finally {
                stateLock.lock();
                try {
                    dispatching = false;
                } finally {
                    stateLock.unlock();
                }
            }
        }
    }
}
