package dev.shuttle.client.pool;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Dials new connections for waiting requests, and ends each dial: a dial starts on a virtual thread of its own for a
 * waiter nothing else is on its way for, below {@code maxConnsPerHost} (beyond it the waiter keeps its place in the
 * FIFO queue). Once an origin is known to speak HTTP/2, waiters do not each dial: they count on the dials in flight,
 * one per {@code expectedStreams} of them ({@link OriginPool#sharedDialsCoverLocked}). A completed dial serves its own
 * request if that still waits, else the next waiter or the idle list; a failed one fails its request.
 *
 * <p>A dial counts as complete when its connection could answer: one whose origin is known to answer new connections
 * later than {@code connect()} returns is held until then ({@link HeldDial}) if its waiter's drain is due sooner
 * ({@link #holdUntilReadyLocked}).
 *
 * <p>{@link #dial} runs on the dial's own thread, {@link #dialReady} on the scheduler's; both take the pool's lock
 * after the dialer returned. Every other method runs under it.
 */
final class Dials {
    private final ConnectionPool pool;
    private final ReentrantLock lock;
    /** Any thread: new connections held back until they could answer, since their request's drain was due first. */
    final AtomicLong held = new AtomicLong();

    Dials(ConnectionPool pool) {
        this.pool = pool;
        this.lock = pool.lock;
    }

    /** Starts a dial for {@code waiter} unless the origin is at its connection limit (then it waits its turn). */
    void startDialLocked(OriginPool origin, Waiter waiter) {
        assert lock.isHeldByCurrentThread();
        if (origin.total >= pool.config.maxConnsPerHost()) {
            return;
        }
        origin.dialStartedLocked();
        waiter.dialing = true;
        Thread.ofVirtual().name("shuttle-dial-" + origin.origin).start(() -> dial(origin, waiter));
    }

    /** After capacity freed up: dial for the first waiters that nothing is on its way for. */
    void serveUncoveredLocked(OriginPool origin) {
        assert lock.isHeldByCurrentThread();
        for (Waiter waiter : origin.waiters) {
            if (origin.total >= pool.config.maxConnsPerHost()) {
                return;
            }
            if (!waiter.done && !waiter.covered() && !origin.sharedDialsCoverLocked()) {
                startDialLocked(origin, waiter);
            }
        }
    }

    /**
     * After a dial ended (its connection went to someone, or it failed): waiters that counted on more spare dials
     * than are still in flight stop counting on them, the latest first, and dial for themselves.
     */
    private void reconcileSparesLocked(OriginPool origin) {
        assert lock.isHeldByCurrentThread();
        origin.dropMissingSparesLocked();
        serveUncoveredLocked(origin);
    }

    /** The dial's own thread: dials, then ends the dial or holds its connection, under the lock. */
    private void dial(OriginPool origin, Waiter waiter) {
        long dialStart = pool.clock.getAsLong();
        PooledConnection connection = null;
        IOException failure = null;
        try {
            connection = pool.dialer.dial(origin.route, waiter.deadline, waiter.trace);
        } catch (IOException e) {
            failure = e;
        } catch (RuntimeException e) {
            failure = new IOException("dial to " + origin.route + " failed", e);
        }
        List<PoolEntry> toClose = new ArrayList<>(0);
        Hold hold = null;
        lock.lock();
        try {
            hold = connection == null ? null : holdUntilReadyLocked(origin, waiter, connection, dialStart);
            if (hold == null) {
                dialEndedLocked(origin, waiter, connection, failure, dialStart, toClose);
            }
        } finally {
            lock.unlock();
            Returns.closeAll(toClose);
        }
        if (hold != null && hold.forItsRequest()) { // a spare's request was served already: nothing to tell it
            waiter.trace.dialHeld(origin.origin, Duration.ofNanos(hold.nanos()),
                    Duration.ofNanos(hold.readyInNanos()));
        }
    }

    /**
     * A new connection held back: for how long at first, in how long it could answer, and whether its own request
     * still waits (else it is a spare).
     */
    private record Hold(long nanos, long readyInNanos, boolean forItsRequest) {
    }

    /**
     * Holds a new HTTP/1.1 connection whose origin's new connections answer their first request only
     * {@link CostModel#passCapDialCostNanos} after the dial started (a server or proxy slow to accept, a relay, a
     * handshake {@code connect()} does not see), while its request waits for a drain expected to end before then
     * (the drain it chose, or, if it dialed instead, the origin's drain due first): given the new connection now, the
     * request would wait longer than that drain. The dial counts as in flight until the connection could answer, or
     * until the drain overruns its estimate by the spare wait, whichever is first. A dial whose request was served
     * otherwise before it returned is a spare, held until it could answer (if that is at least the spare wait away):
     * idle at once, the next request would take it and wait for the rest of the dial cost. Where {@code connect()} is
     * the whole cost (plain TCP, TLS) nothing is held. Two measured dials are needed: a single one may be a cold first
     * connection's, and a request held on such an overstated cost would wait for its drain where the new connection
     * could have served it at once. Returns the hold, or null if not held.
     */
    private Hold holdUntilReadyLocked(OriginPool origin, Waiter waiter, PooledConnection connection, long dialStart) {
        assert lock.isHeldByCurrentThread();
        if (pool.isClosedLocked() || !pool.policy.handOff() || connection.isMultiplexed()) {
            return null;
        }
        CostModel costs = origin.costs;
        long dialCost = costs.passCapDialCostNanos();
        if (dialCost < CostModel.MIN_DIAL_COST_NANOS || costs.drainsSeen() < CostModel.MIN_DRAIN_HISTORY) {
            return null; // not known well enough to make a request wait on it
        }
        long now = pool.clock.getAsLong();
        long readyIn = dialCost - (now - dialStart);
        if (waiter.done) {
            return readyIn >= costs.spareWaitNanos() ? holdLocked(origin, waiter, connection, dialStart, dialCost,
                    readyIn, readyIn) : null;
        }
        // The drain it chose, or, for a request that dialed (the last drain gave up, or drains looked slower than a
        // dial), the drain of its origin due first: a drained connection goes to the first waiter that takes one.
        PoolEntry drain = waiter.awaitedDrain != null ? waiter.awaitedDrain : origin.soonestUnclaimedDrainLocked(now);
        if (drain == null) {
            return null;
        }
        long expected = pool.handOffs.expectedDrainLocked(costs, drain.drain, now);
        if (expected == Long.MAX_VALUE || expected >= readyIn) {
            return null;
        }
        return holdLocked(origin, waiter, connection, dialStart, dialCost, readyIn,
                Math.min(readyIn, expected + costs.spareWaitNanos()));
    }

    private Hold holdLocked(OriginPool origin, Waiter waiter, PooledConnection connection, long dialStart,
                            long dialCost, long readyIn, long hold) {
        assert lock.isHeldByCurrentThread();
        HeldDial heldDial = new HeldDial(waiter, connection, dialStart, dialStart + dialCost);
        origin.held.add(heldDial);
        heldDial.timer = pool.scheduler.schedule(hold, () -> dialReady(origin, heldDial));
        held.incrementAndGet();
        return new Hold(hold, readyIn, !waiter.done);
    }

    /**
     * A held dial's waiter stops waiting for its drain (the drain overran), or its connection could answer now: the
     * dial ends as any other. If the drain served the waiter before, the connection is still held until it could
     * answer: given to the next request at once, it would make that request wait for the rest of the dial cost while a
     * drain or the idle list might serve it sooner. Runs on the scheduler's thread.
     */
    private void dialReady(OriginPool origin, HeldDial heldDial) {
        List<PoolEntry> toClose = new ArrayList<>(0);
        lock.lock();
        try {
            if (!origin.held.contains(heldDial)) {
                return; // the pool's close ended it
            }
            long notReadyFor = heldDial.readyAt - pool.clock.getAsLong();
            if (heldDial.waiter.done && notReadyFor > 0) {
                heldDial.timer = pool.scheduler.schedule(notReadyFor, () -> dialReady(origin, heldDial));
                return;
            }
            origin.held.remove(heldDial);
            dialEndedLocked(origin, heldDial.waiter, heldDial.connection, null, heldDial.dialStart, toClose);
        } finally {
            lock.unlock();
            Returns.closeAll(toClose);
        }
    }

    /** The pool closes: its held dials end at once (closed), timers cancelled, rather than a dial's time later. */
    void endHeldLocked(OriginPool origin, List<PoolEntry> toClose) {
        assert lock.isHeldByCurrentThread();
        for (HeldDial heldDial : origin.held) {
            heldDial.timer.cancel();
            dialEndedLocked(origin, heldDial.waiter, heldDial.connection, null, heldDial.dialStart, toClose);
        }
        origin.held.clear();
    }

    /**
     * A dial ended, failed or with a connection ready to answer: it serves its own request if that still waits, else
     * the next waiter or the idle list.
     */
    private void dialEndedLocked(OriginPool origin, Waiter waiter, PooledConnection connection, IOException failure,
                                 long dialStart, List<PoolEntry> toClose) {
        assert lock.isHeldByCurrentThread();
        origin.dialEndedLocked(failure != null);
        waiter.dialing = false;
        if (failure != null) {
            if (!waiter.done) {
                origin.failLocked(waiter, failure);
            }
            origin.failUncoveredLocked(failure);
            reconcileSparesLocked(origin); // serves the uncovered too
            return;
        }
        pool.stats.connectionOpened(origin.origin);
        PoolEntry entry = new PoolEntry(connection, origin, dialStart);
        entry.serial = ++origin.opened;
        boolean multiplexed = connection.isMultiplexed();
        origin.knownMultiplexed = multiplexed;
        if (multiplexed) {
            pool.streams.addLocked(origin, entry);
        }
        if (pool.isClosedLocked()) {
            pool.returns.closeLocked(entry, PoolEntry.State.LEASED, toClose);
        } else if (multiplexed) {
            pool.streams.dialedLocked(origin, waiter, entry, toClose);
        } else {
            if (!waiter.done) {
                origin.deliverLocked(waiter, entry, false, true);
            } else if (!origin.offerLocked(entry, true)) {
                pool.returns.idleLocked(origin, entry, toClose, pool.clock.getAsLong());
            }
            if (!origin.waiters.isEmpty()) {
                reconcileSparesLocked(origin); // a spare went to a waiter that did not count on it
            }
        }
    }
}
