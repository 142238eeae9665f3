package dev.shuttle.client.pool;

import dev.shuttle.client.Origin;
import dev.shuttle.client.internal.StatsRecorder;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One route's connections, counts and queue of waiting requests (Go's {@code wantConnQueue} with its counts): who
 * waits in what order, what covers each waiter, and handing a connection to the first waiter that takes it. An
 * origin, direct or through a proxy. Every mutable field is guarded by the pool's {@link #lock}; every method runs
 * under it, on whichever thread holds it (a request, a dial, a release, a timer).
 */
final class OriginPool {
    /**
     * Streams assumed for a multiplexed connection before its peer said otherwise: 100, the limit RFC 9113 asks
     * servers not to go below, and what Go's transport assumes before the server's SETTINGS arrive.
     */
    static final int DEFAULT_EXPECTED_STREAMS = 100;

    private final ReentrantLock lock;
    /** Makes the leases this origin hands to its waiters. */
    private final ConnectionPool owner;
    final Route route;
    /** Of {@link #route}. */
    final Origin origin;
    /** Connections along this route are HTTP/2 before any was dialed (prior knowledge; constant per route). */
    private final boolean multiplexedByConfiguration;
    final CostModel costs = new CostModel();
    final PeakConcurrency peak;

    /** Idle connections, most recently idle first (LIFO reuse; eviction takes the last). */
    final ArrayDeque<PoolEntry> idle = new ArrayDeque<>();
    /** Requests waiting for a connection, in arrival order. */
    final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    /** Connections being drained in the background. */
    final List<PoolEntry> draining = new ArrayList<>(2);
    /** Open connections (leased, idle, draining) plus dials in flight: what maxConnsPerHost bounds. */
    int total;
    /** Leases out: one per HTTP/1.1 connection in use, one per stream on multiplexed connections. */
    int leased;
    /** Dials in flight, held ones included. */
    int dialing;
    /** Dials whose connection is open but held back until it could answer; counted in {@link #dialing}. */
    final List<HeldDial> held = new ArrayList<>(0);
    /** Connections this origin's dials have opened so far: the serial of the latest ({@link PoolEntry#serial}). */
    long opened;
    /** Open multiplexed (HTTP/2) connections, LEASED or IDLE: where a request looks first for a free stream. */
    final List<PoolEntry> multiplexed = new ArrayList<>(1);
    /**
     * The origin spoke HTTP/2 on the last connection dialed to it: requests that find no free stream wait for a dial
     * in flight instead of each starting one (coalescing).
     */
    boolean knownMultiplexed;
    /** Streams the last multiplexed connection to this origin allowed: what a dial in flight is expected to carry. */
    int expectedStreams = DEFAULT_EXPECTED_STREAMS;

    OriginPool(ReentrantLock lock, ConnectionPool owner, Route route, boolean multiplexedByConfiguration,
               long idleTimeoutNanos) {
        this.lock = lock;
        this.owner = owner;
        this.route = route;
        this.origin = route.origin();
        this.multiplexedByConfiguration = multiplexedByConfiguration;
        this.peak = new PeakConcurrency(idleTimeoutNanos);
    }

    /** Concurrent demand right now: connections in use or draining, and requests still waiting. */
    int busyLocked() {
        assert lock.isHeldByCurrentThread();
        return leased + draining.size() + waiters.size();
    }

    /** Records the demand at {@code now} for the adaptive idle limit. */
    void observePeakLocked(long now) {
        assert lock.isHeldByCurrentThread();
        peak.observe(busyLocked(), now);
    }

    /** Whether this origin's connections are, or are about to be, HTTP/2: learned, or by configuration. */
    boolean speaksMultiplexedLocked() {
        assert lock.isHeldByCurrentThread();
        return knownMultiplexed || multiplexedByConfiguration;
    }

    /** Nothing open, dialing, waiting or idle: maintenance may forget the origin. */
    boolean isUnusedLocked() {
        assert lock.isHeldByCurrentThread();
        return total == 0 && waiters.isEmpty() && idle.isEmpty() && draining.isEmpty();
    }

    /** No lease out, no drain, no dial and no waiter. */
    boolean isQuietLocked() {
        assert lock.isHeldByCurrentThread();
        return leased == 0 && draining.isEmpty() && dialing == 0 && waiters.isEmpty();
    }

    // ---- counts ----

    /** A lease was handed out at {@code now} without a waiter (a checkout that found a connection or a stream). */
    void leaseTakenLocked(long now) {
        assert lock.isHeldByCurrentThread();
        leased++;
        observePeakLocked(now);
    }

    /** A dial starts: it counts against maxConnsPerHost until it fails or its connection closes. */
    void dialStartedLocked() {
        assert lock.isHeldByCurrentThread();
        total++;
        dialing++;
    }

    /** A dial ended: with a connection, which stays counted in {@link #total}, or failed. */
    void dialEndedLocked(boolean failed) {
        assert lock.isHeldByCurrentThread();
        dialing--;
        if (failed) {
            total--;
        }
    }

    /** A leased HTTP/1.1 connection starts draining: it is no longer a lease, and waiters may claim it. */
    void drainStartedLocked(PoolEntry entry) {
        assert lock.isHeldByCurrentThread();
        leased--;
        draining.add(entry);
    }

    /** {@code entry} closed (state CLOSED already): its place is free. */
    void closedLocked(PoolEntry entry) {
        assert lock.isHeldByCurrentThread();
        if (entry.connection.isMultiplexed()) {
            multiplexed.remove(entry);
        }
        total--;
    }

    // ---- waiters ----

    /** Queues {@code waiter} behind the others. */
    void queueLocked(Waiter waiter) {
        assert lock.isHeldByCurrentThread();
        waiters.addLast(waiter);
    }

    /** Hands {@code entry} (state LEASED) to {@code waiter}; for a multiplexed entry, one more of its streams. */
    void deliverLocked(Waiter waiter, PoolEntry entry, boolean afterDrain, boolean fromDial) {
        assert lock.isHeldByCurrentThread();
        waiters.remove(waiter);
        waiter.unclaim();
        leased++;
        if (entry.connection.isMultiplexed()) {
            entry.streams++;
        }
        waiter.lease = owner.newLease(entry, false, 0, afterDrain, fromDial && entry.uses == 0);
        waiter.done = true;
        waiter.ready.signal();
    }

    /** Offers a connection (state LEASED, not counted in leased) to the first waiter that takes it. */
    boolean offerLocked(PoolEntry entry, boolean neverUsed) {
        assert lock.isHeldByCurrentThread();
        if (waiters.isEmpty()) {
            return false; // the usual case, without an iterator
        }
        for (Waiter waiter : waiters) {
            if (!waiter.done && (neverUsed || !waiter.freshOnly)) {
                deliverLocked(waiter, entry, false, false);
                return true;
            }
        }
        return false;
    }

    /** The first waiting request that may take a stream of {@code entry}, or null. */
    Waiter firstAcceptingLocked(PoolEntry entry) {
        assert lock.isHeldByCurrentThread();
        for (Waiter waiter : waiters) {
            if (!waiter.done && waiter.accepts(entry)) {
                return waiter;
            }
        }
        return null;
    }

    /** Ends {@code waiter}'s wait with {@code failure}. */
    void failLocked(Waiter waiter, IOException failure) {
        assert lock.isHeldByCurrentThread();
        waiter.done = true;
        waiters.remove(waiter);
        waiter.unclaim();
        waiter.failure = failure;
        waiter.ready.signal();
    }

    /**
     * The last dial in flight to a multiplexed origin failed: the requests that waited for it instead of dialing get
     * its failure, as Go's do, so a burst against a dead origin fails together rather than one connect timeout after
     * another.
     */
    void failUncoveredLocked(IOException failure) {
        assert lock.isHeldByCurrentThread();
        if (dialing > 0 || !speaksMultiplexedLocked()) {
            return;
        }
        for (Waiter other : new ArrayList<>(waiters)) {
            if (!other.done && !other.covered()) {
                failLocked(other, failure);
            }
        }
    }

    /** The pool closed: every waiter fails with {@code failure}. */
    void failAllLocked(IOException failure) {
        assert lock.isHeldByCurrentThread();
        for (Waiter waiter : waiters) {
            waiter.done = true;
            waiter.failure = failure;
            waiter.ready.signal();
        }
        waiters.clear();
    }

    /**
     * The waiter gives up (timeout, interrupt) and leaves the queue, giving up its claim. Returns the lease delivered
     * to it just as it gave up, for the caller to take back, or null.
     */
    Lease abandonLocked(Waiter waiter) {
        assert lock.isHeldByCurrentThread();
        if (waiter.done) {
            Lease lease = waiter.lease;
            waiter.lease = null;
            return lease;
        }
        waiter.done = true;
        waiters.remove(waiter);
        waiter.unclaim();
        return null;
    }

    /** A retry (it takes no used connection) waits with nothing on its way for it. */
    boolean hasUncoveredRetryLocked() {
        assert lock.isHeldByCurrentThread();
        for (Waiter waiter : waiters) {
            if (waiter.freshOnly && !waiter.done && !waiter.covered()) {
                return true;
            }
        }
        return false;
    }

    // ---- spares and coalescing ----

    /**
     * Spare dials in flight that no waiting request counts on yet: dials whose own request was served by something
     * else (a drain, a release) and which will go to the first waiter or the idle list when they complete.
     */
    int spareDialsFreeLocked() {
        assert lock.isHeldByCurrentThread();
        int ownDials = 0;
        int counting = 0;
        for (Waiter waiter : waiters) {
            if (waiter.dialing) {
                ownDials++;
            }
            if (waiter.awaitsSpare) {
                counting++;
            }
        }
        return dialing - ownDials - counting;
    }

    /**
     * Waiters that count on more spare dials than are still in flight stop counting on them, the latest first (the
     * caller then dials for the uncovered).
     */
    void dropMissingSparesLocked() {
        assert lock.isHeldByCurrentThread();
        int excess = -spareDialsFreeLocked();
        for (Iterator<Waiter> it = waiters.descendingIterator(); excess > 0 && it.hasNext(); ) {
            Waiter waiter = it.next();
            if (waiter.awaitsSpare) {
                waiter.awaitsSpare = false;
                excess--;
            }
        }
    }

    /**
     * Coalescing: for an origin known to speak HTTP/2, whether the dials in flight are expected to carry every waiter
     * that no dial or drain of its own serves, so that a burst opens one connection (per {@code expectedStreams}
     * waiters), not one per request. Go's transport and OkHttp do the same once they know the origin is HTTP/2.
     * Retries count too: a connection a dial in flight opens is opened after they queued, so they may take it; when
     * a busy HTTP/2 connection fails, its retried streams share one new connection instead of dialing one each.
     */
    boolean sharedDialsCoverLocked() {
        assert lock.isHeldByCurrentThread();
        if (dialing == 0 || !speaksMultiplexedLocked()) {
            return false;
        }
        int relying = 0;
        for (Waiter waiter : waiters) {
            if (!waiter.done && !waiter.covered()) {
                relying++;
            }
        }
        // Each dial serves its own waiter first, then up to expectedStreams - 1 others.
        return relying <= (long) dialing * Math.max(0, expectedStreams - 1);
    }

    // ---- drains ----

    /** The unclaimed draining connection expected to end first (a connection about to finish beats an older one). */
    PoolEntry soonestUnclaimedDrainLocked(long now) {
        assert lock.isHeldByCurrentThread();
        PoolEntry best = null;
        long bestExpected = Long.MAX_VALUE;
        for (int i = 0; i < draining.size(); i++) {
            PoolEntry entry = draining.get(i);
            if (entry.claimedBy != null) {
                continue;
            }
            long expected = costs.expectedDrainNanos(entry.drain, now);
            if (best == null || expected < bestExpected) {
                best = entry;
                bestExpected = expected;
            }
        }
        return best;
    }

    /** How long the oldest drain in flight has run at {@code now}, or 0. */
    long longestRunningDrainLocked(long now) {
        assert lock.isHeldByCurrentThread();
        long longest = 0;
        for (int i = 0; i < draining.size(); i++) {
            longest = Math.max(longest, now - draining.get(i).drain.startNanos());
        }
        return longest;
    }

    /** A LEASED multiplexed connection that can take one more stream now, or null. */
    PoolEntry multiplexedWithRoomLocked() {
        assert lock.isHeldByCurrentThread();
        for (int i = 0; i < multiplexed.size(); i++) {
            PoolEntry entry = multiplexed.get(i);
            if (entry.state == PoolEntry.State.LEASED && entry.streams < entry.connection.streamCapacity()) {
                return entry;
            }
        }
        return null;
    }

    // ---- reading ----

    ConnectionPool.Counts countsLocked() {
        assert lock.isHeldByCurrentThread();
        return new ConnectionPool.Counts(total, idle.size(), leased, draining.size(), dialing, waiters.size());
    }

    StatsRecorder.Gauges gaugesLocked() {
        assert lock.isHeldByCurrentThread();
        return new StatsRecorder.Gauges(idle.size(), leased, draining.size());
    }

    /** The counts, for diagnostics; the caller holds the lock. */
    String describeLocked() {
        assert lock.isHeldByCurrentThread();
        return route + ": total=" + total + " idle=" + idle.size() + " leased=" + leased + " draining="
                + draining.size() + " dialing=" + dialing + " waiting=" + waiters.size();
    }
}
