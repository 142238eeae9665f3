package dev.shuttle.client.pool;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;

/**
 * What {@link ConnectionPool} should do with one HTTP/1.1 origin, written from its documented rules (ARCHITECTURE.md,
 * the class comments) as plain single-threaded bookkeeping: LIFO checkout with the health-check rule, FIFO waiters
 * (Go's wantConn), dials that serve their waiter or the next one, hand-off to a draining connection, idle limits
 * (fixed or the decaying peak), expiry and watching by maintenance, close. {@link ConnectionPoolModelTest} drives the
 * real pool and this model with the same actions and compares them after each.
 */
final class PoolModel {
    static final long MS = 1_000_000L;
    static final long SECOND = 1_000 * MS;
    static final long WATCH_AFTER = ConnectionPool.WATCH_AFTER_NANOS;
    /** CostModel.MIN_DIAL_COST_NANOS: the model never records a dial's first byte, so the floor is the cost. */
    static final long DIAL_COST = 5 * MS;

    enum CState { LEASED, IDLE, DRAINING, CLOSED }

    enum RState { WAITING, LEASED, FAILED }

    enum Failure { TIMEOUT, INTERRUPTED, CLIENT_CLOSED, DIAL_FAILED }

    enum LState { HELD, ABORTED, RELEASED }

    static final class Conn {
        final int id;
        CState state = CState.LEASED;
        int uses;
        long idleSince;
        /** The pool's flag: handed to the watcher while idle. */
        boolean watched;
        /** The fake connection's flags. */
        boolean fakeWatched;
        boolean fakeClosed;
        boolean healthy = true;
        /** While DRAINING. */
        Req claimedBy;
        long drainStart;
        long drainRemaining;

        Conn(int id) {
            this.id = id;
        }

        boolean isHealthy() {
            return healthy && !fakeClosed;
        }

        @Override
        public String toString() {
            return "c" + id + ":" + state;
        }
    }

    static final class Req {
        final int id;
        final boolean fresh;
        final long deadline;
        RState state = RState.WAITING;
        Failure failure;
        boolean dialing;
        Conn awaitedDrain;
        Lease lease;
        /** Left the waiters' queue (served, failed, gave up): the pool's Waiter.done. */
        boolean done;

        Req(int id, boolean fresh, long deadline) {
            this.id = id;
            this.fresh = fresh;
            this.deadline = deadline;
        }

        boolean covered() {
            return dialing || awaitedDrain != null;
        }

        @Override
        public String toString() {
            return "r" + id;
        }
    }

    static final class Lease {
        final Req req;
        final Conn conn;
        final boolean reused;
        final boolean wasIdle;
        final long idleNanos;
        final boolean afterDrain;
        final boolean freshFromDial;
        LState state = LState.HELD;

        Lease(Req req, Conn conn, boolean reused, boolean wasIdle, long idleNanos, boolean afterDrain,
              boolean freshFromDial) {
            this.req = req;
            this.conn = conn;
            this.reused = reused;
            this.wasIdle = wasIdle;
            this.idleNanos = idleNanos;
            this.afterDrain = afterDrain;
            this.freshFromDial = freshFromDial;
        }
    }

    // Configuration.
    final int maxConns;
    /** -1: adaptive. */
    final int maxIdlePerHost;
    final int maxIdleTotal;
    final long idleTimeout;
    final boolean handOff;
    final long drainCap;

    // State.
    long now;
    boolean closed;
    final List<Conn> conns = new ArrayList<>();
    /** Most recently idle first. */
    final Deque<Conn> idle = new ArrayDeque<>();
    final List<Req> waiters = new ArrayList<>();
    final List<Conn> draining = new ArrayList<>();
    /** Dials in flight, by the request they were started for, in start order. */
    final List<Req> dials = new ArrayList<>();
    final List<Req> requests = new ArrayList<>();
    int total;
    int leased;
    long checkouts;
    long releases;
    long handOffWaits;
    long handOffDials;
    long opened;
    long closedByPool;
    /** The next maintenance run's delay, or -1 when none is scheduled. */
    long maintenanceDelay = -1;
    // Per origin; forgotten with it.
    int peak;
    long peakAt;
    int slowDrainsRecorded;

    PoolModel(long now, int maxConns, int maxIdlePerHost, int maxIdleTotal, long idleTimeout, boolean handOff,
              long drainCap) {
        this.now = now;
        this.maxConns = maxConns;
        this.maxIdlePerHost = maxIdlePerHost;
        this.maxIdleTotal = maxIdleTotal;
        this.idleTimeout = idleTimeout;
        this.handOff = handOff;
        this.drainCap = drainCap;
    }

    int dialing() {
        return dials.size();
    }

    // ---- peak concurrency (adaptive idle limit) ----

    int busy() {
        return leased + draining.size() + waiters.size();
    }

    void observe() {
        int busy = busy();
        if (busy > 0 && busy >= allowance()) {
            peak = busy;
            peakAt = now;
        }
    }

    int allowance() {
        if (peak == 0) {
            return 0;
        }
        long age = Math.max(0, now - peakAt);
        if (age >= idleTimeout) {
            return 0;
        }
        return (int) Math.ceil(peak * ((double) (idleTimeout - age) / idleTimeout));
    }

    // ---- checkout ----

    /** {@code acquire}: an idle connection, else a waiter. */
    Req acquire(int id, boolean fresh, boolean checkIdle, long deadline) {
        Req req = new Req(id, fresh, deadline);
        requests.add(req);
        if (closed) {
            fail(req, Failure.CLIENT_CLOSED);
            return req;
        }
        if (!fresh && takeIdle(req, checkIdle)) {
            return req;
        }
        if (closed) {
            fail(req, Failure.CLIENT_CLOSED);
            return req;
        }
        waiters.add(req);
        if (!fresh && handOff) {
            Conn drain = null;
            for (Conn c : draining) {
                if (c.claimedBy == null) {
                    drain = c;
                    break;
                }
            }
            if (drain != null) {
                if (expectedDrain(drain) <= DIAL_COST) {
                    handOffWaits++;
                    drain.claimedBy = req;
                    req.awaitedDrain = drain;
                } else {
                    handOffDials++;
                }
            }
        }
        if (!req.covered()) {
            startDial(req);
        }
        observe();
        if (now >= deadline) {
            abandon(req, Failure.TIMEOUT);
        }
        return req;
    }

    private long expectedDrain(Conn drain) {
        if (slowDrainsRecorded < 3) {
            return 0;
        }
        // Every recorded drain gave up after the cap having drained nothing: throughput 0, duration the cap.
        if (drain.drainRemaining >= 0) {
            return drain.drainRemaining == 0 ? 0 : Long.MAX_VALUE;
        }
        return Math.max(0, drainCap - (now - drain.drainStart));
    }

    private boolean takeIdle(Req req, boolean checkIdle) {
        while (true) {
            Conn candidate = null;
            while (!idle.isEmpty()) {
                Conn c = idle.pollFirst();
                if (now - c.idleSince < idleTimeout) {
                    candidate = c;
                    break;
                }
                close(c);
            }
            if (candidate == null) {
                return false;
            }
            candidate.state = CState.LEASED;
            boolean watched = candidate.watched;
            candidate.watched = false;
            leased++;
            observe();
            long idleNanos = now - candidate.idleSince;
            boolean healthy;
            if (watched) {
                candidate.fakeWatched = false; // unwatch(): the fake reports nothing seen meanwhile
                healthy = true;
            } else {
                healthy = (!checkIdle && idleNanos < WATCH_AFTER) || candidate.isHealthy();
            }
            if (healthy) {
                lease(req, candidate, true, idleNanos, false, false);
                return true;
            }
            leased--;
            close(candidate);
            serveUncovered();
            if (closed) {
                return false;
            }
        }
    }

    private void startDial(Req req) {
        if (total >= maxConns) {
            return;
        }
        total++;
        req.dialing = true;
        dials.add(req);
    }

    private void serveUncovered() {
        for (Req waiter : new ArrayList<>(waiters)) {
            if (total >= maxConns) {
                return;
            }
            if (!waiter.covered()) {
                startDial(waiter);
            }
        }
    }

    private void lease(Req req, Conn conn, boolean wasIdle, long idleNanos, boolean afterDrain, boolean fromDial) {
        boolean reused = conn.uses > 0;
        Lease lease = new Lease(req, conn, reused, wasIdle, idleNanos, afterDrain, fromDial && conn.uses == 0);
        conn.uses++;
        checkouts++;
        req.lease = lease;
        req.state = RState.LEASED;
        req.done = true;
    }

    private void deliver(Req waiter, Conn conn, boolean afterDrain, boolean fromDial) {
        waiters.remove(waiter);
        unclaim(waiter);
        leased++;
        lease(waiter, conn, false, 0, afterDrain, fromDial);
    }

    private boolean offer(Conn conn, boolean neverUsed) {
        for (Req waiter : waiters) {
            if (neverUsed || !waiter.fresh) {
                deliver(waiter, conn, false, false);
                return true;
            }
        }
        return false;
    }

    private void unclaim(Req waiter) {
        if (waiter.awaitedDrain != null) {
            waiter.awaitedDrain.claimedBy = null;
            waiter.awaitedDrain = null;
        }
    }

    private void fail(Req req, Failure failure) {
        req.state = RState.FAILED;
        req.failure = failure;
        req.done = true;
    }

    /** Gave up (deadline, interrupt): leaves the queue, unclaims its drain. */
    void abandon(Req req, Failure failure) {
        waiters.remove(req);
        unclaim(req);
        fail(req, failure);
    }

    /** The clock moves: every waiter whose deadline passed gives up. */
    void advance(long nanos) {
        now += nanos;
        for (Req waiter : new ArrayList<>(waiters)) {
            if (now >= waiter.deadline) {
                abandon(waiter, Failure.TIMEOUT);
            }
        }
    }

    // ---- dials ----

    void dialDone(Req req, Integer connId) {
        dials.remove(req);
        req.dialing = false;
        if (connId == null) {
            total--;
            if (!req.done) {
                waiters.remove(req);
                unclaim(req);
                fail(req, Failure.DIAL_FAILED);
            }
            serveUncovered();
            return;
        }
        opened++;
        Conn conn = new Conn(connId);
        conns.add(conn);
        if (closed) {
            close(conn);
        } else if (!req.done) {
            deliver(req, conn, false, true);
        } else if (!offer(conn, true)) {
            goIdle(conn, now);
        }
    }

    // ---- release and drain ----

    /** {@code Lease.startDrain}: false when the pool is closed (the caller then releases it as not reusable). */
    boolean startDrain(Lease lease, long remaining) {
        if (closed) {
            return false;
        }
        Conn conn = lease.conn;
        conn.state = CState.DRAINING;
        leased--;
        conn.drainStart = now;
        conn.drainRemaining = remaining;
        draining.add(conn);
        return true;
    }

    boolean abort(Lease lease) {
        if (lease.state != LState.HELD) {
            return false;
        }
        lease.state = LState.ABORTED;
        lease.conn.fakeClosed = true;
        return true;
    }

    void release(Lease lease, boolean reusable) {
        reusable = reusable && lease.state == LState.HELD;
        lease.state = LState.RELEASED;
        releases++;
        observe();
        Conn conn = lease.conn;
        Req claimer = conn.claimedBy;
        if (conn.state == CState.DRAINING) {
            draining.remove(conn);
            conn.state = CState.LEASED;
            conn.claimedBy = null;
            if (claimer != null) {
                claimer.awaitedDrain = null;
            }
        } else {
            leased--;
        }
        if (!reusable || closed || conn.fakeClosed) {
            close(conn);
            serveUncovered();
            return;
        }
        if (claimer != null && !claimer.done) {
            deliver(claimer, conn, true, false);
        } else if (!offer(conn, false)) {
            goIdle(conn, now);
        }
    }

    private void goIdle(Conn conn, long idleSince) {
        conn.state = CState.IDLE;
        conn.idleSince = idleSince;
        // In idle-time order, most recent first (one the watcher handed back keeps its place).
        Deque<Conn> younger = new ArrayDeque<>();
        while (!idle.isEmpty() && idle.peekFirst().idleSince > idleSince) {
            younger.addFirst(idle.pollFirst());
        }
        idle.addFirst(conn);
        younger.forEach(idle::addFirst);
        int allowed = maxIdlePerHost < 0 ? allowance() : maxIdlePerHost;
        while (idle.size() > allowed || idle.size() > maxIdleTotal) {
            close(idle.pollLast());
        }
        if (maintenanceDelay < 0 && !closed) {
            maintenanceDelay = Math.min(WATCH_AFTER, idleTimeout);
        }
    }

    private void close(Conn conn) {
        conn.state = CState.CLOSED;
        total--;
        closedByPool++;
        conn.watched = false;
        conn.fakeWatched = false;
        conn.fakeClosed = true;
    }

    // ---- idle connections: maintenance and the watcher ----

    /** The scheduled maintenance runs (if one is scheduled). */
    void runMaintenance() {
        if (maintenanceDelay < 0) {
            return;
        }
        maintenanceDelay = -1;
        if (closed) {
            return;
        }
        long next = -1;
        Conn last;
        while ((last = idle.peekLast()) != null && now - last.idleSince >= idleTimeout) {
            close(idle.pollLast());
        }
        if (last != null) {
            next = last.idleSince + idleTimeout - now;
        }
        long watchNext = -1;
        List<Conn> toWatch = new ArrayList<>();
        for (Conn c : idle) {
            long age = now - c.idleSince;
            if (age < WATCH_AFTER) {
                watchNext = WATCH_AFTER - age;
                continue;
            }
            if (c.watched) {
                break;
            }
            toWatch.add(c);
        }
        next = earliest(next, watchNext);
        for (Conn c : toWatch) {
            c.watched = true;
            c.fakeWatched = true;
        }
        if (total == 0 && waiters.isEmpty() && idle.isEmpty() && draining.isEmpty() && allowance() == 0) {
            forgetOrigin();
        }
        if (next >= 0) {
            maintenanceDelay = next;
        }
    }

    private void forgetOrigin() {
        peak = 0;
        peakAt = 0;
        slowDrainsRecorded = 0;
    }

    private static long earliest(long a, long b) {
        return a < 0 ? b : b < 0 ? a : Math.min(a, b);
    }

    /**
     * The watcher hands an idle, watched connection back by itself (the server closed it, or sent something
     * harmless): a broken one is closed, a healthy one stays idle and is watched again.
     */
    void wake(Conn conn) {
        conn.fakeWatched = false;
        if (conn.state != CState.IDLE || !conn.watched || !idle.remove(conn)) {
            return;
        }
        conn.state = CState.LEASED;
        conn.watched = false;
        if (!conn.isHealthy() || closed) {
            close(conn);
            serveUncovered();
        } else if (!offer(conn, false)) {
            goIdle(conn, conn.idleSince);
            conn.watched = true; // watched again, even if the limits closed it (closing unwatches it)
            conn.fakeWatched = conn.state != CState.CLOSED;
            if (conn.state == CState.CLOSED) {
                conn.watched = false;
            }
        }
    }

    // ---- close ----

    void close() {
        if (closed) {
            return;
        }
        closed = true;
        maintenanceDelay = -1;
        while (!idle.isEmpty()) {
            close(idle.pollFirst());
        }
        for (Conn c : draining) {
            c.fakeClosed = true; // its drain fails and releases it
        }
        for (Req waiter : waiters) {
            fail(waiter, Failure.CLIENT_CLOSED);
        }
        waiters.clear();
    }

    void recordSlowDrains() {
        slowDrainsRecorded += 3;
    }

    // ---- queries ----

    List<Lease> leases(LState... states) {
        List<Lease> result = new ArrayList<>();
        for (Req r : requests) {
            if (r.lease != null) {
                for (LState s : states) {
                    if (r.lease.state == s) {
                        result.add(r.lease);
                    }
                }
            }
        }
        return result;
    }

    Req request(int id) {
        for (Req r : requests) {
            if (r.id == id) {
                return r;
            }
        }
        return null;
    }

    Conn conn(int id) {
        for (Conn c : conns) {
            if (c.id == id) {
                return c;
            }
        }
        return null;
    }

    List<Req> waiting() {
        List<Req> result = new ArrayList<>();
        for (Iterator<Req> it = requests.iterator(); it.hasNext(); ) {
            Req r = it.next();
            if (r.state == RState.WAITING) {
                result.add(r);
            }
        }
        return result;
    }

    @Override
    public String toString() {
        return "Model[now=" + now + " total=" + total + " idle=" + idle + " leased=" + leased + " draining="
                + draining + " dials=" + dials + " waiters=" + waiters + " closed=" + closed + " maintenance="
                + maintenanceDelay + "]";
    }
}
