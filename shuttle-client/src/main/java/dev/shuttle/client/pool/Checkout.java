package dev.shuttle.client.pool;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.HandOffDecision;
import dev.shuttle.client.HttpTimeoutException;
import dev.shuttle.client.internal.Deadline;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Finds a connection for one request, on the request's own thread: an idle connection or a free HTTP/2 stream, else
 * a place in its origin's queue and what to set in motion for it (a dial, a drain to wait for), then the wait.
 *
 * <p>A connection idle for {@link ConnectionPool#WATCH_AFTER_NANOS} or longer waits in the client's readiness
 * watcher, so a server that closes it is noticed when it happens; taking it back costs a hand-over from the watcher
 * thread, which such a connection can afford. A connection idle for less is checked with a non-blocking read only for
 * a request that could not be retried (not idempotent): for the others the retry rule covers the rare server that
 * closed within that second, and the common case costs no system call. Those checks run outside the pool's lock.
 */
final class Checkout {
    private final ConnectionPool pool;
    private final ReentrantLock lock;

    Checkout(ConnectionPool pool) {
        this.pool = pool;
        this.lock = pool.lock;
    }

    /** The most recently idle healthy connection, or a free stream, or null. Stale ones found on the way are closed. */
    Lease takeIdle(Route route, boolean checkIdle) throws IOException {
        while (true) {
            PoolEntry candidate;
            long idleNanos;
            boolean watched;
            List<PoolEntry> expired = List.of();
            lock.lock();
            try {
                pool.checkOpenLocked();
                OriginPool origin = pool.originLocked(route);
                long now = pool.clock.getAsLong();
                Lease stream = pool.streams.takeStreamLocked(origin, now);
                if (stream != null) {
                    return stream;
                }
                List<PoolEntry> closing = pool.closingLocked();
                List<PoolEntry> stale = pool.foundLocked();
                candidate = pool.idle.pollLocked(origin, now, stale);
                boolean anyStale = !stale.isEmpty();
                pool.returns.closeAllLocked(stale, PoolEntry.State.IDLE, closing);
                stale.clear();
                if (anyStale) {
                    pool.dials.serveUncoveredLocked(origin); // a retry queued at the limit may dial in a freed place
                }
                if (candidate != null && candidate.connection.isMultiplexed()) {
                    Lease lease = pool.streams.leaseIdleLocked(candidate, now, closing);
                    if (lease == null) {
                        continue; // it failed while idle; closed with the stale ones
                    }
                    return lease;
                }
                if (candidate == null) {
                    idleNanos = 0;
                    watched = false;
                } else {
                    candidate.transition(PoolEntry.State.IDLE, PoolEntry.State.LEASED);
                    watched = candidate.watched;
                    candidate.watched = false;
                    origin.leaseTakenLocked(now);
                    idleNanos = now - candidate.idleSince;
                }
            } finally {
                expired = pool.closingTakenLocked();
                lock.unlock();
                Returns.closeAll(expired); // also on the early returns and the retry above
            }
            if (candidate == null) {
                return null;
            }
            boolean healthy;
            if (watched) {
                // Back from the watcher; if it saw something first (the server closed, stray bytes), look.
                healthy = candidate.connection.unwatch() || candidate.connection.isHealthy();
            } else {
                healthy = (!checkIdle && idleNanos < ConnectionPool.WATCH_AFTER_NANOS)
                        || candidate.connection.isHealthy();
            }
            if (healthy) {
                return pool.newLease(candidate, true, idleNanos, false, false);
            }
            // The server closed it while idle, or sent bytes nobody asked for: drop it and look again.
            pool.returns.dropCheckedOut(candidate);
        }
    }

    /**
     * Queues the request and waits. Returns null, without queuing, when a connection went idle since
     * {@link #takeIdle} looked (it takes nothing from the idle list itself: a connection idle a while is checked
     * outside the lock first); the caller then looks again rather than dial beside it.
     *
     * @param failed for a retry, the lease its request failed on, if known (it may take connections newer than it)
     */
    Lease await(Route route, boolean fresh, Lease failed, long deadline, ClientTrace trace) throws IOException {
        Waiter waiter;
        List<PoolEntry> toClose = new ArrayList<>(0);
        lock.lock();
        try {
            pool.checkOpenLocked();
            OriginPool origin = pool.originLocked(route);
            if (!fresh && !origin.idle.isEmpty()) {
                return null;
            }
            long now = pool.clock.getAsLong();
            waiter = new Waiter(lock.newCondition(), fresh,
                    failed != null ? failed.entry.serial + 1 : origin.opened + 1, trace, deadline);
            origin.queueLocked(waiter);
            // Free streams, looked for in the same hold as the decision to wait or dial: a connection may have opened
            // since takeIdle looked (a dial that completed in between), and a request that missed it would dial a
            // second connection beside it. A retry takes a stream only on a connection newer than the one that
            // failed it (Waiter.accepts).
            pool.streams.offerAllLocked(origin, waiter);
            HandOffDecision decision = null;
            if (!waiter.done && !fresh && pool.policy.handOff() && !origin.speaksMultiplexedLocked()) {
                decision = pool.handOffs.planLocked(origin, waiter, now);
            }
            if (!waiter.done && !waiter.covered() && !origin.sharedDialsCoverLocked()) {
                pool.dials.startDialLocked(origin, waiter);
            }
            if (fresh && !waiter.done) {
                pool.returns.makeRoomForRetriesLocked(origin, toClose);
            }
            origin.observePeakLocked(now);
            boolean traced = decision != null && trace != ClientTrace.NONE;
            if (traced || !toClose.isEmpty()) {
                // Neither the trace (the caller's code) nor closing sockets (idle connections closed to make room for
                // this retry: now, not once it has its connection) runs under the pool's lock. The waiter is
                // registered, so whatever happens meanwhile is seen by the loop below.
                lock.unlock();
                try {
                    if (traced) {
                        trace.handOff(decision);
                    }
                    Returns.closeAll(toClose);
                    toClose.clear();
                } finally {
                    lock.lock();
                }
            }
            waitLocked(origin, waiter, route, toClose);
        } finally {
            lock.unlock();
            Returns.closeAll(toClose);
        }
        if (waiter.failure != null) {
            throw waiter.failure;
        }
        return waiter.lease;
    }

    /** Waits until {@code waiter} is served or failed, its deadline passes, or its thread is interrupted. */
    private void waitLocked(OriginPool origin, Waiter waiter, Route route, List<PoolEntry> toClose)
            throws IOException {
        assert lock.isHeldByCurrentThread();
        try {
            while (!waiter.done) {
                long now = pool.clock.getAsLong();
                if (now >= waiter.deadline) {
                    abandonLocked(origin, waiter, toClose);
                    throw new HttpTimeoutException(HttpTimeoutException.Kind.CALL,
                            "call timed out waiting for a connection to " + route);
                }
                if (waiter.deadline == Deadline.NONE) {
                    waiter.ready.await();
                } else {
                    waiter.ready.awaitNanos(waiter.deadline - now);
                }
            }
        } catch (InterruptedException e) {
            abandonLocked(origin, waiter, toClose);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for a connection to " + route);
        }
    }

    /** The waiter gives up (timeout, interrupt): leave the queue; a connection delivered meanwhile goes back. */
    private void abandonLocked(OriginPool origin, Waiter waiter, List<PoolEntry> toClose) {
        assert lock.isHeldByCurrentThread();
        Lease delivered = origin.abandonLocked(waiter);
        if (delivered != null) {
            // Delivered just as we gave up: it is healthy and unused by us, give it to the next one.
            delivered.markReleasedForAbandon();
            pool.returns.releaseLocked(delivered, true, toClose);
        }
    }
}
