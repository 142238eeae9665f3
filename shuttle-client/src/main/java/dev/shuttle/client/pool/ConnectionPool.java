package dev.shuttle.client.pool;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.DrainPolicy;
import dev.shuttle.client.HandOffDecision;
import dev.shuttle.client.HttpTimeoutException;
import dev.shuttle.client.Origin;
import dev.shuttle.client.PoolConfig;
import dev.shuttle.client.internal.Deadline;
import dev.shuttle.client.internal.StatsRecorder;
import dev.shuttle.client.internal.TaskScheduler;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Per-origin pools of HTTP/1.1 connections and of multiplexed (HTTP/2) ones.
 *
 * <p><b>Multiplexed connections</b> carry one lease per stream, up to {@link PooledConnection#streamCapacity()}: a
 * request takes a free stream on a connection already in use first, then an idle connection, then waits. Once an
 * origin is known to speak HTTP/2 (its last dial said so, or prior knowledge), waiters do not each dial: they wait
 * for the dials in flight, one per {@code expectedStreams} of them ({@link #sharedDialsCoverLocked}), and a dial that
 * completes serves as many as it has streams. A connection at its stream limit makes the next waiters dial another
 * (up to {@code maxConnsPerHost}, beyond which they queue for a free stream).
 *
 * <p><b>Checkout</b> ({@link #acquire}): take the most recently idle connection (LIFO: hot connections stay hot, the
 * rest age out). A connection idle for {@link #WATCH_AFTER_NANOS} or longer waits in the client's readiness watcher,
 * so a server that closes it is noticed when it happens and it is closed then; taking it back costs a hand-over
 * from the watcher thread, which such a connection can afford. A connection idle for less is checked with a
 * non-blocking read only for a request that could not be retried (not idempotent): for the others the retry rule
 * covers the rare server that closed within that second, and the common case costs no system call. With none idle,
 * the request becomes a {@link Waiter} and:
 * <ul>
 *   <li>if the policy allows hand-off (HTTP/1.1 origins), the hand-off rule ({@link HandOffPlanner}) decides from
 *       the origin's learned costs ({@link CostModel}): claim the draining connection expected to end first and wait
 *       for it, alone or with a spare dialed beside it; count on a spare dial already on its way; or dial. A claimed
 *       drain that overruns its estimate by a dial's time, and a first drain that outlasts a short grace, make the
 *       request dial as well (timers on the scheduler);</li>
 *   <li>otherwise it starts a dial on a virtual thread, unless the origin is at {@code maxConnsPerHost}, where it
 *       waits in FIFO order.</li>
 * </ul>
 * Whatever comes first serves it: its dial, a connection another request releases, a finished drain (Go's
 * {@code wantConn}). A dial that completes after its waiter was served goes to the next waiter or the idle list. A
 * dial counts as complete when its connection could answer: one whose origin is known to answer new connections
 * later than {@code connect()} returns is held until then if its waiter's drain is due sooner
 * ({@link #holdUntilReadyLocked}).
 *
 * <p><b>Idle sizing</b>: with {@link PoolConfig#ADAPTIVE} an origin keeps as many idle connections as its recent peak
 * concurrency ({@link PeakConcurrency}); beyond that, and beyond {@code maxIdleTotal}, the least recently used
 * idle connections are closed. Maintenance ({@link #maintain}) closes connections idle longer than
 * {@code idleTimeout}, hands those idle longer than {@link #WATCH_AFTER_NANOS} to the watcher, and forgets origins
 * with nothing left; it takes {@code now} and returns the delay to its next run, and is scheduled, always under the
 * lock, only while the pool holds idle connections, and cancelled when the pool closes.
 *
 * <p>Locking: one lock guards every origin's state. No I/O happens under it: health checks, closes and dials run
 * after it is released. Thread-safe.
 */
public final class ConnectionPool implements AutoCloseable {
    /**
     * 1 s: how long a connection sits idle before it is watched. A connection reused within a second (every busy
     * client's) never pays the hand-over to and from the watcher thread; servers close idle connections after
     * seconds at the earliest (Node 5 s, Apache httpd 5 s, nginx 75 s), and OkHttp trusts an idle connection for 10 s
     * without any check.
     */
    static final long WATCH_AFTER_NANOS = 1_000_000_000L;

    private final PoolConfig config;
    private final DrainPolicy policy;
    private final Dialer dialer;
    private final LongSupplier clock;
    private final TaskScheduler scheduler;
    private final StatsRecorder stats;
    private final long idleTimeoutNanos;

    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by lock. */
    private final Map<Route, OriginPool> origins = new HashMap<>();
    private final IdleConnections idle;
    /** Guarded by lock: the next maintenance run, or null when none is scheduled. */
    private TaskScheduler.Scheduled maintenance;
    /** Guarded by lock. Once true, always true. */
    private boolean closed;
    /**
     * Guarded by lock: waiters with a grace or overrun timer pending ({@link Waiter#graceTimer}), served or not, of
     * every origin (maintenance may forget an origin before its timers ran): close cancels them.
     */
    private final List<Waiter> graceTimed = new ArrayList<>(0);

    private final AtomicLong checkouts = new AtomicLong();
    /** Hand-off decisions: waited for a drain; dialed because the drain was expected to be slower. */
    private final AtomicLong handOffWaits = new AtomicLong();
    private final AtomicLong handOffDials = new AtomicLong();
    /** Spares: dials started beside a drain wait, and requests that waited for a spare dial already on its way. */
    private final AtomicLong spareDials = new AtomicLong();
    private final AtomicLong spareWaits = new AtomicLong();
    /** New connections held back until they could answer, because their request's drain was due sooner. */
    private final AtomicLong heldDials = new AtomicLong();
    /** Tests only, null otherwise: runs in {@link #acquire} after the look for an idle connection, before the wait. */
    volatile Runnable afterIdleLookup;
    private final AtomicLong releases = new AtomicLong();

    public ConnectionPool(PoolConfig config, DrainPolicy policy, Dialer dialer, LongSupplier clock,
                          TaskScheduler scheduler, StatsRecorder stats) {
        this.config = config;
        this.policy = policy;
        this.dialer = dialer;
        this.clock = clock;
        this.scheduler = scheduler;
        this.stats = stats;
        this.idleTimeoutNanos = config.idleTimeout().toNanos();
        this.idle = new IdleConnections(lock, config);
    }

    /**
     * Checks out a connection to {@code origin}, blocking until one is available.
     *
     * @param fresh      a retry: take only a connection that never carried a request, or on a multiplexed origin a
     *                   stream on one opened after this call ({@link #acquireRetry}, which knows the connection that
     *                   failed, also takes one opened since that)
     * @param checkIdle  check a recently idle connection before use (a request that cannot be retried)
     * @param deadline   absolute deadline on this pool's clock, or Long.MAX_VALUE
     * @throws HttpTimeoutException   (CALL) when the deadline passes first
     * @throws InterruptedIOException when interrupted while waiting
     * @throws IOException            when the dial made for this request failed, or the pool is closed
     */
    public Lease acquire(Route route, boolean fresh, boolean checkIdle, long deadline, ClientTrace trace)
            throws IOException {
        if (fresh) {
            return await(route, true, null, deadline, trace);
        }
        while (true) {
            Lease idle = takeIdle(route, checkIdle);
            if (idle != null) {
                return idle;
            }
            Runnable hook = afterIdleLookup;
            if (hook != null) {
                hook.run();
            }
            Lease lease = await(route, false, null, deadline, trace);
            if (lease != null) {
                return lease;
            }
        }
    }

    /** {@link #acquire(Route, boolean, boolean, long, ClientTrace)} of the direct route to {@code origin}. */
    public Lease acquire(Origin origin, boolean fresh, boolean checkIdle, long deadline, ClientTrace trace)
            throws IOException {
        return acquire(Route.direct(origin), fresh, checkIdle, deadline, trace);
    }

    /**
     * Checks out a connection for the retry of a request whose exchange on {@code failed}'s connection failed before
     * any response byte: only a connection that never carried a request will do, or, on a multiplexed origin, a
     * stream on a connection opened after {@code failed}'s (serial order), whether it opened before this retry came
     * or is dialed for it. Retries of the streams of a failed HTTP/2 connection, which come one by one as each stream
     * learns of the failure, so share the connection the first of them opened instead of each dialing one more.
     *
     * @param failed the lease the failed exchange ran on (released)
     * @see #acquire
     */
    public Lease acquireRetry(Route route, Lease failed, long deadline, ClientTrace trace) throws IOException {
        return await(route, true, failed, deadline, trace);
    }

    /** {@link #acquireRetry(Route, Lease, long, ClientTrace)} of the direct route to {@code origin}. */
    public Lease acquireRetry(Origin origin, Lease failed, long deadline, ClientTrace trace) throws IOException {
        return acquireRetry(Route.direct(origin), failed, deadline, trace);
    }

    /** The most recently idle healthy connection, or null. Stale ones found on the way are closed. */
    private Lease takeIdle(Route route, boolean checkIdle) throws IOException {
        while (true) {
            PoolEntry candidate;
            long idleNanos;
            boolean watched;
            List<PoolEntry> expired = new ArrayList<>(0);
            lock.lock();
            try {
                checkOpenLocked();
                OriginPool pool = originLocked(route);
                long now = clock.getAsLong();
                PoolEntry shared = pool.multiplexedWithRoom();
                if (shared != null) {
                    // A stream on a connection already in use: no health check needed, its reader is running.
                    pool.leased++;
                    pool.peak.observe(pool.busy(), now);
                    shared.streams++;
                    return newLease(shared, false, 0, false, false);
                }
                List<PoolEntry> stale = new ArrayList<>(0);
                candidate = idle.pollLocked(pool, now, stale);
                closeAllLocked(stale, PoolEntry.State.IDLE, expired);
                if (!stale.isEmpty()) {
                    serveUncoveredLocked(pool); // a retry queued at the limit may dial in a freed place
                }
                if (candidate != null && candidate.connection.isMultiplexed()) {
                    // Shared as soon as it is LEASED, so checked and leased here, under the lock (a lock-free check).
                    if (!candidate.connection.isHealthy()) {
                        closeLocked(candidate, PoolEntry.State.IDLE, expired);
                        serveUncoveredLocked(pool); // its place is free, as for the stale ones above
                        continue;
                    }
                    candidate.transition(PoolEntry.State.IDLE, PoolEntry.State.LEASED);
                    candidate.streams = 1;
                    pool.leased++;
                    pool.peak.observe(pool.busy(), now);
                    return newLease(candidate, true, now - candidate.idleSince, false, false);
                }
                if (candidate == null) {
                    idleNanos = 0;
                    watched = false;
                } else {
                    candidate.transition(PoolEntry.State.IDLE, PoolEntry.State.LEASED);
                    watched = candidate.watched;
                    candidate.watched = false;
                    pool.leased++;
                    pool.peak.observe(pool.busy(), now);
                    idleNanos = now - candidate.idleSince;
                }
            } finally {
                lock.unlock();
                closeAll(expired); // also on the early returns and the retry above
            }
            if (candidate == null) {
                return null;
            }
            boolean healthy;
            if (watched) {
                // Back from the watcher; if it saw something first (the server closed, stray bytes), look.
                healthy = candidate.connection.unwatch() || candidate.connection.isHealthy();
            } else {
                healthy = (!checkIdle && idleNanos < WATCH_AFTER_NANOS) || candidate.connection.isHealthy();
            }
            if (healthy) {
                return newLease(candidate, true, idleNanos, false, false);
            }
            // The server closed it while idle, or sent bytes nobody asked for: drop it and look again.
            List<PoolEntry> dead = new ArrayList<>(1);
            lock.lock();
            try {
                candidate.origin.leased--;
                closeLocked(candidate, PoolEntry.State.LEASED, dead);
                serveUncoveredLocked(candidate.origin);
            } finally {
                lock.unlock();
            }
            closeAll(dead);
        }
    }

    /**
     * The watcher handed an idle connection back by itself: the server closed it, sent something, or (TLS) sent a
     * record without application bytes. Runs on a thread of its own. If the connection is still idle, check it: keep
     * it (watched again) when nothing is wrong, else close it now.
     */
    private void idleConnectionWoke(PoolEntry entry) {
        lock.lock();
        try {
            if (entry.state != PoolEntry.State.IDLE || !entry.watched || !idle.removeLocked(entry)) {
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
            if (!healthy || closed) {
                closeLocked(entry, PoolEntry.State.LEASED, toClose);
                serveUncoveredLocked(entry.origin);
            } else if (!offerLocked(entry.origin, entry, false)) {
                idleLocked(entry.origin, entry, toClose, entry.idleSince);
                watchLocked(entry);
            }
        } finally {
            lock.unlock();
        }
        closeAll(toClose);
    }

    /** Hands an IDLE entry to the watcher; under the lock, so a checkout sees either a watched entry or none. */
    private void watchLocked(PoolEntry entry) {
        assert lock.isHeldByCurrentThread();
        entry.watched = entry.connection.watch(() -> idleConnectionWoke(entry));
    }

    /**
     * Queues the request and waits. Returns null, without queuing, when a connection went idle since
     * {@link #takeIdle} looked (it takes nothing from the idle list itself: a connection idle a while is checked
     * outside the lock first); the caller then looks again rather than dial beside it.
     *
     * @param failed for a retry, the lease its request failed on, if known (it may take connections newer than it)
     */
    private Lease await(Route route, boolean fresh, Lease failed, long deadline, ClientTrace trace)
            throws IOException {
        Waiter waiter;
        List<PoolEntry> toClose = new ArrayList<>(0);
        lock.lock();
        try {
            checkOpenLocked();
            OriginPool pool = originLocked(route);
            if (!fresh && !pool.idle.isEmpty()) {
                return null;
            }
            long now = clock.getAsLong();
            waiter = new Waiter(lock.newCondition(), fresh, failed != null ? failed.entry.serial + 1 : pool.opened + 1,
                    trace, deadline);
            pool.waiters.addLast(waiter);
            // Free streams on a multiplexed connection, looked for in the same hold as the decision to wait or dial:
            // one may have opened since takeIdle looked (a dial that completed in between), and a request that
            // missed it would dial a second connection beside it. Retries skip takeIdle; one takes a stream only on
            // a connection newer than the one that failed it (Waiter.accepts).
            for (int i = 0; i < pool.multiplexed.size() && !waiter.done; i++) {
                offerStreamsLocked(pool, pool.multiplexed.get(i));
            }
            HandOffDecision decision = null;
            if (!waiter.done && !fresh && policy.handOff() && !pool.knownMultiplexed
                    && !dialer.multiplexedByConfiguration(route)) {
                decision = planLocked(pool, waiter, now);
            }
            if (!waiter.done && !waiter.covered() && !sharedDialsCoverLocked(pool)) {
                startDialLocked(pool, waiter);
            }
            if (fresh && !waiter.done) {
                makeRoomForRetriesLocked(pool, toClose);
            }
            pool.peak.observe(pool.busy(), now);
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
                    closeAll(toClose);
                    toClose.clear();
                } finally {
                    lock.lock();
                }
            }
            try {
                while (!waiter.done) {
                    now = clock.getAsLong();
                    if (now >= deadline) {
                        abandonLocked(pool, waiter, toClose);
                        throw new HttpTimeoutException(HttpTimeoutException.Kind.CALL,
                                "call timed out waiting for a connection to " + route);
                    }
                    if (deadline == Deadline.NONE) {
                        waiter.ready.await();
                    } else {
                        waiter.ready.awaitNanos(deadline - now);
                    }
                }
            } catch (InterruptedException e) {
                abandonLocked(pool, waiter, toClose);
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for a connection to " + route);
            }
        } finally {
            lock.unlock();
            closeAll(toClose);
        }
        if (waiter.failure != null) {
            throw waiter.failure;
        }
        return waiter.lease;
    }

    /**
     * Applies the hand-off rule ({@link HandOffPlanner}) for a waiter of an HTTP/1.1 origin: claims the drain it
     * waits for, starts its dial, or counts it on a spare dial in flight, and returns the decision for the trace.
     */
    private HandOffDecision planLocked(OriginPool pool, Waiter waiter, long now) {
        assert lock.isHeldByCurrentThread();
        PoolEntry drain = soonestUnclaimedDrainLocked(pool, now);
        CostModel costs = pool.costs;
        long expected = drain == null ? 0 : expectedDrainLocked(costs, drain.drain, now);
        long longestRunning = 0;
        for (int i = 0; i < pool.draining.size(); i++) {
            longestRunning = Math.max(longestRunning, now - pool.draining.get(i).drain.startNanos());
        }
        long spareWait = costs.spareWaitNanos();
        HandOffDecision decision = HandOffPlanner.decide(new HandOffPlanner.Facts(drain != null, expected,
                longestRunning, costs.drainsSeen(), costs.typicalDrainNanos(), costs.lastDrainGaveUp(),
                costs.dialCostNanos(), costs.rawDialCostNanos(), spareWait, spareDialsFreeLocked(pool) > 0));
        switch (decision.kind()) {
            case DIAL -> {
                if (drain != null) {
                    handOffDials.incrementAndGet();
                }
            }
            case WAIT_FOR_DRAIN -> {
                claimLocked(drain, waiter);
                // A drain that overruns its estimate is no longer "about to end": once the overrun has cost as much as
                // a real dial (at least the spare wait), dial as well — the ski-rental bound, at most twice the better
                // choice — instead of paying up to the cap.
                long overrun = expected + Math.max(spareWait, costs.rawDialCostNanos());
                scheduleGraceLocked(pool, waiter, overrun);
            }
            case WAIT_FOR_DRAIN_AND_DIAL_SPARE -> {
                claimLocked(drain, waiter);
                spareDials.incrementAndGet();
                startDialLocked(pool, waiter); // whichever is first serves this request; the other is the spare
            }
            case WAIT_FOR_DRAIN_THEN_DIAL -> {
                claimLocked(drain, waiter);
                scheduleGraceLocked(pool, waiter, decision.spareWait().toNanos());
            }
            case WAIT_FOR_SPARE -> {
                // Not claiming the drain: a drained connection goes to the first waiter anyway, and this one is
                // first unless others queue behind a busy origin.
                waiter.awaitsSpare = true;
                spareWaits.incrementAndGet();
            }
        }
        return decision;
    }

    private void claimLocked(PoolEntry drain, Waiter waiter) {
        assert lock.isHeldByCurrentThread();
        handOffWaits.incrementAndGet();
        drain.claimedBy = waiter;
        waiter.awaitedDrain = drain;
    }

    /**
     * Expected nanoseconds until {@code progress}'s drain ends, or Long.MAX_VALUE when that is later than its time cap
     * allows (the drain will give up, so waiting for it is waiting for nothing).
     */
    private long expectedDrainLocked(CostModel costs, DrainProgress progress, long now) {
        long expected = costs.expectedDrainNanos(progress, now);
        long capLeft = policy.maxTime().toNanos() - (now - progress.startNanos());
        return expected >= capLeft ? Long.MAX_VALUE : expected;
    }

    /** The unclaimed draining connection expected to end first (a connection about to finish beats an older one). */
    private PoolEntry soonestUnclaimedDrainLocked(OriginPool pool, long now) {
        assert lock.isHeldByCurrentThread();
        PoolEntry best = null;
        long bestExpected = Long.MAX_VALUE;
        for (int i = 0; i < pool.draining.size(); i++) {
            PoolEntry entry = pool.draining.get(i);
            if (entry.claimedBy != null) {
                continue;
            }
            long expected = pool.costs.expectedDrainNanos(entry.drain, now);
            if (best == null || expected < bestExpected) {
                best = entry;
                bestExpected = expected;
            }
        }
        return best;
    }

    /**
     * Spare dials in flight that no waiting request counts on yet: dials whose own request was served by something
     * else (a drain, a release) and which will go to the first waiter or the idle list when they complete.
     */
    private int spareDialsFreeLocked(OriginPool pool) {
        assert lock.isHeldByCurrentThread();
        int ownDials = 0;
        int counting = 0;
        for (Waiter waiter : pool.waiters) {
            if (waiter.dialing) {
                ownDials++;
            }
            if (waiter.awaitsSpare) {
                counting++;
            }
        }
        return pool.dialing - ownDials - counting;
    }

    /**
     * After a dial ended (its connection went to someone, or it failed): waiters that counted on more spare dials
     * than are still in flight stop counting on them, the latest first, and dial for themselves.
     */
    private void reconcileSparesLocked(OriginPool pool) {
        assert lock.isHeldByCurrentThread();
        int excess = -spareDialsFreeLocked(pool);
        for (Iterator<Waiter> it = pool.waiters.descendingIterator(); excess > 0 && it.hasNext(); ) {
            Waiter waiter = it.next();
            if (waiter.awaitsSpare) {
                waiter.awaitsSpare = false;
                excess--;
            }
        }
        serveUncoveredLocked(pool);
    }

    /** Arms {@code waiter}'s grace or overrun timer, listed so that closing the pool cancels it. */
    private void scheduleGraceLocked(OriginPool pool, Waiter waiter, long delayNanos) {
        assert lock.isHeldByCurrentThread();
        waiter.graceTimer = scheduler.schedule(delayNanos, () -> graceOver(pool, waiter));
        graceTimed.add(waiter);
    }

    /**
     * A request waited its grace for a drain of an origin with no drain history, or its drain overran the estimate by
     * the spare wait: if nothing served it meanwhile, it dials as well (and still takes the drained connection if
     * that comes first). Runs on the scheduler's thread.
     */
    private void graceOver(OriginPool pool, Waiter waiter) {
        lock.lock();
        try {
            waiter.graceTimer = null;
            graceTimed.remove(waiter);
            if (!closed && !waiter.done && !waiter.dialing) {
                startDialLocked(pool, waiter);
            }
        } finally {
            lock.unlock();
        }
    }

    /** The waiter gives up (timeout, interrupt): leave the queue; a connection delivered meanwhile goes back. */
    private void abandonLocked(OriginPool pool, Waiter waiter, List<PoolEntry> toClose) {
        assert lock.isHeldByCurrentThread();
        if (waiter.done) {
            if (waiter.lease != null) {
                Lease lease = waiter.lease;
                waiter.lease = null;
                // Delivered just as we gave up: it is healthy and unused by us, give it to the next one.
                lease.markReleasedForAbandon();
                releaseLocked(lease, true, toClose);
            }
            return;
        }
        waiter.done = true;
        pool.waiters.remove(waiter);
        unclaimLocked(waiter);
    }

    private void unclaimLocked(Waiter waiter) {
        assert lock.isHeldByCurrentThread();
        if (waiter.awaitedDrain != null) {
            waiter.awaitedDrain.claimedBy = null;
            waiter.awaitedDrain = null;
        }
    }

    /** Starts a dial for {@code waiter} unless the origin is at its connection limit (then it waits its turn). */
    private void startDialLocked(OriginPool pool, Waiter waiter) {
        assert lock.isHeldByCurrentThread();
        if (pool.total >= config.maxConnsPerHost()) {
            return;
        }
        pool.total++;
        pool.dialing++;
        waiter.dialing = true;
        Thread.ofVirtual().name("shuttle-dial-" + pool.origin).start(() -> dial(pool, waiter));
    }

    /** After capacity freed up: dial for the first waiters that nothing is on its way for. */
    private void serveUncoveredLocked(OriginPool pool) {
        assert lock.isHeldByCurrentThread();
        for (Waiter waiter : pool.waiters) {
            if (pool.total >= config.maxConnsPerHost()) {
                return;
            }
            if (!waiter.done && !waiter.covered() && !sharedDialsCoverLocked(pool)) {
                startDialLocked(pool, waiter);
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
    private boolean sharedDialsCoverLocked(OriginPool pool) {
        assert lock.isHeldByCurrentThread();
        if (pool.dialing == 0 || !(pool.knownMultiplexed || dialer.multiplexedByConfiguration(pool.route))) {
            return false;
        }
        int relying = 0;
        for (Waiter waiter : pool.waiters) {
            if (!waiter.done && !waiter.covered()) {
                relying++;
            }
        }
        // Each dial serves its own waiter first, then up to expectedStreams - 1 others.
        return relying <= (long) pool.dialing * Math.max(0, pool.expectedStreams - 1);
    }

    /**
     * Hands free streams of a multiplexed {@code entry} (LEASED or IDLE) to waiting requests, in FIFO order, as long as
     * it has room. Waiters that accept only a never-used connection (retries) take it only if it never carried one.
     */
    private void offerStreamsLocked(OriginPool pool, PoolEntry entry) {
        assert lock.isHeldByCurrentThread();
        while (!pool.waiters.isEmpty() && entry.streams < entry.connection.streamCapacity()
                && (entry.state == PoolEntry.State.LEASED || entry.state == PoolEntry.State.IDLE)) {
            Waiter taker = null;
            for (Waiter waiter : pool.waiters) {
                if (!waiter.done && waiter.accepts(entry)) {
                    taker = waiter;
                    break;
                }
            }
            if (taker == null) {
                return;
            }
            if (entry.state == PoolEntry.State.IDLE) {
                idle.removeLocked(entry);
                entry.transition(PoolEntry.State.IDLE, PoolEntry.State.LEASED);
            }
            deliverLocked(taker, entry, false, false);
        }
    }

    /**
     * A multiplexed connection noticed something by itself (on one of its threads): a changed stream limit, a
     * GOAWAY, a failure. Waiters get the streams it can take now; one that takes no new streams is closed if it
     * carries none, or when its last one ends; waiters that counted on it get dials of their own.
     */
    private void multiplexedChanged(PoolEntry entry) {
        List<PoolEntry> toClose = new ArrayList<>(0);
        lock.lock();
        try {
            OriginPool pool = entry.origin;
            if (entry.state == PoolEntry.State.CLOSED) {
                return;
            }
            if (entry.connection.isHealthy() && !closed) {
                pool.expectedStreams = Math.max(1, entry.connection.streamCapacity());
                offerStreamsLocked(pool, entry);
            } else if (entry.state == PoolEntry.State.IDLE) {
                idle.removeLocked(entry);
                closeLocked(entry, PoolEntry.State.IDLE, toClose);
            }
            serveUncoveredLocked(pool);
        } finally {
            lock.unlock();
            closeAll(toClose);
        }
    }

    private void dial(OriginPool pool, Waiter waiter) {
        long dialStart = clock.getAsLong();
        PooledConnection connection = null;
        IOException failure = null;
        try {
            connection = dialer.dial(pool.route, waiter.deadline, waiter.trace);
        } catch (IOException e) {
            failure = e;
        } catch (RuntimeException e) {
            failure = new IOException("dial to " + pool.route + " failed", e);
        }
        List<PoolEntry> toClose = new ArrayList<>(0);
        Hold hold = null;
        lock.lock();
        try {
            hold = connection == null ? null : holdUntilReadyLocked(pool, waiter, connection, dialStart);
            if (hold == null) {
                dialEndedLocked(pool, waiter, connection, failure, dialStart, toClose);
            }
        } finally {
            lock.unlock();
            closeAll(toClose);
        }
        if (hold != null && hold.forItsRequest()) { // a spare's request was served already: nothing to tell it
            waiter.trace.dialHeld(pool.origin, Duration.ofNanos(hold.nanos()),
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
     * A new HTTP/1.1 connection is open, but its origin's new connections answer their first request only
     * {@link CostModel#passCapDialCostNanos} after the dial started (a server or proxy slow to accept, a relay, a
     * handshake {@code connect()} does not see), and its request waits while a drain is expected to end before then
     * (the drain it chose, or, if it dialed instead, the origin's drain due first): giving the request the new
     * connection now would make it wait longer than that drain. The dial therefore counts as still in flight until the
     * connection could answer, or until the drain overruns its estimate by the spare wait, whichever is first (a
     * scheduler timer); a drain that ends before serves the request, and the new connection then goes to the next
     * request or the idle list as a spare once it could answer. A dial whose request was served otherwise before it
     * returned (a drain, a release) is such a spare from the start, held until it could answer (if that is at least the
     * spare wait away): idle at once, the next request would take it and wait for the rest of the dial cost while a
     * drain or a release might serve it sooner. Where {@code connect()} is the whole cost (plain TCP, TLS) the
     * connection is ready when the dial returns and nothing is held. Two measured dials are needed: a single one may be
     * a cold first connection's, and a request held on such an overstated cost would wait for its drain where the new
     * connection could have served it at once. Returns the hold, or null if not held.
     */
    private Hold holdUntilReadyLocked(OriginPool pool, Waiter waiter, PooledConnection connection, long dialStart) {
        assert lock.isHeldByCurrentThread();
        if (closed || !policy.handOff() || connection.isMultiplexed()) {
            return null;
        }
        CostModel costs = pool.costs;
        long dialCost = costs.passCapDialCostNanos();
        if (dialCost < CostModel.MIN_DIAL_COST_NANOS || costs.drainsSeen() < CostModel.MIN_DRAIN_HISTORY) {
            return null; // not known well enough to make a request wait on it
        }
        long now = clock.getAsLong();
        long readyIn = dialCost - (now - dialStart);
        if (waiter.done) {
            return readyIn >= costs.spareWaitNanos() ? holdLocked(pool, waiter, connection, dialStart, dialCost,
                    readyIn, readyIn) : null;
        }
        // The drain it chose, or, for a request that dialed (the last drain gave up, or drains looked slower than a
        // dial), the drain of its origin due first: a drained connection goes to the first waiter that takes one.
        PoolEntry drain = waiter.awaitedDrain != null ? waiter.awaitedDrain : soonestUnclaimedDrainLocked(pool, now);
        if (drain == null) {
            return null;
        }
        long expected = expectedDrainLocked(costs, drain.drain, now);
        if (expected == Long.MAX_VALUE || expected >= readyIn) {
            return null;
        }
        return holdLocked(pool, waiter, connection, dialStart, dialCost, readyIn,
                Math.min(readyIn, expected + costs.spareWaitNanos()));
    }

    private Hold holdLocked(OriginPool pool, Waiter waiter, PooledConnection connection, long dialStart, long dialCost,
                            long readyIn, long hold) {
        HeldDial held = new HeldDial(waiter, connection, dialStart, dialStart + dialCost);
        pool.held.add(held);
        held.timer = scheduler.schedule(hold, () -> dialReady(pool, held));
        heldDials.incrementAndGet();
        return new Hold(hold, readyIn, !waiter.done);
    }

    /**
     * A held dial's waiter stops waiting for its drain (the drain overran), or its connection could answer now: the
     * dial ends as any other. If the drain served the waiter before, the connection is still held until it could
     * answer: given to the next request at once, it would make that request wait for the rest of the dial cost while a
     * drain or the idle list might serve it sooner.
     */
    private void dialReady(OriginPool pool, HeldDial held) {
        List<PoolEntry> toClose = new ArrayList<>(0);
        lock.lock();
        try {
            if (!pool.held.contains(held)) {
                return; // the pool's close ended it
            }
            long notReadyFor = held.readyAt - clock.getAsLong();
            if (held.waiter.done && notReadyFor > 0) {
                held.timer = scheduler.schedule(notReadyFor, () -> dialReady(pool, held));
                return;
            }
            pool.held.remove(held);
            dialEndedLocked(pool, held.waiter, held.connection, null, held.dialStart, toClose);
        } finally {
            lock.unlock();
            closeAll(toClose);
        }
    }

    /**
     * A dial ended, failed or with a connection ready to answer: it serves its own request if that still waits, else
     * the next waiter or the idle list.
     */
    private void dialEndedLocked(OriginPool pool, Waiter waiter, PooledConnection connection, IOException failure,
                                 long dialStart, List<PoolEntry> toClose) {
        assert lock.isHeldByCurrentThread();
        pool.dialing--;
        waiter.dialing = false;
        if (failure != null) {
            pool.total--;
            if (!waiter.done) {
                failLocked(pool, waiter, failure);
            }
            if (pool.dialing == 0 && (pool.knownMultiplexed || dialer.multiplexedByConfiguration(pool.route))) {
                // The requests that waited for this dial instead of dialing get its failure, as Go's do: a
                // burst against a dead origin fails together rather than one connect timeout after another.
                for (Waiter other : new ArrayList<>(pool.waiters)) {
                    if (!other.done && !other.covered()) {
                        failLocked(pool, other, failure);
                    }
                }
            }
            reconcileSparesLocked(pool); // serves the uncovered too
            return;
        }
        stats.connectionOpened(pool.origin);
        PoolEntry entry = new PoolEntry(connection, pool, dialStart);
        entry.serial = ++pool.opened;
        boolean multiplexed = connection.isMultiplexed();
        pool.knownMultiplexed = multiplexed;
        if (multiplexed) {
            pool.multiplexed.add(entry);
            pool.expectedStreams = Math.max(1, connection.streamCapacity());
            connection.onChange(() -> multiplexedChanged(entry));
        }
        if (closed) {
            closeLocked(entry, PoolEntry.State.LEASED, toClose);
        } else if (multiplexed) {
            if (!waiter.done) {
                deliverLocked(waiter, entry, false, true);
            }
            offerStreamsLocked(pool, entry); // the burst that waited for this dial
            if (entry.streams == 0) {
                idleLocked(pool, entry, toClose, clock.getAsLong());
            }
            serveUncoveredLocked(pool); // more waiters than it has streams: the next dial
        } else {
            if (!waiter.done) {
                deliverLocked(waiter, entry, false, true);
            } else if (!offerLocked(pool, entry, true)) {
                idleLocked(pool, entry, toClose, clock.getAsLong());
            }
            if (!pool.waiters.isEmpty()) {
                reconcileSparesLocked(pool); // a spare went to a waiter that did not count on it
            }
        }
    }

    private void failLocked(OriginPool pool, Waiter waiter, IOException failure) {
        assert lock.isHeldByCurrentThread();
        waiter.done = true;
        pool.waiters.remove(waiter);
        unclaimLocked(waiter);
        waiter.failure = failure;
        waiter.ready.signal();
    }

    /** Hands {@code entry} (state LEASED) to {@code waiter}; for a multiplexed entry, one more of its streams. */
    private void deliverLocked(Waiter waiter, PoolEntry entry, boolean afterDrain, boolean fromDial) {
        assert lock.isHeldByCurrentThread();
        OriginPool pool = entry.origin;
        pool.waiters.remove(waiter);
        unclaimLocked(waiter);
        pool.leased++;
        if (entry.connection.isMultiplexed()) {
            entry.streams++;
        }
        waiter.lease = newLease(entry, false, 0, afterDrain, fromDial && entry.uses == 0);
        waiter.done = true;
        waiter.ready.signal();
    }

    /** Offers a connection (state LEASED, not counted in leased) to the first waiter that takes it. */
    private boolean offerLocked(OriginPool pool, PoolEntry entry, boolean neverUsed) {
        assert lock.isHeldByCurrentThread();
        if (pool.waiters.isEmpty()) {
            return false; // the usual case, without an iterator
        }
        for (Waiter waiter : pool.waiters) {
            if (!waiter.done && (neverUsed || !waiter.freshOnly)) {
                deliverLocked(waiter, entry, false, false);
                return true;
            }
        }
        return false;
    }

    /** For an entry in state LEASED, whose {@code uses} only the thread handing it out touches. */
    private Lease newLease(PoolEntry entry, boolean wasIdle, long idleNanos, boolean afterDrain,
                           boolean freshFromDial) {
        boolean reused = entry.uses > 0;
        entry.uses++;
        checkouts.incrementAndGet();
        return new Lease(this, entry, reused, wasIdle, idleNanos, afterDrain, freshFromDial);
    }

    boolean startDrain(Lease lease, DrainProgress progress) {
        lock.lock();
        try {
            if (closed) {
                return false;
            }
            PoolEntry entry = lease.entry;
            entry.transition(PoolEntry.State.LEASED, PoolEntry.State.DRAINING);
            entry.origin.leased--;
            entry.drain = progress;
            entry.origin.draining.add(entry);
            return true;
        } finally {
            lock.unlock();
        }
    }

    void release(Lease lease, boolean reusable) {
        List<PoolEntry> toClose = new ArrayList<>(0);
        lock.lock();
        try {
            releaseLocked(lease, reusable, toClose);
        } finally {
            lock.unlock();
        }
        closeAll(toClose);
    }

    private void releaseLocked(Lease lease, boolean reusable, List<PoolEntry> toClose) {
        assert lock.isHeldByCurrentThread();
        releases.incrementAndGet();
        PoolEntry entry = lease.entry;
        OriginPool pool = entry.origin;
        long now = clock.getAsLong();
        pool.peak.observe(pool.busy(), now);
        if (entry.connection.isMultiplexed()) {
            releaseStreamLocked(entry, reusable, toClose, now);
            return;
        }
        boolean afterDrain = entry.state == PoolEntry.State.DRAINING;
        Waiter claimer = entry.claimedBy;
        if (afterDrain) {
            pool.draining.remove(entry);
            entry.transition(PoolEntry.State.DRAINING, PoolEntry.State.LEASED);
            entry.drain = null;
            entry.claimedBy = null;
            if (claimer != null) {
                claimer.awaitedDrain = null;
            }
        } else {
            pool.leased--;
        }
        if (!reusable || closed || !entry.connection.isOpen()) {
            entry.connection.onIdle(); // its buffers go back before it closes: the releasing thread owns them
            closeLocked(entry, PoolEntry.State.LEASED, toClose);
            serveUncoveredLocked(pool); // also the claimer, whose drain just failed
            return;
        }
        if (claimer != null && !claimer.done) {
            deliverLocked(claimer, entry, true, false);
        } else if (!offerLocked(pool, entry, false)) {
            idleLocked(pool, entry, toClose, now);
        }
    }

    /**
     * One stream of a multiplexed connection ended. Its free stream goes to a waiting request first; a connection
     * left with no stream goes idle (the connection parks itself); one that takes no new streams (GOAWAY, failure,
     * client closed) is closed when its last stream ends. {@code reusable} false means the exchange saw the
     * connection fail.
     */
    private void releaseStreamLocked(PoolEntry entry, boolean reusable, List<PoolEntry> toClose, long now) {
        assert lock.isHeldByCurrentThread();
        OriginPool pool = entry.origin;
        pool.leased--;
        entry.streams--;
        boolean usable = reusable && !closed && entry.connection.isHealthy();
        if (usable) {
            offerStreamsLocked(pool, entry);
            if (entry.streams == 0) {
                idleLocked(pool, entry, toClose, now);
            }
            return;
        }
        if (entry.streams == 0) {
            closeLocked(entry, PoolEntry.State.LEASED, toClose);
        }
        serveUncoveredLocked(pool);
    }

    /**
     * Puts a LEASED (uncounted) entry on the idle list as idle since {@code idleSince}, then trims the idle lists to
     * their limits, and makes sure maintenance will run.
     */
    private void idleLocked(OriginPool pool, PoolEntry entry, List<PoolEntry> toClose, long idleSince) {
        assert lock.isHeldByCurrentThread();
        long now = clock.getAsLong();
        entry.transition(PoolEntry.State.LEASED, PoolEntry.State.IDLE);
        entry.idleSince = idleSince;
        entry.connection.onIdle();
        List<PoolEntry> evicted = new ArrayList<>(0);
        idle.pushLocked(pool, entry, now, origins.values(), evicted);
        closeAllLocked(evicted, PoolEntry.State.IDLE, toClose);
        for (int i = 0; i < evicted.size(); i++) {
            // A closed idle connection frees a place: a retry (it takes no used connection) may wait for one.
            serveUncoveredLocked(evicted.get(i).origin);
        }
        makeRoomForRetriesLocked(pool, toClose);
        if (maintenance == null && !closed) {
            maintenance = scheduler.schedule(Math.min(WATCH_AFTER_NANOS, idleTimeoutNanos), this::runMaintenance);
        }
    }

    /**
     * A retry takes no connection that carried a request. At {@code maxConnsPerHost} with such a connection idle it
     * would wait until one closed by itself (the idle timeout: seconds to minutes) or its call timed out: close the
     * least recently used idle connection instead, and dial for it in the freed place.
     */
    private void makeRoomForRetriesLocked(OriginPool pool, List<PoolEntry> toClose) {
        assert lock.isHeldByCurrentThread();
        while (pool.total >= config.maxConnsPerHost() && !pool.idle.isEmpty() && uncoveredRetryLocked(pool)) {
            closeLocked(idle.pollOldestLocked(pool), PoolEntry.State.IDLE, toClose);
            serveUncoveredLocked(pool);
        }
    }

    private static boolean uncoveredRetryLocked(OriginPool pool) {
        for (Waiter waiter : pool.waiters) {
            if (waiter.freshOnly && !waiter.done && !waiter.covered()) {
                return true;
            }
        }
        return false;
    }

    private void closeAllLocked(List<PoolEntry> entries, PoolEntry.State from, List<PoolEntry> toClose) {
        // Indexed: these lists are empty on almost every call, and an iterator would be an allocation each time.
        for (int i = 0; i < entries.size(); i++) {
            closeLocked(entries.get(i), from, toClose);
        }
    }

    /**
     * Marks {@code entry} closed and uncounts it (the close is counted now, under the lock, so an origin's counters are
     * final when maintenance forgets it); the caller closes the sockets in {@code toClose} after unlocking.
     */
    private void closeLocked(PoolEntry entry, PoolEntry.State from, List<PoolEntry> toClose) {
        assert lock.isHeldByCurrentThread();
        entry.transition(from, PoolEntry.State.CLOSED);
        if (entry.connection.isMultiplexed()) {
            entry.origin.multiplexed.remove(entry);
        }
        entry.origin.total--;
        stats.connectionClosed(entry.origin.origin);
        toClose.add(entry);
    }

    private static void closeAll(List<PoolEntry> entries) {
        for (int i = 0; i < entries.size(); i++) { // indexed: see closeAllLocked
            PoolEntry entry = entries.get(i);
            if (entry.watched) {
                entry.watched = false;
                entry.connection.unwatch(); // a closed channel's key would otherwise stay in the watcher for good
            }
            entry.connection.close();
        }
    }

    /** The scheduled maintenance: runs {@link #maintain} and reschedules it in the same lock hold. */
    private void runMaintenance() {
        maintain(clock.getAsLong());
    }

    /**
     * Closes connections idle for {@code idleTimeout} or longer at {@code now}, hands those idle for
     * {@link #WATCH_AFTER_NANOS} to the watcher, forgets origins with nothing left, and schedules the next run. The
     * decision to run again and the schedule are made under one hold of the lock, together with the expiry, so a
     * connection that goes idle meanwhile either sees this run pending or is included in it.
     *
     * @return nanoseconds until the next run, or -1 when no connection is idle
     */
    public long maintain(long now) {
        List<PoolEntry> expired = new ArrayList<>();
        long next = -1;
        lock.lock();
        try {
            if (maintenance != null) {
                maintenance.cancel();
                maintenance = null;
            }
            if (closed) {
                return -1;
            }
            Iterator<OriginPool> it = origins.values().iterator();
            while (it.hasNext()) {
                OriginPool pool = it.next();
                List<PoolEntry> stale = new ArrayList<>(0);
                long due = idle.expireLocked(pool, now, stale);
                closeAllLocked(stale, PoolEntry.State.IDLE, expired);
                if (!stale.isEmpty()) {
                    serveUncoveredLocked(pool); // a retry queued at the limit may dial in a freed place
                }
                next = earliest(next, due);
                List<PoolEntry> toWatch = new ArrayList<>(0);
                next = earliest(next, idle.dueForWatchLocked(pool, now, WATCH_AFTER_NANOS, toWatch));
                for (int i = 0; i < toWatch.size(); i++) {
                    watchLocked(toWatch.get(i));
                }
                if (pool.isUnused() && pool.peak.allowance(now) == 0) {
                    it.remove();
                    stats.forgetOrigin(pool.origin);
                }
            }
            if (next >= 0) {
                maintenance = scheduler.schedule(next, this::runMaintenance);
            }
        } finally {
            lock.unlock();
        }
        closeAll(expired);
        return next;
    }

    private static long earliest(long a, long b) {
        return a < 0 ? b : b < 0 ? a : Math.min(a, b);
    }

    /**
     * Closes idle connections and aborts drains now, fails waiting requests, and refuses new ones. Leased connections
     * close when released. Idempotent.
     */
    @Override
    public void close() {
        List<PoolEntry> toClose = new ArrayList<>();
        List<PooledConnection> drainsToAbort = new ArrayList<>();
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            if (maintenance != null) {
                maintenance.cancel(); // a closed client must not stay reachable from the scheduler
                maintenance = null;
            }
            for (OriginPool pool : origins.values()) {
                List<PoolEntry> idleEntries = new ArrayList<>();
                idle.clearLocked(pool, idleEntries);
                closeAllLocked(idleEntries, PoolEntry.State.IDLE, toClose);
                for (PoolEntry draining : pool.draining) {
                    drainsToAbort.add(draining.connection); // its drain fails and releases it as not reusable
                }
                for (Waiter waiter : pool.waiters) {
                    waiter.done = true;
                    waiter.failure = new IOException("client closed");
                    waiter.ready.signal();
                }
                pool.waiters.clear();
                for (HeldDial held : pool.held) {
                    // Its timer would close it, but up to a dial's time later, and keep the pool reachable till then.
                    held.timer.cancel();
                    dialEndedLocked(pool, held.waiter, held.connection, null, held.dialStart, toClose);
                }
                pool.held.clear();
            }
            for (Waiter timed : graceTimed) {
                timed.graceTimer.cancel(); // it would find the pool closed, but keep it reachable till then
                timed.graceTimer = null;
            }
            graceTimed.clear();
        } finally {
            lock.unlock();
        }
        closeAll(toClose);
        drainsToAbort.forEach(PooledConnection::close);
    }

    /** A request that races the client's close gets the same IOException as those already waiting. */
    private void checkOpenLocked() throws IOException {
        if (closed) {
            throw new IOException("client closed");
        }
    }

    private OriginPool originLocked(Route route) {
        OriginPool pool = origins.get(route); // not computeIfAbsent: its capturing lambda is an allocation per call
        if (pool == null) {
            pool = new OriginPool(route, idleTimeoutNanos);
            origins.put(route, pool);
        }
        return pool;
    }

    /** Gauges per origin, for stats. */
    public Map<Origin, StatsRecorder.Gauges> gauges() {
        lock.lock();
        try {
            Map<Origin, StatsRecorder.Gauges> gauges = new HashMap<>();
            // Per origin: its direct route and its routes through proxies together.
            origins.forEach((route, pool) -> gauges.merge(route.origin(),
                    new StatsRecorder.Gauges(pool.idle.size(), pool.leased, pool.draining.size()),
                    StatsRecorder.Gauges::plus));
            return gauges;
        } finally {
            lock.unlock();
        }
    }

    /** True when no connection is leased, draining or being dialed, and no request waits: every lease settled. */
    public boolean isQuiet() {
        lock.lock();
        try {
            for (OriginPool pool : origins.values()) {
                if (pool.leased > 0 || !pool.draining.isEmpty() || pool.dialing > 0 || !pool.waiters.isEmpty()) {
                    return false;
                }
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The pool's state per origin, for diagnostics. */
    @Override
    public String toString() {
        lock.lock();
        try {
            StringBuilder text = new StringBuilder("ConnectionPool[");
            origins.forEach((route, pool) -> text.append(route).append(": total=").append(pool.total)
                    .append(" idle=").append(pool.idle.size()).append(" leased=").append(pool.leased)
                    .append(" draining=").append(pool.draining.size()).append(" dialing=").append(pool.dialing)
                    .append(" waiting=").append(pool.waiters.size()).append("; "));
            return text.append("checkouts=").append(checkouts.get()).append(" releases=").append(releases.get())
                    .append(']').toString();
        } finally {
            lock.unlock();
        }
    }

    /** One origin's counters read under one hold of the lock (for the model test of the pool). */
    record Counts(int total, int idle, int leased, int draining, int dialing, int waiting) {
    }

    /** The counters of {@code origin}, all zero when the pool does not know it (it is not created here). */
    Counts counts(Origin origin) {
        lock.lock();
        try {
            OriginPool pool = origins.get(Route.direct(origin));
            return pool == null ? new Counts(0, 0, 0, 0, 0, 0) : new Counts(pool.total, pool.idle.size(), pool.leased,
                    pool.draining.size(), pool.dialing, pool.waiters.size());
        } finally {
            lock.unlock();
        }
    }

    /** Idle connections across all origins. */
    public int idleCount() {
        lock.lock();
        try {
            return idle.countLocked();
        } finally {
            lock.unlock();
        }
    }

    /** Open connections plus dials in flight for {@code origin}. */
    public int connectionCount(Origin origin) {
        lock.lock();
        try {
            OriginPool pool = origins.get(Route.direct(origin));
            return pool == null ? 0 : pool.total;
        } finally {
            lock.unlock();
        }
    }

    /** The multiplexed connections open to {@code origin} (for tests and diagnostics). */
    public List<PooledConnection> multiplexedConnections(Origin origin) {
        lock.lock();
        try {
            OriginPool pool = origins.get(Route.direct(origin));
            List<PooledConnection> connections = new ArrayList<>();
            if (pool != null) {
                pool.multiplexed.forEach(entry -> connections.add(entry.connection));
            }
            return connections;
        } finally {
            lock.unlock();
        }
    }

    /** Requests of {@code origin} waiting for a connection right now. */
    public int waitingCount(Origin origin) {
        lock.lock();
        try {
            OriginPool pool = origins.get(Route.direct(origin));
            return pool == null ? 0 : pool.waiters.size();
        } finally {
            lock.unlock();
        }
    }

    /** The learned costs of {@code origin} (a fresh model when the pool does not know it). */
    public CostModel costs(Origin origin) {
        lock.lock();
        try {
            return originLocked(Route.direct(origin)).costs;
        } finally {
            lock.unlock();
        }
    }

    /** Leases handed out so far; equals {@link #releases()} once every exchange ended. */
    public long checkouts() {
        return checkouts.get();
    }

    /** Hand-off decisions so far: requests that waited for a draining connection. */
    public long handOffWaits() {
        return handOffWaits.get();
    }

    /** Hand-off decisions so far: requests that dialed because a drain was expected to take longer than a dial. */
    public long handOffDials() {
        return handOffDials.get();
    }

    /** Spare dials started beside a drain wait (hand-off rule, drains slow relative to requests). */
    public long spareDials() {
        return spareDials.get();
    }

    /** Requests that waited for a spare dial already on its way instead of dialing. */
    public long spareWaits() {
        return spareWaits.get();
    }

    /** New connections that counted as dialing until they could answer, since their request's drain was due first. */
    public long heldDials() {
        return heldDials.get();
    }

    public long releases() {
        return releases.get();
    }

    public boolean isClosed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }
}
