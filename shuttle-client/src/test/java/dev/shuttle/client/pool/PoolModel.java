package dev.shuttle.client.pool;

import dev.shuttle.client.HandOffDecision.Kind;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * What {@link ConnectionPool} should do with one HTTP/1.1 origin, written from its documented rules (ARCHITECTURE.md,
 * the class comments) as plain single-threaded bookkeeping: LIFO checkout with the health-check rule, FIFO waiters
 * (Go's wantConn), dials that serve their waiter or the next one, the hand-off rule with spares (issue 14), idle
 * limits (fixed or the decaying peak), expiry and watching by maintenance, close. {@link ConnectionPoolModelTest}
 * drives the real pool and this model with the same actions and compares them after each.
 *
 * <h2>The pool's rule for waiters (issue 14), as this model states it</h2>
 *
 * <p>A request that finds no idle connection (or is a retry, {@code fresh}: it takes only a never-used one) joins the
 * FIFO queue of waiters. It is <b>covered</b> while something is on its way that may serve it: its own dial, a drain
 * it claimed, or a spare dial it counts on. Whatever comes first serves it: its dial, the drain it claimed, a
 * connection released or dialed for a request that no longer needs it. Every waiter gets at most one dial of its own,
 * ever: a dial ends by serving it, by failing it, or after it was served otherwise.
 *
 * <p><b>On arrival</b>, with a policy without hand-off (none, bounded) and for every retry: it dials at once, unless
 * the origin is at maxConnsPerHost. With hand-off (the default policy), {@link #decide} (= {@link HandOffPlanner})
 * sees the unclaimed drain expected to end first (ties: the one that started first), how long the oldest of all the
 * origin's drains (claimed or not) has run, the learned costs (dial cost with its 5 ms floor, the raw dial cost, the
 * spare wait of at least 1 ms, the drains seen, whether the last gave up; an expected drain past the drain's time cap
 * counts as never), and whether a spare is in flight (dials in flight minus those of waiters still waiting for them
 * minus waiters already counting on one):
 * <ol>
 *   <li>nothing unclaimed draining: WAIT_FOR_SPARE if a spare is in flight, else DIAL;</li>
 *   <li>no drain of the origin ended yet: WAIT_FOR_DRAIN_THEN_DIAL (claims the drain, and a timer of the grace —
 *       min(spare wait, raw dial cost), or the spare wait before a dial was measured — less what the oldest drain has
 *       run), or, once the oldest drain has run the whole grace, the spare case below;</li>
 *   <li>the last drain gave up, or the drain is expected after a dial (or after its cap): WAIT_FOR_SPARE / DIAL
 *       (a DIAL with a drain there counts as a hand-off dial);</li>
 *   <li>quick drains (typical under the spare wait) and this one expected within it: WAIT_FOR_DRAIN, claiming it,
 *       with an overrun timer of expected + max(spare wait, raw dial cost);</li>
 *   <li>else the spare case: WAIT_FOR_SPARE (counts on the spare in flight, claims nothing) or
 *       WAIT_FOR_DRAIN_AND_DIAL_SPARE (claims the drain and dials at once, if below the limit).</li>
 * </ol>
 * A waiter left uncovered by its decision dials at once (if below the limit). Claims and spare waits are counted
 * (handOffWaits, spareWaits), as are spare dials (whether or not the limit let them start) and hand-off dials.
 *
 * <p><b>When a timer fires</b> (grace or overrun; these are cancelled only by close): if the pool is
 * open and the waiter still waits without a dial of its own, it dials (if below the limit), still claiming its drain.
 *
 * <p><b>When a drain ends</b> (release, reusable): the connection goes to the waiter that claimed it, else to the
 * first waiter that takes a used connection (not a retry), else idle. <b>When a drain fails or exceeds its cap</b>,
 * and when a connection whose lease was <b>aborted</b> is released (aborting alone tells the pool nothing: the
 * connection counts as leased or draining until its release): it is closed, the claimer loses its claim, and the
 * uncovered waiters dial in FIFO order while the origin is below its limit, the claimer among them.
 *
 * <p><b>When a dial ends</b>: one that fails fails its own waiter if that still waits; one that connects serves its
 * own waiter, else the first waiter (a retry too: the connection is new), else goes idle. Then, whenever waiters are
 * left, the spares are reconciled: waiters counting on more spare dials than are still in flight stop counting, the
 * latest first, and every uncovered waiter dials in FIFO order while below the limit. (So a connected dial that served
 * its own waiter also dials for a retry that waited uncovered.)
 *
 * <p><b>When a connection closes while idle</b> (the idle limit on going idle, expiry by maintenance or by a checkout
 * that finds it stale) or is found broken by a checkout or the watcher: the uncovered waiters dial while below the
 * limit, as after a failed drain. <b>A waiter times out</b> (its deadline on the pool's clock, checked when it arrives
 * and whenever the clock moves) or is interrupted: it leaves the queue and gives up its claim; its dial, if any, goes
 * on as a spare. Nothing else changes: no other waiter dials because of it. <b>Close</b> fails every waiter, closes the
 * idle connections and the connections being drained (their drains then fail and release them), cancels maintenance
 * and the grace and overrun timers, and ends the held dials at once: their ready timers are cancelled and their connections closed.
 *
 * <p>The invariants checked after every action ({@link #violations}): total = idle + leased + draining + dialing and
 * at most maxConnsPerHost; every request dialed at most once, so that no policy opens more connections than requests
 * found nothing idle (bounded's bound: the default's spares come out of it, they never add to it); while open, no
 * waiter that takes a used connection waits while one is idle, no waiter is uncovered while the origin is below its
 * limit, no more waiters count on spares than spare dials are in flight, every claim is on a connection still
 * draining; without hand-off, no claim, spare or hand-off decision at all. (Not an invariant: a retry queued at the
 * limit while used connections sit idle waits until one of them is closed, by the idle limit, expiry or a failure.)
 */
final class PoolModel {
    static final long MS = 1_000_000L;
    static final long SECOND = 1_000 * MS;
    static final long WATCH_AFTER = ConnectionPool.WATCH_AFTER_NANOS;
    /** CostModel.MIN_DIAL_COST_NANOS, MIN_SPARE_WAIT_NANOS and WINDOW, written out: the model states the numbers. */
    static final long MIN_DIAL_COST = 5 * MS;
    static final long MIN_SPARE_WAIT = MS;
    static final int WINDOW = 9;

    enum CState { LEASED, IDLE, DRAINING, CLOSED }

    enum RState { WAITING, LEASED, FAILED }

    enum Failure { TIMEOUT, INTERRUPTED, CLIENT_CLOSED, DIAL_FAILED }

    enum LState { HELD, ABORTED, RELEASED }

    enum TimerKind { MAINTENANCE, GRACE, READY }

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

    /** What the hand-off rule decided for a request, as {@link dev.shuttle.client.HandOffDecision} reports it. */
    record Decision(Kind kind, Duration expectedDrain, Duration dialCost, Duration spareWait) {
    }

    static final class Req {
        final int id;
        final boolean fresh;
        final long deadline;
        RState state = RState.WAITING;
        Failure failure;
        boolean dialing;
        Conn awaitedDrain;
        boolean awaitsSpare;
        /** Went to the queue (found nothing idle). */
        boolean queued;
        int dialsStarted;
        /** When its dial started (the pool's dialStart), while it has one. */
        long dialStartedAt;
        /** The connection its dial opened, held until it could answer (the pool's holdUntilReadyLocked); or null. */
        Integer heldConn;
        /** When the held connection could answer: dial start plus the dial cost the hold was decided on. */
        long heldReadyAt;
        Decision decision;
        Lease lease;
        /** Left the waiters' queue (served, failed, gave up): the pool's Waiter.done. */
        boolean done;

        Req(int id, boolean fresh, long deadline) {
            this.id = id;
            this.fresh = fresh;
            this.deadline = deadline;
        }

        boolean covered() {
            return dialing || awaitedDrain != null || awaitsSpare;
        }

        @Override
        public String toString() {
            return "r" + id + (dialing ? "+dial" : "") + (awaitedDrain != null ? "+c" + awaitedDrain.id : "")
                    + (awaitsSpare ? "+spare" : "");
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

    /** A task on the scheduler: maintenance, or a waiter's grace or overrun timer. In scheduling order. */
    static final class Timer {
        final TimerKind kind;
        final long delay;
        final long due;
        final Req req;

        Timer(TimerKind kind, long delay, long due, Req req) {
            this.kind = kind;
            this.delay = delay;
            this.due = due;
            this.req = req;
        }

        @Override
        public String toString() {
            return switch (kind) {
                case MAINTENANCE -> "maintenance+" + delay;
                case GRACE -> "grace(" + req + ")+" + delay;
                case READY -> "ready(" + req + ")+" + delay;
            };
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
    /** In the order the drains started. */
    final List<Conn> draining = new ArrayList<>();
    /** Dials in the dialer, by the request they were started for, in start order. */
    final List<Req> dials = new ArrayList<>();
    /** Dials whose connection is open but held until it could answer (a READY timer each), in hold order. */
    final List<Req> held = new ArrayList<>();
    final List<Req> requests = new ArrayList<>();
    /** Scheduled and neither run nor cancelled, in scheduling order. */
    final List<Timer> timers = new ArrayList<>();
    int total;
    int leased;
    long checkouts;
    long releases;
    long handOffWaits;
    long handOffDials;
    long spareDials;
    long spareWaits;
    long heldDials;
    /** Held connections whose request a drain served before they could answer, held on until they could. */
    long heldPastTheirRequest;
    long opened;
    long failedDials;
    long closedByPool;
    /** Timers that started a dial when they fired (for the statistics). */
    long timerDials;
    // Per origin; forgotten with it.
    int peak;
    long peakAt;
    private List<Double> freshFirstByte = new ArrayList<>();
    private List<Double> reusedFirstByte = new ArrayList<>();
    private List<Double> drainNanos = new ArrayList<>();
    private List<Double> drainBytesPerNano = new ArrayList<>();
    private int drainsSeen;
    private boolean lastDrainGaveUp;

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
        return dials.size() + held.size();
    }

    /** The maintenance delay pending, or -1. */
    long maintenanceDelay() {
        Timer t = maintenance();
        return t == null ? -1 : t.delay;
    }

    Timer maintenance() {
        for (Timer t : timers) {
            if (t.kind == TimerKind.MAINTENANCE) {
                return t;
            }
        }
        return null;
    }

    private void schedule(TimerKind kind, long delay, Req req) {
        timers.add(new Timer(kind, delay, now + delay, req));
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

    // ---- learned costs (CostModel, medians of the last WINDOW samples) ----

    void recordDrain(long bytes, long nanos, boolean completed) {
        long duration = completed ? Math.max(1, nanos) : Math.max(drainCap, nanos);
        add(drainNanos, duration);
        add(drainBytesPerNano, (double) bytes / duration);
        drainsSeen++;
        lastDrainGaveUp = !completed;
    }

    void recordRoundTrips(long freshNanos, long reusedNanos) {
        add(freshFirstByte, freshNanos);
        add(reusedFirstByte, reusedNanos);
    }

    private static void add(List<Double> window, double sample) {
        window.add(sample);
        if (window.size() > WINDOW) {
            window.removeFirst();
        }
    }

    private static double median(List<Double> window) {
        if (window.isEmpty()) {
            return Double.NaN;
        }
        double[] s = window.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return (s[(s.length - 1) / 2] + s[s.length / 2]) / 2;
    }

    /** Of two middle samples the lower: one outlier among two does not decide. */
    private static double lowerMedian(List<Double> window) {
        if (window.isEmpty()) {
            return Double.NaN;
        }
        double[] s = window.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(s);
        return s[(s.length - 1) / 2];
    }

    long rawDialCost() {
        if (freshFirstByte.isEmpty()) {
            return 0;
        }
        double cost = median(freshFirstByte) - (reusedFirstByte.isEmpty() ? 0 : median(reusedFirstByte));
        return (long) Math.max(0, cost);
    }

    /** CostModel.passCapDialCostNanos: two fresh samples at least, the lower median, less the reused median. */
    long passCapDialCost() {
        if (freshFirstByte.size() < 2) {
            return 0;
        }
        double cost = lowerMedian(freshFirstByte) - (reusedFirstByte.isEmpty() ? 0 : median(reusedFirstByte));
        return (long) Math.max(0, cost);
    }

    long dialCost() {
        return Math.max(MIN_DIAL_COST, rawDialCost());
    }

    long spareWait() {
        return reusedFirstByte.isEmpty() ? MIN_SPARE_WAIT : (long) Math.max(MIN_SPARE_WAIT, median(reusedFirstByte));
    }

    private long typicalDrain() {
        return drainNanos.isEmpty() ? 0 : (long) lowerMedian(drainNanos);
    }

    /** Until the drain of {@code c} is expected to end, from the learned throughput or duration; 0 with no history. */
    private long expectedDrain(Conn c) {
        if (drainNanos.isEmpty()) {
            return 0;
        }
        if (c.drainRemaining >= 0) {
            double throughput = lowerMedian(drainBytesPerNano);
            if (c.drainRemaining == 0) {
                return 0;
            }
            return throughput <= 0 ? Long.MAX_VALUE
                    : (long) Math.min(Long.MAX_VALUE / 2.0, c.drainRemaining / throughput);
        }
        return (long) Math.max(0, lowerMedian(drainNanos) - (now - c.drainStart));
    }

    /** The same, or Long.MAX_VALUE when the drain's time cap ends it first. */
    private long expectedWithinCap(Conn c) {
        long expected = expectedDrain(c);
        return expected >= drainCap - (now - c.drainStart) ? Long.MAX_VALUE : expected;
    }

    private int freeSpares() {
        int own = 0;
        int counting = 0;
        for (Req w : waiters) {
            own += w.dialing ? 1 : 0;
            counting += w.awaitsSpare ? 1 : 0;
        }
        return dialing() - own - counting;
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
        req.queued = true;
        if (!fresh && handOff) {
            plan(req);
        }
        if (!req.covered()) {
            startDial(req);
        }
        if (fresh) {
            makeRoomForRetries();
        }
        observe();
        if (now >= deadline) {
            abandon(req, Failure.TIMEOUT);
        }
        return req;
    }

    private boolean takeIdle(Req req, boolean checkIdle) {
        while (true) {
            Conn candidate = null;
            boolean closedStale = false;
            while (!idle.isEmpty()) {
                Conn c = idle.pollFirst();
                if (now - c.idleSince < idleTimeout) {
                    candidate = c;
                    break;
                }
                close(c);
                closedStale = true;
            }
            if (closedStale) {
                serveUncovered();
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

    /** The hand-off rule for a waiter that takes a used connection, under a policy with hand-off, and its effects. */
    /** The unclaimed drain expected to end first (ties: the one that started first), or null. */
    private Conn soonestUnclaimedDrain() {
        Conn drain = null;
        long soonest = Long.MAX_VALUE;
        for (Conn c : draining) {
            if (c.claimedBy == null && (drain == null || expectedDrain(c) < soonest)) {
                drain = c;
                soonest = expectedDrain(c);
            }
        }
        return drain;
    }

    private void plan(Req req) {
        Conn drain = soonestUnclaimedDrain();
        long longestRunning = 0;
        for (Conn c : draining) {
            longestRunning = Math.max(longestRunning, now - c.drainStart);
        }
        long expected = drain == null ? 0 : expectedWithinCap(drain);
        Decision d = decide(drain != null, expected, longestRunning, freeSpares() > 0);
        req.decision = d;
        switch (d.kind()) {
            case DIAL -> {
                if (drain != null) {
                    handOffDials++;
                }
            }
            case WAIT_FOR_DRAIN -> {
                claim(drain, req);
                schedule(TimerKind.GRACE, expected + Math.max(spareWait(), rawDialCost()), req);
            }
            case WAIT_FOR_DRAIN_AND_DIAL_SPARE -> {
                claim(drain, req);
                spareDials++;
                startDial(req);
            }
            case WAIT_FOR_DRAIN_THEN_DIAL -> {
                claim(drain, req);
                schedule(TimerKind.GRACE, d.spareWait().toNanos(), req);
            }
            case WAIT_FOR_SPARE -> {
                req.awaitsSpare = true;
                spareWaits++;
            }
        }
    }

    /** HandOffPlanner's five rules (see the class comment), from the facts the pool gathers. */
    Decision decide(boolean drainThere, long expected, long longestRunning, boolean spareInFlight) {
        Duration dial = Duration.ofNanos(dialCost());
        long spareWait = spareWait();
        Duration spare = Duration.ofNanos(spareWait);
        Kind orSpare = spareInFlight ? Kind.WAIT_FOR_SPARE : Kind.DIAL;
        Kind withSpare = spareInFlight ? Kind.WAIT_FOR_SPARE : Kind.WAIT_FOR_DRAIN_AND_DIAL_SPARE;
        if (!drainThere) {
            return new Decision(orSpare, null, dial, spare);
        }
        if (drainsSeen == 0) {
            long grace = rawDialCost() > 0 ? Math.min(spareWait, rawDialCost()) : spareWait;
            return longestRunning >= grace ? new Decision(withSpare, null, dial, spare)
                    : new Decision(Kind.WAIT_FOR_DRAIN_THEN_DIAL, null, dial, Duration.ofNanos(grace - longestRunning));
        }
        Duration expectedDrain = expected == Long.MAX_VALUE ? null : Duration.ofNanos(expected);
        if (lastDrainGaveUp || expected > dialCost()) {
            return new Decision(orSpare, expectedDrain, dial, spare);
        }
        if (typicalDrain() < spareWait && expected < spareWait) {
            return new Decision(Kind.WAIT_FOR_DRAIN, expectedDrain, dial, spare);
        }
        return new Decision(withSpare, expectedDrain, dial, spare);
    }

    private void claim(Conn drain, Req req) {
        handOffWaits++;
        drain.claimedBy = req;
        req.awaitedDrain = drain;
    }

    /**
     * A grace or overrun timer runs: its waiter dials if it still waits without a dial (and the pool is open). A ready
     * timer ends its held dial as any other, unless its request was served meanwhile (by its drain) before the
     * connection could answer: then the connection stays held until it could.
     */
    void fireGrace(Timer timer) {
        timers.remove(timer);
        Req req = timer.req;
        if (timer.kind == TimerKind.READY) {
            if (!closed && req.done && req.heldReadyAt - now > 0) {
                schedule(TimerKind.READY, req.heldReadyAt - now, req); // served by its drain: held until it could answer
                heldPastTheirRequest++;
                return;
            }
            held.remove(req);
            Integer connId = req.heldConn;
            req.heldConn = null;
            dialEnded(req, connId);
            return;
        }
        if (!closed && !req.done && !req.dialing) {
            int before = dials.size();
            startDial(req);
            timerDials += dials.size() - before;
        }
    }

    private void startDial(Req req) {
        if (total >= maxConns) {
            return;
        }
        total++;
        req.dialing = true;
        req.dialsStarted++;
        req.dialStartedAt = now;
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

    /** After a dial ended: waiters counting on spares no longer in flight stop counting (latest first), then dial. */
    private void reconcileSpares() {
        int excess = -freeSpares();
        for (int i = waiters.size() - 1; i >= 0 && excess > 0; i--) {
            Req waiter = waiters.get(i);
            if (waiter.awaitsSpare) {
                waiter.awaitsSpare = false;
                excess--;
            }
        }
        serveUncovered();
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

    /** Gave up (deadline, interrupt) or its dial failed: leaves the queue, unclaims its drain. */
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
        long hold = connId == null ? 0 : holdUntilReady(req);
        if (hold > 0) {
            req.heldConn = connId;
            held.add(req);
            heldDials++;
            schedule(TimerKind.READY, hold, req);
            return;
        }
        dialEnded(req, connId);
    }

    /**
     * The pool's holdUntilReadyLocked: how long a new connection counts as still dialing because its waiter's drain
     * (the one it claimed, else the origin's unclaimed drain due first) is expected to end before the connection could
     * answer (the learned dial cost, counted from the dial's start), or, for a waiter served otherwise, until it could
     * answer; 0 when it is delivered now.
     */
    private long holdUntilReady(Req req) {
        if (closed || !handOff) {
            return 0;
        }
        long dialCost = passCapDialCost();
        if (dialCost < MIN_DIAL_COST || drainsSeen < 1) {
            return 0;
        }
        if (req.done) { // served otherwise: a spare, held until it could answer if that is a spare wait away or more
            long readyIn = dialCost - (now - req.dialStartedAt);
            if (readyIn < spareWait()) {
                return 0;
            }
            req.heldReadyAt = req.dialStartedAt + dialCost;
            return readyIn;
        }
        Conn drain = req.awaitedDrain != null ? req.awaitedDrain : soonestUnclaimedDrain();
        if (drain == null) {
            return 0;
        }
        long readyIn = dialCost - (now - req.dialStartedAt);
        long expected = expectedWithinCap(drain);
        if (expected == Long.MAX_VALUE || expected >= readyIn) {
            return 0;
        }
        req.heldReadyAt = req.dialStartedAt + dialCost;
        return Math.min(readyIn, expected + spareWait());
    }

    private void dialEnded(Req req, Integer connId) {
        req.dialing = false;
        if (connId == null) {
            total--;
            failedDials++;
            if (!req.done) {
                abandon(req, Failure.DIAL_FAILED);
            }
            reconcileSpares();
            return;
        }
        opened++;
        Conn conn = new Conn(connId);
        conns.add(conn);
        if (closed) {
            close(conn);
            return;
        }
        if (!req.done) {
            deliver(req, conn, false, true);
        } else if (!offer(conn, true)) {
            goIdle(conn, now);
        }
        if (!waiters.isEmpty()) {
            reconcileSpares();
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

    /** Closes the connection if the lease still holds it; the pool hears of it only at the release. */
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
        boolean evicted = false;
        while (idle.size() > allowed || idle.size() > maxIdleTotal) {
            close(idle.pollLast());
            evicted = true;
        }
        if (evicted) {
            serveUncovered();
        }
        makeRoomForRetries();
        if (maintenance() == null && !closed) {
            schedule(TimerKind.MAINTENANCE, Math.min(WATCH_AFTER, idleTimeout), null);
        }
    }

    /**
     * A retry waiting at the limit with a used connection idle, which it cannot take: the least recently used idle one
     * closes, and the retry dials in its place (it would otherwise wait for an idle timeout).
     */
    private void makeRoomForRetries() {
        while (total >= maxConns && !idle.isEmpty() && uncoveredRetry()) {
            close(idle.pollLast());
            serveUncovered();
        }
    }

    private boolean uncoveredRetry() {
        for (Req waiter : waiters) {
            if (waiter.fresh && !waiter.done && !waiter.covered()) {
                return true;
            }
        }
        return false;
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
        Timer scheduled = maintenance();
        if (scheduled == null) {
            return;
        }
        timers.remove(scheduled);
        if (closed) {
            return;
        }
        long next = -1;
        Conn last;
        boolean expired = false;
        while ((last = idle.peekLast()) != null && now - last.idleSince >= idleTimeout) {
            close(idle.pollLast());
            expired = true;
        }
        if (expired) {
            serveUncovered();
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
            schedule(TimerKind.MAINTENANCE, next, null);
        }
    }

    /** Maintenance found the origin unused: a later request starts from nothing learned. */
    private void forgetOrigin() {
        peak = 0;
        peakAt = 0;
        freshFirstByte = new ArrayList<>();
        reusedFirstByte = new ArrayList<>();
        drainNanos = new ArrayList<>();
        drainBytesPerNano = new ArrayList<>();
        drainsSeen = 0;
        lastDrainGaveUp = false;
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
            // Watched again, even if the limits closed it (closing then unwatches it).
            conn.watched = conn.state != CState.CLOSED;
            conn.fakeWatched = conn.watched;
        }
    }

    // ---- close ----

    void close() {
        if (closed) {
            return;
        }
        closed = true;
        Timer scheduled = maintenance();
        if (scheduled != null) {
            timers.remove(scheduled);
        }
        timers.removeIf(t -> t.kind == TimerKind.GRACE); // grace and overrun timers are cancelled too
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
        for (Req req : new ArrayList<>(held)) { // held dials end at once: READY timers cancelled, connections closed
            timers.removeIf(t -> t.kind == TimerKind.READY && t.req == req);
            held.remove(req);
            Integer connId = req.heldConn;
            req.heldConn = null;
            dialEnded(req, connId);
        }
    }

    // ---- invariants ----

    /** What is wrong with this state by the pool's own rules (the class comment); empty when nothing. */
    List<String> violations() {
        List<String> wrong = new ArrayList<>();
        if (total != idle.size() + leased + draining.size() + dialing()) {
            wrong.add("total " + total + " ≠ idle + leased + draining + dialing");
        }
        if (total > maxConns) {
            wrong.add("total " + total + " > maxConnsPerHost " + maxConns);
        }
        long queued = 0;
        for (Req r : requests) {
            if (r.dialsStarted > 1) {
                wrong.add(r + " dialed " + r.dialsStarted + " times");
            }
            queued += r.queued ? 1 : 0;
        }
        if (opened + failedDials + dialing() > queued) {
            wrong.add("more dials than requests that found nothing idle");
        }
        if (!handOff && (handOffWaits | handOffDials | spareDials | spareWaits) != 0) {
            wrong.add("hand-off decisions under a policy without hand-off");
        }
        int counting = 0;
        for (Req w : waiters) {
            counting += w.awaitsSpare ? 1 : 0;
            if (w.awaitedDrain != null && (w.awaitedDrain.claimedBy != w || w.awaitedDrain.state != CState.DRAINING)) {
                wrong.add(w + " claims a connection not draining for it");
            }
            if (!handOff && (w.awaitedDrain != null || w.awaitsSpare)) {
                wrong.add(w + " waits for a drain or spare without hand-off");
            }
            if (closed) {
                wrong.add(w + " waits in a closed pool");
            } else if (!w.fresh && !idle.isEmpty()) {
                wrong.add(w + " waits while " + idle.peekFirst() + " is idle");
            } else if (!w.covered() && total < maxConns) {
                wrong.add(w + " waits with nothing on its way while the origin has room (" + total + " < "
                        + maxConns + ")");
            }
        }
        if (counting > 0 && freeSpares() < 0) {
            wrong.add(counting + " waiters count on spares, " + (freeSpares() + counting) + " in flight");
        }
        return wrong;
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
        for (Req r : requests) {
            if (r.state == RState.WAITING) {
                result.add(r);
            }
        }
        return result;
    }

    /** Grace, overrun and ready timers pending: a request's own. */
    List<Timer> graceTimers() {
        List<Timer> result = new ArrayList<>();
        for (Timer t : timers) {
            if (t.kind != TimerKind.MAINTENANCE) {
                result.add(t);
            }
        }
        return result;
    }

    @Override
    public String toString() {
        return "Model[now=" + now + " total=" + total + " idle=" + idle + " leased=" + leased + " draining="
                + draining + " dials=" + dials + " held=" + held + " waiters=" + waiters + " closed=" + closed + " timers=" + timers
                + " drainsSeen=" + drainsSeen + " lastGaveUp=" + lastDrainGaveUp + "]";
    }
}
