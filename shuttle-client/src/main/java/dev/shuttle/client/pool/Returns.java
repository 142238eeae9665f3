package dev.shuttle.client.pool;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Takes HTTP/1.1 connections back and puts them where they go next: a release or the end of a drain hands the
 * connection to the request that claimed the drain, else to the first waiter, else to the idle list (trimmed to its
 * limits, {@link IdleConnections}); a broken one is closed and its place offered to the waiters. Also the watcher's
 * hand-back of an idle connection, and closing: entries are marked closed and uncounted under the lock, and their
 * sockets closed after it is released ({@link #closeAll}).
 *
 * <p>{@link #release}, {@link #startDrain} and {@link #dropCheckedOut} run on the request's thread (or a drain's),
 * {@link #idleConnectionWoke} on a thread of the watcher's; each takes the pool's lock. The rest run under it.
 */
final class Returns {
    private final ConnectionPool pool;
    private final ReentrantLock lock;

    Returns(ConnectionPool pool) {
        this.pool = pool;
        this.lock = pool.lock;
    }

    /**
     * The exchange on {@code lease} is over and the rest of its body drains in the background: requests may now wait
     * for the connection. False when the pool is closed.
     */
    boolean startDrain(Lease lease, DrainProgress progress) {
        lock.lock();
        try {
            if (pool.isClosedLocked()) {
                return false;
            }
            PoolEntry entry = lease.entry;
            entry.transition(PoolEntry.State.LEASED, PoolEntry.State.DRAINING);
            entry.drain = progress;
            entry.origin.drainStartedLocked(entry);
            return true;
        } finally {
            lock.unlock();
        }
    }

    void release(Lease lease, boolean reusable) {
        List<PoolEntry> toClose;
        lock.lock();
        try {
            releaseLocked(lease, reusable, pool.closingLocked());
        } finally {
            toClose = pool.closingTakenLocked();
            lock.unlock();
        }
        closeAll(toClose);
    }

    void releaseLocked(Lease lease, boolean reusable, List<PoolEntry> toClose) {
        assert lock.isHeldByCurrentThread();
        pool.releases.incrementAndGet();
        PoolEntry entry = lease.entry;
        OriginPool origin = entry.origin;
        long now = pool.clock.getAsLong();
        origin.observePeakLocked(now);
        if (entry.connection.isMultiplexed()) {
            pool.streams.releaseLocked(entry, reusable, toClose, now);
            return;
        }
        boolean afterDrain = entry.state == PoolEntry.State.DRAINING;
        Waiter claimer = entry.claimedBy;
        if (afterDrain) {
            origin.draining.remove(entry);
            entry.transition(PoolEntry.State.DRAINING, PoolEntry.State.LEASED);
            entry.drain = null;
            entry.claimedBy = null;
            if (claimer != null) {
                claimer.awaitedDrain = null;
            }
        } else {
            origin.leased--;
        }
        if (!reusable || pool.isClosedLocked() || !entry.connection.isOpen()) {
            entry.connection.onIdle(); // its buffers go back before it closes: the releasing thread owns them
            closeLocked(entry, PoolEntry.State.LEASED, toClose);
            pool.dials.serveUncoveredLocked(origin); // also the claimer, whose drain just failed
            return;
        }
        if (claimer != null && !claimer.done) {
            origin.deliverLocked(claimer, entry, true, false);
        } else if (!origin.offerLocked(entry, false)) {
            idleLocked(origin, entry, toClose, now);
        }
    }

    /** A connection taken from the idle list failed its check: closed, and its place offered to the waiters. */
    void dropCheckedOut(PoolEntry entry) {
        List<PoolEntry> dead = new ArrayList<>(1);
        lock.lock();
        try {
            entry.origin.leased--;
            closeLocked(entry, PoolEntry.State.LEASED, dead);
            pool.dials.serveUncoveredLocked(entry.origin);
        } finally {
            lock.unlock();
        }
        closeAll(dead);
    }

    /**
     * Puts a LEASED (uncounted) entry on the idle list as idle since {@code idleSince}, then trims the idle lists to
     * their limits, and makes sure maintenance will run.
     */
    void idleLocked(OriginPool origin, PoolEntry entry, List<PoolEntry> toClose, long idleSince) {
        assert lock.isHeldByCurrentThread();
        long now = pool.clock.getAsLong();
        entry.transition(PoolEntry.State.LEASED, PoolEntry.State.IDLE);
        entry.idleSince = idleSince;
        entry.connection.onIdle();
        List<PoolEntry> evicted = pool.foundLocked();
        pool.idle.pushLocked(origin, entry, now, pool.originsLocked(), evicted);
        closeAllLocked(evicted, PoolEntry.State.IDLE, toClose);
        // A closed idle connection frees a place: a retry (it takes no used connection) may wait for one. Copied
        // out first: serving may end in another step that fills the list.
        List<PoolEntry> freed = evicted.isEmpty() ? List.of() : List.copyOf(evicted);
        evicted.clear();
        for (int i = 0; i < freed.size(); i++) {
            pool.dials.serveUncoveredLocked(freed.get(i).origin);
        }
        makeRoomForRetriesLocked(origin, toClose);
        pool.scheduleMaintenanceLocked();
    }

    /**
     * A retry takes no connection that carried a request. At {@code maxConnsPerHost} with such a connection idle it
     * would wait until one closed by itself (the idle timeout: seconds to minutes) or its call timed out: close the
     * least recently used idle connection instead, and dial for it in the freed place.
     */
    void makeRoomForRetriesLocked(OriginPool origin, List<PoolEntry> toClose) {
        assert lock.isHeldByCurrentThread();
        while (origin.total >= pool.config.maxConnsPerHost() && !origin.idle.isEmpty()
                && origin.hasUncoveredRetryLocked()) {
            closeLocked(pool.idle.pollOldestLocked(origin), PoolEntry.State.IDLE, toClose);
            pool.dials.serveUncoveredLocked(origin);
        }
    }

    /** Hands an IDLE entry to the watcher; under the lock, so a checkout sees either a watched entry or none. */
    void watchLocked(PoolEntry entry) {
        assert lock.isHeldByCurrentThread();
        entry.watched = entry.connection.watch(() -> idleConnectionWoke(entry));
    }

    /**
     * The watcher handed an idle connection back by itself: the server closed it, sent something, or (TLS) sent a
     * record without application bytes. Runs on a thread of its own. If the connection is still idle, check it: keep
     * it (watched again) when nothing is wrong, else close it now.
     */
    private void idleConnectionWoke(PoolEntry entry) {
        lock.lock();
        try {
            if (entry.state != PoolEntry.State.IDLE || !entry.watched || !pool.idle.removeLocked(entry)) {
                return; // a checkout took it, and checks it itself
            }
            entry.transition(PoolEntry.State.IDLE, PoolEntry.State.LEASED);
            entry.watched = false;
        } finally {
            lock.unlock();
        }
        boolean healthy = entry.connection.isHealthy();
        List<PoolEntry> toClose = new ArrayList<>(1);
        lock.lock();
        try {
            if (!healthy || pool.isClosedLocked()) {
                closeLocked(entry, PoolEntry.State.LEASED, toClose);
                pool.dials.serveUncoveredLocked(entry.origin);
            } else if (!entry.origin.offerLocked(entry, false)) {
                idleLocked(entry.origin, entry, toClose, entry.idleSince);
                watchLocked(entry);
            }
        } finally {
            lock.unlock();
        }
        closeAll(toClose);
    }

    void closeAllLocked(List<PoolEntry> entries, PoolEntry.State from, List<PoolEntry> toClose) {
        assert lock.isHeldByCurrentThread();
        // Indexed: these lists are empty on almost every call, and an iterator would be an allocation each time.
        for (int i = 0; i < entries.size(); i++) {
            closeLocked(entries.get(i), from, toClose);
        }
    }

    /**
     * Marks {@code entry} closed and uncounts it (the close is counted now, under the lock, so an origin's counters are
     * final when maintenance forgets it); the caller closes the sockets in {@code toClose} after unlocking.
     */
    void closeLocked(PoolEntry entry, PoolEntry.State from, List<PoolEntry> toClose) {
        assert lock.isHeldByCurrentThread();
        entry.transition(from, PoolEntry.State.CLOSED);
        entry.origin.closedLocked(entry);
        pool.stats.connectionClosed(entry.origin.origin);
        toClose.add(entry);
    }

    /** Closes the sockets of entries closed under the lock; called after releasing it. */
    static void closeAll(List<PoolEntry> entries) {
        for (int i = 0; i < entries.size(); i++) { // indexed: see closeAllLocked
            PoolEntry entry = entries.get(i);
            if (entry.watched) {
                entry.watched = false;
                entry.connection.unwatch(); // a closed channel's key would otherwise stay in the watcher for good
            }
            entry.connection.close();
        }
    }
}
