package dev.shuttle.client.pool;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.DrainPolicy;
import dev.shuttle.client.Origin;
import dev.shuttle.client.PoolConfig;
import dev.shuttle.client.internal.StatsRecorder;
import dev.shuttle.client.internal.TaskScheduler;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The client's per-route pools of HTTP/1.1 and HTTP/2 connections: the public API (checkout, stats), maintenance
 * and close, around the one lock that guards every route's state. The work is done beside it, one job per class,
 * all under the same lock:
 * <ul>
 *   <li>{@link Checkout}: a request takes an idle connection or a free stream, else queues and waits;</li>
 *   <li>{@link OriginPool}: one route's counts and its FIFO queue of {@link Waiter}s (Go's {@code wantConnQueue});</li>
 *   <li>{@link HandOffs}: applies the hand-off rule ({@link HandOffPlanner}, pure) for HTTP/1.1 origins: wait for a
 *       draining connection, dial, or both, with grace and overrun timers;</li>
 *   <li>{@link Dials}: dials on virtual threads, coalesced for HTTP/2 origins, and new connections held back until
 *       they could answer ({@link HeldDial});</li>
 *   <li>{@link StreamLeases}: one lease per stream on HTTP/2 connections;</li>
 *   <li>{@link Returns}: releases, drains, the idle lists ({@link IdleConnections}), the readiness watcher,
 *       closing.</li>
 * </ul>
 * Whatever comes first serves a waiting request: its dial, a connection another request releases, a finished drain
 * (Go's {@code wantConn}). Maintenance ({@link #maintain}) closes connections idle longer than {@code idleTimeout},
 * hands those idle longer than {@link #WATCH_AFTER_NANOS} to the watcher, and forgets routes with nothing left; it
 * takes {@code now}, returns the delay to its next run, and is scheduled only while connections are idle.
 *
 * <p>Locking: no I/O under {@link #lock}: health checks, closes, dials and traces run after it is released.
 * Thread-safe.
 */
public final class ConnectionPool implements AutoCloseable {
    /**
     * 1 s: how long a connection sits idle before it is watched. A connection reused within a second (every busy
     * client's) never pays the hand-over to and from the watcher thread; servers close idle connections after
     * seconds at the earliest (Node 5 s, Apache httpd 5 s, nginx 75 s), and OkHttp trusts an idle connection for 10 s
     * without any check.
     */
    static final long WATCH_AFTER_NANOS = 1_000_000_000L;

    final PoolConfig config;
    final DrainPolicy policy;
    final Dialer dialer;
    final LongSupplier clock;
    final TaskScheduler scheduler;
    final StatsRecorder stats;
    private final long idleTimeoutNanos;

    /** Guards every route's state, the idle lists and this class's mutable fields. */
    final ReentrantLock lock = new ReentrantLock();
    /** Guarded by lock. */
    private final Map<Route, OriginPool> origins = new HashMap<>();
    /** Guarded by lock. */
    final IdleConnections idle;
    final Checkout checkout;
    final HandOffs handOffs;
    final Dials dials;
    final StreamLeases streams;
    final Returns returns;
    /**
     * Guarded by lock: lists a hold fills and empties before it ends (entries to close after the hold, and entries an
     * idle list gave up), reused because almost every hold finds none and each request makes several holds.
     */
    private final List<PoolEntry> closing = new ArrayList<>();
    private final List<PoolEntry> found = new ArrayList<>();
    /** Guarded by lock: the next maintenance run, or null when none is scheduled. */
    private TaskScheduler.Scheduled maintenance;
    /** Guarded by lock. Once true, always true. */
    private boolean closed;

    /** Any thread: leases handed out. */
    private final AtomicLong checkouts = new AtomicLong();
    /** Any thread: leases given back. */
    final AtomicLong releases = new AtomicLong();
    /** Tests only, null otherwise: runs in {@link #acquire} after the look for an idle connection, before the wait. */
    volatile Runnable afterIdleLookup;

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
        this.checkout = new Checkout(this);
        this.handOffs = new HandOffs(this);
        this.dials = new Dials(this);
        this.streams = new StreamLeases(this);
        this.returns = new Returns(this);
    }

    /**
     * The hold's list of entries to close after it, empty, until {@link #closingTakenLocked} ends the hold's use.
     * Only the outermost hold uses it: a nested one would hand out a list its caller is filling.
     */
    List<PoolEntry> closingLocked() {
        assert lock.getHoldCount() == 1 && closing.isEmpty();
        return closing;
    }

    /** Empties the hold's list of entries to close: a copy of what it held (none allocated when empty). */
    List<PoolEntry> closingTakenLocked() {
        assert lock.isHeldByCurrentThread();
        if (closing.isEmpty()) {
            return List.of();
        }
        List<PoolEntry> taken = List.copyOf(closing);
        closing.clear();
        return taken;
    }

    /** A list for entries an idle list gives up within one step of a hold; the caller clears it before the step ends. */
    List<PoolEntry> foundLocked() {
        assert lock.isHeldByCurrentThread() && found.isEmpty();
        return found;
    }

    /**
     * Checks out a connection to {@code route}, blocking until one is available: the most recently idle connection
     * (LIFO: hot connections stay hot, the rest age out) or a free stream, else whatever serves the request first.
     *
     * @param fresh      a retry: take only a connection that never carried a request, or on a multiplexed origin a
     *                   stream on one opened after this call ({@link #acquireRetry}, which knows the connection that
     *                   failed, also takes one opened since that)
     * @param checkIdle  check a recently idle connection before use (a request that cannot be retried)
     * @param deadline   absolute deadline on this pool's clock, or Long.MAX_VALUE
     * @throws dev.shuttle.client.HttpTimeoutException (CALL) when the deadline passes first
     * @throws java.io.InterruptedIOException          when interrupted while waiting
     * @throws IOException                             when the dial made for this request failed, or the pool is closed
     */
    public Lease acquire(Route route, boolean fresh, boolean checkIdle, long deadline, ClientTrace trace)
            throws IOException {
        if (fresh) {
            return checkout.await(route, true, null, deadline, trace);
        }
        while (true) {
            Lease idleLease = checkout.takeIdle(route, checkIdle);
            if (idleLease != null) {
                return idleLease;
            }
            Runnable hook = afterIdleLookup;
            if (hook != null) {
                hook.run();
            }
            Lease lease = checkout.await(route, false, null, deadline, trace);
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
        return checkout.await(route, true, failed, deadline, trace);
    }

    /** {@link #acquireRetry(Route, Lease, long, ClientTrace)} of the direct route to {@code origin}. */
    public Lease acquireRetry(Origin origin, Lease failed, long deadline, ClientTrace trace) throws IOException {
        return acquireRetry(Route.direct(origin), failed, deadline, trace);
    }

    boolean startDrain(Lease lease, DrainProgress progress) {
        return returns.startDrain(lease, progress);
    }

    void release(Lease lease, boolean reusable) {
        returns.release(lease, reusable);
    }

    /** For an entry in state LEASED, whose {@code uses} only the thread handing it out touches. */
    Lease newLease(PoolEntry entry, boolean wasIdle, long idleNanos, boolean afterDrain, boolean freshFromDial) {
        boolean reused = entry.uses > 0;
        entry.uses++;
        checkouts.incrementAndGet();
        return new Lease(this, entry, reused, wasIdle, idleNanos, afterDrain, freshFromDial);
    }

    // ---- maintenance ----

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
                returns.closeAllLocked(stale, PoolEntry.State.IDLE, expired);
                if (!stale.isEmpty()) {
                    dials.serveUncoveredLocked(pool); // a retry queued at the limit may dial in a freed place
                }
                next = earliest(next, due);
                List<PoolEntry> toWatch = new ArrayList<>(0);
                next = earliest(next, idle.dueForWatchLocked(pool, now, WATCH_AFTER_NANOS, toWatch));
                for (int i = 0; i < toWatch.size(); i++) {
                    returns.watchLocked(toWatch.get(i));
                }
                if (pool.isUnusedLocked() && pool.peak.allowance(now) == 0) {
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
        Returns.closeAll(expired);
        return next;
    }

    /** The scheduled maintenance: runs {@link #maintain} and reschedules it in the same lock hold. */
    private void runMaintenance() {
        maintain(clock.getAsLong());
    }

    /** A connection went idle: makes sure maintenance will run (once a connection could be watched or expire). */
    void scheduleMaintenanceLocked() {
        assert lock.isHeldByCurrentThread();
        if (maintenance == null && !closed) {
            maintenance = scheduler.schedule(Math.min(WATCH_AFTER_NANOS, idleTimeoutNanos), this::runMaintenance);
        }
    }

    private static long earliest(long a, long b) {
        return a < 0 ? b : b < 0 ? a : Math.min(a, b);
    }

    /**
     * Closes idle connections and aborts drains now, fails waiting requests, cancels every timer, and refuses new
     * requests. Leased connections close when released. Idempotent.
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
            IOException failure = new IOException("client closed");
            for (OriginPool pool : origins.values()) {
                List<PoolEntry> idleEntries = new ArrayList<>();
                idle.clearLocked(pool, idleEntries);
                returns.closeAllLocked(idleEntries, PoolEntry.State.IDLE, toClose);
                for (PoolEntry draining : pool.draining) {
                    drainsToAbort.add(draining.connection); // its drain fails and releases it as not reusable
                }
                pool.failAllLocked(failure);
                dials.endHeldLocked(pool, toClose);
            }
            handOffs.cancelTimersLocked();
        } finally {
            lock.unlock();
        }
        Returns.closeAll(toClose);
        drainsToAbort.forEach(PooledConnection::close);
    }

    boolean isClosedLocked() {
        assert lock.isHeldByCurrentThread();
        return closed;
    }

    /** A request that races the client's close gets the same IOException as those already waiting. */
    void checkOpenLocked() throws IOException {
        assert lock.isHeldByCurrentThread();
        if (closed) {
            throw new IOException("client closed");
        }
    }

    OriginPool originLocked(Route route) {
        assert lock.isHeldByCurrentThread();
        OriginPool pool = origins.get(route); // not computeIfAbsent: its capturing lambda is an allocation per call
        if (pool == null) {
            pool = new OriginPool(lock, this, route, dialer.multiplexedByConfiguration(route), idleTimeoutNanos);
            origins.put(route, pool);
        }
        return pool;
    }

    /** Every route's pool; the caller holds the lock (for the total idle limit). */
    Collection<OriginPool> originsLocked() {
        assert lock.isHeldByCurrentThread();
        return origins.values();
    }

    // ---- reading ----

    /** Gauges per origin, for stats. */
    public Map<Origin, StatsRecorder.Gauges> gauges() {
        lock.lock();
        try {
            Map<Origin, StatsRecorder.Gauges> gauges = new HashMap<>();
            // Per origin: its direct route and its routes through proxies together.
            origins.forEach((route, pool) -> gauges.merge(route.origin(), pool.gaugesLocked(),
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
                if (!pool.isQuietLocked()) {
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
            origins.values().forEach(pool -> text.append(pool.describeLocked()).append("; "));
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
        return readDirect(origin, OriginPool::countsLocked, new Counts(0, 0, 0, 0, 0, 0));
    }

    /** {@code read} of {@code origin}'s direct route under the lock; {@code absent} when the pool does not know it. */
    private <T> T readDirect(Origin origin, Function<OriginPool, T> read, T absent) {
        lock.lock();
        try {
            OriginPool pool = origins.get(Route.direct(origin));
            return pool == null ? absent : read.apply(pool);
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
        return readDirect(origin, pool -> pool.total, 0);
    }

    /** The multiplexed connections open to {@code origin} (for tests and diagnostics). */
    public List<PooledConnection> multiplexedConnections(Origin origin) {
        return readDirect(origin, pool -> {
            List<PooledConnection> connections = new ArrayList<>();
            pool.multiplexed.forEach(entry -> connections.add(entry.connection));
            return connections;
        }, new ArrayList<>());
    }

    /** Requests of {@code origin} waiting for a connection right now. */
    public int waitingCount(Origin origin) {
        return readDirect(origin, pool -> pool.waiters.size(), 0);
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
        return handOffs.waits.get();
    }

    /** Hand-off decisions so far: requests that dialed because a drain was expected to take longer than a dial. */
    public long handOffDials() {
        return handOffs.dials.get();
    }

    /** Spare dials started beside a drain wait (hand-off rule, drains slow relative to requests). */
    public long spareDials() {
        return handOffs.spareDials.get();
    }

    /** Requests that waited for a spare dial already on its way instead of dialing. */
    public long spareWaits() {
        return handOffs.spareWaits.get();
    }

    /** New connections that counted as dialing until they could answer, since their request's drain was due first. */
    public long heldDials() {
        return dials.held.get();
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
