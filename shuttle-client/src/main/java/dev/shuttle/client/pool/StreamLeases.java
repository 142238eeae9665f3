package dev.shuttle.client.pool;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Leases streams of multiplexed (HTTP/2) connections: one lease per stream, up to
 * {@link PooledConnection#streamCapacity()}. A request takes a free stream on a connection already in use first, then
 * an idle connection, then waits; a connection's free streams go to waiting requests in FIFO order when it opens,
 * when a stream ends and when its limit grows. A connection carrying no stream is IDLE (the connection parks itself);
 * one that takes no new streams (GOAWAY, failure) closes when its last stream ends.
 *
 * <p>Every method but {@link #changed} runs under the pool's lock, on the thread that holds it; {@link #changed} runs
 * on one of the connection's threads and takes the lock itself. The connection's health and capacity are read under
 * the lock: both are lock-free reads of its state.
 */
final class StreamLeases {
    private final ConnectionPool pool;
    private final ReentrantLock lock;

    StreamLeases(ConnectionPool pool) {
        this.pool = pool;
        this.lock = pool.lock;
    }

    /** A stream on a connection already in use, or null. No health check: its reader is running. */
    Lease takeStreamLocked(OriginPool origin, long now) {
        assert lock.isHeldByCurrentThread();
        PoolEntry shared = origin.multiplexedWithRoomLocked();
        if (shared == null) {
            return null;
        }
        origin.leaseTakenLocked(now);
        shared.streams++;
        return pool.newLease(shared, false, 0, false, false);
    }

    /**
     * A stream on {@code candidate}, an idle multiplexed connection just taken off the idle list: checked and leased
     * here, under the lock, since it is shared as soon as it is LEASED (the check is lock-free). Returns null when it
     * failed while idle: then it is closed (into {@code toClose}) and its place offered to the waiters.
     */
    Lease leaseIdleLocked(PoolEntry candidate, long now, List<PoolEntry> toClose) {
        assert lock.isHeldByCurrentThread();
        OriginPool origin = candidate.origin;
        if (!candidate.connection.isHealthy()) {
            pool.returns.closeLocked(candidate, PoolEntry.State.IDLE, toClose);
            pool.dials.serveUncoveredLocked(origin); // its place is free
            return null;
        }
        candidate.transition(PoolEntry.State.IDLE, PoolEntry.State.LEASED);
        candidate.streams = 1;
        origin.leaseTakenLocked(now);
        return pool.newLease(candidate, true, now - candidate.idleSince, false, false);
    }

    /** Offers the free streams of every multiplexed connection of {@code origin} until {@code waiter} is served. */
    void offerAllLocked(OriginPool origin, Waiter waiter) {
        assert lock.isHeldByCurrentThread();
        for (int i = 0; i < origin.multiplexed.size() && !waiter.done; i++) {
            offerLocked(origin, origin.multiplexed.get(i));
        }
    }

    /**
     * Hands free streams of a multiplexed {@code entry} (LEASED or IDLE) to waiting requests, in FIFO order, as long as
     * it has room. Waiters that accept only a never-used connection (retries) take it only if it never carried one.
     */
    void offerLocked(OriginPool origin, PoolEntry entry) {
        assert lock.isHeldByCurrentThread();
        while (!origin.waiters.isEmpty() && entry.streams < entry.connection.streamCapacity()
                && (entry.state == PoolEntry.State.LEASED || entry.state == PoolEntry.State.IDLE)) {
            Waiter taker = origin.firstAcceptingLocked(entry);
            if (taker == null) {
                return;
            }
            if (entry.state == PoolEntry.State.IDLE) {
                pool.idle.removeLocked(entry);
                entry.transition(PoolEntry.State.IDLE, PoolEntry.State.LEASED);
            }
            origin.deliverLocked(taker, entry, false, false);
        }
    }

    /**
     * A dial opened a multiplexed connection ({@code entry}, LEASED, counted): it serves its own waiter if that still
     * waits, then the burst that waited for it; with no stream taken it goes idle; waiters beyond its streams dial.
     */
    void dialedLocked(OriginPool origin, Waiter waiter, PoolEntry entry, List<PoolEntry> toClose) {
        assert lock.isHeldByCurrentThread();
        if (!waiter.done) {
            origin.deliverLocked(waiter, entry, false, true);
        }
        offerLocked(origin, entry); // the burst that waited for this dial
        if (entry.streams == 0) {
            pool.returns.idleLocked(origin, entry, toClose, pool.clock.getAsLong());
        }
        pool.dials.serveUncoveredLocked(origin); // more waiters than it has streams: the next dial
    }

    /** Lists a new multiplexed connection of its origin and listens to what it notices by itself. */
    void addLocked(OriginPool origin, PoolEntry entry) {
        assert lock.isHeldByCurrentThread();
        origin.multiplexed.add(entry);
        origin.expectedStreams = Math.max(1, entry.connection.streamCapacity());
        entry.connection.onChange(() -> changed(entry));
    }

    /**
     * A multiplexed connection noticed something by itself (on one of its threads): a changed stream limit, a
     * GOAWAY, a failure. Waiters get the streams it can take now; one that takes no new streams is closed if it
     * carries none, or when its last one ends; waiters that counted on it get dials of their own.
     */
    private void changed(PoolEntry entry) {
        List<PoolEntry> toClose = new ArrayList<>(0);
        lock.lock();
        try {
            OriginPool origin = entry.origin;
            if (entry.state == PoolEntry.State.CLOSED) {
                return;
            }
            if (entry.connection.isHealthy() && !pool.isClosedLocked()) {
                origin.expectedStreams = Math.max(1, entry.connection.streamCapacity());
                offerLocked(origin, entry);
            } else if (entry.state == PoolEntry.State.IDLE) {
                pool.idle.removeLocked(entry);
                pool.returns.closeLocked(entry, PoolEntry.State.IDLE, toClose);
            }
            pool.dials.serveUncoveredLocked(origin);
        } finally {
            lock.unlock();
            Returns.closeAll(toClose);
        }
    }

    /**
     * One stream of a multiplexed connection ended. Its free stream goes to a waiting request first; a connection
     * left with no stream goes idle; one that takes no new streams (GOAWAY, failure, client closed) is closed when its
     * last stream ends. {@code reusable} false means the exchange saw the connection fail.
     */
    void releaseLocked(PoolEntry entry, boolean reusable, List<PoolEntry> toClose, long now) {
        assert lock.isHeldByCurrentThread();
        OriginPool origin = entry.origin;
        origin.leased--;
        entry.streams--;
        boolean usable = reusable && !pool.isClosedLocked() && entry.connection.isHealthy();
        if (usable) {
            offerLocked(origin, entry);
            if (entry.streams == 0) {
                pool.returns.idleLocked(origin, entry, toClose, now);
            }
            return;
        }
        if (entry.streams == 0) {
            pool.returns.closeLocked(entry, PoolEntry.State.LEASED, toClose);
        }
        pool.dials.serveUncoveredLocked(origin);
    }
}
