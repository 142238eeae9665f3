package dev.shuttle.client.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.DrainPolicy;
import dev.shuttle.client.HandOffDecision;
import dev.shuttle.client.HttpTimeoutException;
import dev.shuttle.client.Origin;
import dev.shuttle.client.PoolConfig;
import dev.shuttle.client.internal.Deadline;
import dev.shuttle.client.internal.StatsRecorder;
import dev.shuttle.client.testing.ManualScheduler;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The real pool, with fake connections, a dialer whose every dial the harness completes or fails by hand, a manual
 * scheduler and a fake clock, next to a {@link PoolModel}. Each action is applied to both; then the harness waits until
 * the pool's own threads (the requests blocked in {@code acquire}, the dial threads) have settled, and compares.
 *
 * <p>Settled means: every dial the pool started is blocked in the dialer or has finished (its thread joined), every
 * request is either back from {@code acquire} or in the pool's queue of waiters, and every request the model says is
 * done (served, failed, past its deadline, interrupted) is back.
 * Only then is the pool's state a function of the actions, which is what makes the comparison deterministic.
 */
final class PoolHarness {
    static final Origin ORIGIN = new Origin("http", "model.test", 80);
    private static final long SETTLE_TIMEOUT_NANOS = 5_000_000_000L;

    /** One pool configuration and drain policy. */
    record Setup(int maxConns, int maxIdlePerHost, int maxIdleTotal, Duration idleTimeout, DrainPolicy policy) {
        PoolConfig config() {
            return PoolConfig.builder().maxConnsPerHost(maxConns).maxIdlePerHost(maxIdlePerHost)
                    .maxIdleTotal(maxIdleTotal).idleTimeout(idleTimeout).build();
        }

        @Override
        public String toString() {
            return "Setup[maxConns=" + (maxConns == Integer.MAX_VALUE ? "∞" : maxConns) + " maxIdlePerHost="
                    + (maxIdlePerHost == PoolConfig.ADAPTIVE ? "adaptive" : maxIdlePerHost) + " maxIdleTotal="
                    + maxIdleTotal + " idleTimeout=" + idleTimeout.toMillis() + "ms policy="
                    + (policy.handOff() ? "defaults" : policy.drains() ? "bounded" : "none") + "]";
        }
    }

    /** A request's trace: tells the dialer which request a dial was started for, and keeps its hand-off decision. */
    private record RequestTrace(int request, Map<Integer, List<HandOffDecision>> decisions) implements ClientTrace {
        @Override
        public void handOff(HandOffDecision decision) {
            decisions.compute(request, (r, traced) -> { // atomic: the settling thread sees none or all
                List<HandOffDecision> list = traced == null ? new CopyOnWriteArrayList<>() : traced;
                list.add(decision);
                return list;
            });
        }
    }

    /** A dial blocked in the dialer until the harness completes it: with a connection id, or null for a failure. */
    private record PendingDial(int request, CompletableFuture<Integer> gate, Thread thread) {
    }

    final Setup setup;
    final PoolModel model;
    private final AtomicLong clock;
    private final ManualScheduler scheduler = new ManualScheduler();
    private final StatsRecorder stats = new StatsRecorder();
    final ConnectionPool pool;
    private final List<PendingDial> pendingDials = new CopyOnWriteArrayList<>();
    private final List<Thread> finishedDials = new ArrayList<>();
    private final Map<Integer, FakeConnection> connections = new java.util.concurrent.ConcurrentHashMap<>();
    /** Dials the dialer saw, by request; and hand-off decisions traced, by request. */
    private final Map<Integer, Integer> dialsByRequest = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<Integer, List<HandOffDecision>> decisions = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<Integer, CompletableFuture<Lease>> results = new HashMap<>();
    private final Map<Integer, Thread> requestThreads = new HashMap<>();
    /** Leases the real pool handed out, by request. */
    private final Map<Integer, Lease> leases = new HashMap<>();
    private int nextRequest = 1;
    private int nextConnection = 1;
    final List<String> log = new ArrayList<>();

    PoolHarness(Setup setup) {
        this.setup = setup;
        long start = 1_000 * PoolModel.SECOND;
        this.clock = new AtomicLong(start);
        this.model = new PoolModel(start, setup.maxConns(), setup.maxIdlePerHost(), setup.maxIdleTotal(),
                setup.idleTimeout().toNanos(), setup.policy().handOff(), setup.policy().maxTime().toNanos());
        Dialer dialer = (origin, deadline, trace) -> {
            PendingDial dial = new PendingDial(((RequestTrace) trace).request(), new CompletableFuture<>(),
                    Thread.currentThread());
            dialsByRequest.merge(dial.request(), 1, Integer::sum);
            pendingDials.add(dial);
            Integer id = dial.gate().join();
            if (id == null) {
                throw new IOException("connection refused");
            }
            FakeConnection connection = new FakeConnection(id, origin);
            connections.put(id, connection);
            return connection;
        };
        this.pool = new ConnectionPool(setup.config(), setup.policy(), dialer, clock::get, scheduler, stats);
    }

    // ---- actions ----

    void acquire(boolean fresh, boolean checkIdle, long deadlineAfter) {
        int id = nextRequest++;
        long deadline = deadlineAfter < 0 ? Deadline.NONE : clock.get() + deadlineAfter;
        log.add("acquire r" + id + (fresh ? " fresh" : "") + (checkIdle ? " checked" : "")
                + (deadlineAfter < 0 ? "" : " deadline+" + deadlineAfter / PoolModel.MS + "ms"));
        CompletableFuture<Lease> result = new CompletableFuture<>();
        results.put(id, result);
        requestThreads.put(id, Thread.ofVirtual().name("request-" + id).start(() -> {
            try {
                result.complete(pool.acquire(ORIGIN, fresh, checkIdle, deadline, new RequestTrace(id, decisions)));
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        }));
        model.acquire(id, fresh, checkIdle, deadline);
        settleAndCompare();
    }

    /** Completes the dial of {@code request}: with a new connection, or a failure. */
    void completeDial(int request, boolean success) {
        PoolModel.Req req = model.request(request);
        if (req == null || !model.dials.contains(req)) {
            return; // not applicable in this (shrunk) sequence
        }
        PendingDial dial = pendingDials.stream().filter(d -> d.request() == request).findFirst().orElseThrow(
                () -> new AssertionError("the model has a dial for r" + request + ", the pool has none: "
                        + pendingDials));
        pendingDials.remove(dial);
        Integer id = success ? nextConnection++ : null;
        log.add((success ? "dial for r" + request + " connects c" + id : "dial for r" + request + " fails"));
        dial.gate().complete(id);
        finishedDials.add(dial.thread());
        model.dialDone(req, id);
        settleAndCompare();
    }

    void release(int request, boolean reusable) {
        PoolModel.Req req = model.request(request);
        if (req == null || req.lease == null || req.lease.state == PoolModel.LState.RELEASED) {
            return;
        }
        log.add("release r" + request + (req.lease.conn.state == PoolModel.CState.DRAINING
                ? (reusable ? " (drain ends)" : " (drain fails)") : reusable ? " reusable" : " broken"));
        leases.get(request).release(reusable);
        model.release(req.lease, reusable);
        settleAndCompare();
    }

    void releaseAgain(int request) {
        PoolModel.Req req = model.request(request);
        if (req == null || req.lease == null || req.lease.state != PoolModel.LState.RELEASED) {
            return;
        }
        log.add("release r" + request + " again");
        Lease lease = leases.get(request);
        assertThatThrownBy(() -> lease.release(true)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> lease.startDrain(new DrainProgress(clock.get(), 1))).isInstanceOf(
                IllegalStateException.class);
        settleAndCompare();
    }

    void startDrain(int request, long remaining) {
        PoolModel.Req req = model.request(request);
        if (req == null || req.lease == null || req.lease.state == PoolModel.LState.RELEASED
                || req.lease.conn.state != PoolModel.CState.LEASED) {
            return;
        }
        log.add("start drain r" + request + (remaining < 0 ? " (chunked)" : " (" + remaining + " bytes left)"));
        Lease lease = leases.get(request);
        boolean started = lease.startDrain(new DrainProgress(clock.get(), remaining));
        boolean expected = model.startDrain(req.lease, remaining);
        assertThat(started).as("startDrain").isEqualTo(expected);
        if (!started) {
            // What the Drainer does when the pool is closed: the connection goes back as not reusable.
            lease.release(false);
            model.release(req.lease, false);
        }
        settleAndCompare();
    }

    void abort(int request) {
        PoolModel.Req req = model.request(request);
        if (req == null || req.lease == null) {
            return;
        }
        log.add("abort r" + request);
        boolean aborted = leases.get(request).abort(new IOException("aborted by the test"));
        assertThat(aborted).as("abort of r" + request + "'s lease").isEqualTo(model.abort(req.lease));
        settleAndCompare();
    }

    void advance(long nanos) {
        log.add("clock +" + (nanos >= PoolModel.SECOND ? nanos / PoolModel.SECOND + "s"
                : nanos >= PoolModel.MS ? nanos / PoolModel.MS + "ms" : nanos / 1000 + "µs"));
        clock.addAndGet(nanos);
        model.advance(nanos);
        settleAndCompare();
    }

    /** The scheduled maintenance runs, if one is scheduled. */
    void runMaintenance() {
        PoolModel.Timer timer = model.maintenance();
        if (timer == null) {
            return;
        }
        log.add("maintenance runs");
        runTask(timer);
        model.runMaintenance();
        settleAndCompare();
        checkMaintenanceDone();
    }

    /**
     * The grace or overrun timer of {@code request} runs; if it is not due yet, the clock first moves to its due time
     * (a scheduler runs no task early, but may run one late: other actions may come between).
     */
    void fireGrace(int request) {
        PoolModel.Timer timer = model.graceTimers().stream().filter(t -> t.req.id == request).findFirst()
                .orElse(null);
        if (timer == null) {
            return;
        }
        if (timer.due > model.now) {
            advance(timer.due - model.now);
        }
        log.add("timer of r" + request + " fires");
        runTask(timer);
        model.fireGrace(timer);
        settleAndCompare();
    }

    /**
     * Runs the pool's task that the model's {@code timer} stands for: the one at the same place in scheduling order
     * (the comparison holds the two lists of delays equal).
     */
    private void runTask(PoolModel.Timer timer) {
        List<ManualScheduler.Task> tasks = scheduler.pending();
        int index = model.timers.indexOf(timer);
        assertThat(tasks).as("scheduled tasks; %s", this).hasSize(model.timers.size());
        assertThat(scheduler.run(tasks.get(index))).isTrue();
    }

    /** The server closes an idle connection: if the watcher holds it, it wakes the pool. */
    void serverClosesIdle(int connection) {
        PoolModel.Conn conn = model.conn(connection);
        if (conn == null || conn.state != PoolModel.CState.IDLE) {
            return;
        }
        log.add("server closes idle c" + connection);
        FakeConnection fake = connections.get(connection);
        fake.healthy = false;
        conn.healthy = false;
        if (conn.fakeWatched) {
            wakeFromWatcher(fake, conn);
            return;
        }
        settleAndCompare();
    }

    /** The watcher hands a watched connection back although nothing is wrong with it (a TLS ticket, say). */
    void harmlessWake(int connection) {
        PoolModel.Conn conn = model.conn(connection);
        if (conn == null || conn.state != PoolModel.CState.IDLE || !conn.fakeWatched) {
            return;
        }
        log.add("watcher wakes c" + connection + " (harmless)");
        wakeFromWatcher(connections.get(connection), conn);
    }

    private void wakeFromWatcher(FakeConnection fake, PoolModel.Conn conn) {
        fake.watched = false; // the watcher lets go of it before it calls back
        fake.onWake.run();
        model.wake(conn);
        settleAndCompare();
    }

    void interrupt(int request) {
        PoolModel.Req req = model.request(request);
        if (req == null || req.state != PoolModel.RState.WAITING) {
            return;
        }
        log.add("interrupt r" + request);
        requestThreads.get(request).interrupt();
        model.abandon(req, PoolModel.Failure.INTERRUPTED);
        settleAndCompare();
    }

    /** A background drain of the origin ended (what the Drainer records), for the hand-off rule. */
    void learnDrain(int request, DrainSample sample) {
        PoolModel.Req req = model.request(request);
        if (req == null || req.lease == null || req.lease.state == PoolModel.LState.RELEASED) {
            return; // a lease that is out keeps its origin known to the pool
        }
        log.add("drain recorded: " + sample);
        long cap = setup.policy().maxTime().toNanos();
        leases.get(request).costs().recordDrain(sample.bytes, sample.nanos, sample.completed, cap);
        model.recordDrain(sample.bytes, sample.nanos, sample.completed);
        settleAndCompare();
    }

    /** Drains the model test records: quick, slow for a request but cheaper than a dial, slower than a dial, capped. */
    enum DrainSample {
        QUICK(100_000, 100_000, true), SLOW(2_000, 2 * PoolModel.MS, true), SLOWER(2_000, 20 * PoolModel.MS, true),
        GAVE_UP(0, 50 * PoolModel.MS, false);

        final long bytes;
        final long nanos;
        final boolean completed;

        DrainSample(long bytes, long nanos, boolean completed) {
            this.bytes = bytes;
            this.nanos = nanos;
            this.completed = completed;
        }
    }

    /** A fresh and a reused exchange measured their first byte: the dial cost and the spare wait move. */
    void learnRoundTrips(int request, long freshNanos, long reusedNanos) {
        PoolModel.Req req = model.request(request);
        if (req == null || req.lease == null || req.lease.state == PoolModel.LState.RELEASED) {
            return;
        }
        log.add("round trips recorded: fresh " + freshNanos / 1000 + " µs, reused " + reusedNanos / 1000 + " µs");
        CostModel costs = leases.get(request).costs();
        costs.recordFreshFirstByte(freshNanos);
        costs.recordReusedFirstByte(reusedNanos);
        model.recordRoundTrips(freshNanos, reusedNanos);
        settleAndCompare();
    }

    void closePool() {
        log.add("close");
        pool.close();
        model.close();
        settleAndCompare();
    }

    // ---- settling and comparing ----

    private void settleAndCompare() {
        settle();
        compare();
    }

    private void settle() {
        long start = System.nanoTime();
        while (true) {
            String why = unsettled();
            if (why == null) {
                return;
            }
            if (System.nanoTime() - start > SETTLE_TIMEOUT_NANOS) {
                fail("the pool did not settle (" + why + ") after " + log + "\nmodel: " + model + "\npool: " + pool);
            }
            LockSupport.parkNanos(20_000);
        }
    }

    /** Null when settled, else what is still moving. */
    private String unsettled() {
        for (Thread thread : finishedDials) {
            if (thread.isAlive()) {
                return "a completed dial is still running";
            }
        }
        ConnectionPool.Counts counts = pool.counts(ORIGIN);
        if (counts.dialing() != pendingDials.size() + model.held.size()) {
            return "dialing " + counts.dialing() + ", in the dialer " + pendingDials.size() + ", held "
                    + model.held.size();
        }
        int outstanding = 0;
        for (Map.Entry<Integer, CompletableFuture<Lease>> entry : results.entrySet()) {
            if (!entry.getValue().isDone()) {
                outstanding++;
                PoolModel.Req req = model.request(entry.getKey());
                if (req.state != PoolModel.RState.WAITING) {
                    // Past its deadline, interrupted, served or failed by the model's account: it must return.
                    return "r" + req.id + " has not returned (the model says " + req.state + ")";
                }
            }
        }
        if (counts.waiting() != outstanding) {
            return "waiting " + counts.waiting() + ", not returned " + outstanding;
        }
        for (PoolModel.Conn conn : model.conns) {
            if (conn.fakeClosed && !connections.get(conn.id).closed) {
                // Closed after the pool's lock is released, by the thread that closed it in the pool.
                return "c" + conn.id + " not closed yet";
            }
        }
        for (PoolModel.Req req : model.requests) {
            if (req.decision != null && !decisions.containsKey(req.id)) {
                // Traced outside the pool's lock, after the waiter was queued.
                return "r" + req.id + "'s hand-off decision not traced yet";
            }
        }
        return null;
    }

    private void compare() {
        String context = "after " + log + "\nmodel: " + model + "\npool: " + pool;
        // Requests: what came back from acquire, against what the model says.
        for (PoolModel.Req req : model.requests) {
            CompletableFuture<Lease> result = results.get(req.id);
            switch (req.state) {
                case WAITING -> assertThat(result.isDone()).as("r%d still waiting; %s", req.id, context).isFalse();
                case LEASED -> {
                    assertThat(result.isDone()).as("r%d served; %s", req.id, context).isTrue();
                    Lease lease = leases.computeIfAbsent(req.id, id -> {
                        try {
                            return result.get();
                        } catch (InterruptedException | ExecutionException e) {
                            throw new AssertionError("r" + id + " failed, the model gave it c" + req.lease.conn.id
                                    + "; " + context, e);
                        }
                    });
                    PoolModel.Lease expected = req.lease;
                    assertThat(lease.connection().id()).as("r%d's connection; %s", req.id, context)
                            .isEqualTo(expected.conn.id);
                    assertThat(List.of(lease.reused(), lease.wasIdle(), lease.idleNanos(), lease.afterDrain(),
                            lease.freshFromDial()))
                            .as("r%d's lease: reused, wasIdle, idleNanos, afterDrain, freshFromDial; %s", req.id,
                                    context)
                            .isEqualTo(List.of(expected.reused, expected.wasIdle, expected.idleNanos,
                                    expected.afterDrain, expected.freshFromDial));
                    assertThat(lease.isReleased()).as("r%d's lease released; %s", req.id, context)
                            .isEqualTo(expected.state == PoolModel.LState.RELEASED);
                    assertThat(lease.isAborted()).as("r%d's lease aborted; %s", req.id, context)
                            .isEqualTo(expected.state == PoolModel.LState.ABORTED);
                }
                case FAILED -> {
                    assertThat(result.isDone()).as("r%d failed; %s", req.id, context).isTrue();
                    assertThat(result.isCompletedExceptionally())
                            .as("r%d failed (%s), the pool served it; %s", req.id, req.failure, context).isTrue();
                    Throwable cause = result.exceptionNow();
                    switch (req.failure) {
                        case TIMEOUT -> assertThat(cause).as(context).isInstanceOfSatisfying(
                                HttpTimeoutException.class,
                                e -> assertThat(e.kind()).isEqualTo(HttpTimeoutException.Kind.CALL));
                        case INTERRUPTED -> assertThat(cause).as(context).isInstanceOf(InterruptedIOException.class);
                        case CLIENT_CLOSED -> assertThat(cause).as(context).isExactlyInstanceOf(IOException.class)
                                .hasMessage("client closed");
                        case DIAL_FAILED -> assertThat(cause).as(context).isExactlyInstanceOf(IOException.class)
                                .hasMessage("connection refused");
                    }
                }
            }
        }
        // Counters, under one hold of the pool's lock.
        ConnectionPool.Counts counts = pool.counts(ORIGIN);
        assertThat(counts.total()).as("total = idle + leased + draining + dialing; %s", context)
                .isEqualTo(counts.idle() + counts.leased() + counts.draining() + counts.dialing());
        assertThat(counts.total()).as("total ≤ maxConnsPerHost; %s", context).isLessThanOrEqualTo(setup.maxConns());
        assertThat(counts).as("counts; %s", context).isEqualTo(new ConnectionPool.Counts(model.total,
                model.idle.size(), model.leased, model.draining.size(), model.dialing(), model.waiters.size()));
        assertThat(pool.idleCount()).as("idle across origins; %s", context).isEqualTo(model.idle.size());
        assertThat(List.of(pool.checkouts(), pool.releases(), pool.handOffWaits(), pool.handOffDials(),
                pool.spareDials(), pool.spareWaits(), pool.heldDials()))
                .as("checkouts, releases, hand-off waits, hand-off dials, spare dials, spare waits, held dials; %s",
                        context)
                .isEqualTo(List.of(model.checkouts, model.releases, model.handOffWaits, model.handOffDials,
                        model.spareDials, model.spareWaits, model.heldDials));
        // Hand-off decisions, one per request that found nothing idle under a policy with hand-off (retries excepted).
        for (PoolModel.Req req : model.requests) {
            List<HandOffDecision> traced = decisions.getOrDefault(req.id, List.of());
            if (req.decision == null) {
                assertThat(traced).as("r%d decided nothing; %s", req.id, context).isEmpty();
            } else {
                PoolModel.Decision expected = req.decision;
                assertThat(traced).as("r%d's hand-off decision; %s", req.id, context).singleElement()
                        .satisfies(d -> assertThat(new PoolModel.Decision(d.kind(), d.expectedDrain(), d.dialCost(),
                                d.spareWait())).as("r%d's hand-off decision (%s); %s", req.id, d, context)
                                .isEqualTo(expected));
            }
            assertThat(dialsByRequest.getOrDefault(req.id, 0)).as("dials for r%d; %s", req.id, context)
                    .isEqualTo(req.dialsStarted).isLessThanOrEqualTo(1);
        }
        assertThat(model.violations()).as("the pool's rules broken; %s", context).isEmpty();
        long outstandingLeases = model.leases(PoolModel.LState.HELD, PoolModel.LState.ABORTED).size();
        assertThat(pool.checkouts() - pool.releases()).as("checkouts - releases = leases out; %s", context)
                .isEqualTo(outstandingLeases);
        var snapshot = stats.snapshot(pool.gauges(), 0, 0);
        assertThat(List.of(snapshot.connectionsOpened(), snapshot.connectionsClosed()))
                .as("connections opened, closed; %s", context).isEqualTo(List.of(model.opened, model.closedByPool));
        // Dials in flight, by the request each was started for.
        assertThat(pendingDials.stream().map(PendingDial::request).sorted().toList())
                .as("dials in flight (by request); %s", context)
                .isEqualTo(model.dials.stream().map(r -> r.id).sorted().toList());
        // Every connection: open or closed, watched or not, as the model says; no two leases out share one.
        for (PoolModel.Conn conn : model.conns) {
            FakeConnection fake = connections.get(conn.id);
            assertThat(fake.closed).as("c%d closed; %s", conn.id, context).isEqualTo(conn.fakeClosed);
            assertThat(fake.watched).as("c%d watched; %s", conn.id, context).isEqualTo(conn.fakeWatched);
        }
        List<Integer> leased = model.leases(PoolModel.LState.HELD, PoolModel.LState.ABORTED).stream()
                .map(l -> l.conn.id).toList();
        assertThat(leased).as("a connection is leased once at a time; %s", context).doesNotHaveDuplicates();
        for (PoolModel.Conn conn : model.idle) {
            assertThat(leased).as("an idle connection is not leased; %s", context).doesNotContain(conn.id);
            assertThat(conn.fakeClosed).as("an idle connection is open; %s", context).isFalse();
        }
        // Maintenance is scheduled exactly while connections are idle (issue 13, items 1 and 4); grace and overrun
        // timers as the hand-off rule says, in the same order.
        List<ManualScheduler.Task> tasks = scheduler.pending();
        assertThat(tasks.stream().map(t -> t.delayNanos).toList()).as("tasks scheduled (%s); %s", model.timers,
                context).isEqualTo(model.timers.stream().map(t -> t.delay).toList());
        if (!model.idle.isEmpty()) {
            assertThat(model.maintenance()).as("maintenance pending while connections idle; %s", context).isNotNull();
        }
    }

    /**
     * Right after maintenance ran: no idle connection is past its idle timeout, every one idle for a second or
     * longer is watched, and the next run comes no later than the next expiry or watch.
     */
    private void checkMaintenanceDone() {
        String context = "after " + log + "\nmodel: " + model + "\npool: " + pool;
        long now = clock.get();
        long due = Long.MAX_VALUE;
        for (PoolModel.Conn conn : model.idle) {
            long age = now - conn.idleSince;
            assertThat(age).as("c%d idle for less than the idle timeout; %s", conn.id, context)
                    .isLessThan(model.idleTimeout);
            due = Math.min(due, model.idleTimeout - age);
            if (age >= PoolModel.WATCH_AFTER) {
                assertThat(connections.get(conn.id).watched).as("c%d, idle %d ms, watched; %s", conn.id,
                        age / PoolModel.MS, context).isTrue();
            } else {
                due = Math.min(due, PoolModel.WATCH_AFTER - age);
            }
        }
        if (due != Long.MAX_VALUE) {
            PoolModel.Timer next = model.maintenance();
            assertThat(next).as("next maintenance; %s", context).isNotNull();
            assertThat(scheduler.pending().get(model.timers.indexOf(next)).delayNanos).as("next maintenance; %s",
                    context).isLessThanOrEqualTo(due);
        }
    }

    // ---- end ----

    /**
     * Closes the pool, gives back every lease, lets every dial end: then every connection is closed, every checkout
     * was released, nothing is counted any more and nothing is scheduled.
     */
    void finishAndCheck() {
        closePool();
        for (PoolModel.Lease lease : model.leases(PoolModel.LState.HELD, PoolModel.LState.ABORTED)) {
            release(lease.req.id, true);
        }
        while (!model.dials.isEmpty()) {
            completeDial(model.dials.getFirst().id, model.dials.size() % 2 == 0);
        }
        // Close cancelled the grace and overrun timers; the ready timers of held dials ended with them.
        while (!model.timers.isEmpty()) {
            PoolModel.Timer timer = model.timers.getFirst();
            log.add("timer of r" + timer.req.id + " fires");
            runTask(timer);
            model.fireGrace(timer);
            settleAndCompare();
        }
        String context = "after " + log + "\npool: " + pool;
        assertThat(pool.releases()).as("releases = checkouts; %s", context).isEqualTo(pool.checkouts());
        assertThat(pool.counts(ORIGIN).total()).as("nothing counted; %s", context).isZero();
        assertThat(pool.isQuiet()).as(context).isTrue();
        assertThat(connections.values()).as("every connection closed; %s", context).allMatch(c -> c.closed);
        assertThat(scheduler.pending()).as("nothing scheduled; %s", context).isEmpty();
    }

    /** After a failure: unblock whatever still runs, without checking anything. */
    void cleanUp() {
        pool.close();
        for (PendingDial dial : pendingDials) {
            dial.gate().complete(null);
        }
        requestThreads.values().forEach(Thread::interrupt);
    }

    @Override
    public String toString() {
        return setup + " " + log;
    }
}
