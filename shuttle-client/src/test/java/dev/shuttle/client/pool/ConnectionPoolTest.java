package dev.shuttle.client.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.DrainPolicy;
import dev.shuttle.client.HandOffDecision;
import dev.shuttle.client.HttpTimeoutException;
import dev.shuttle.client.Origin;
import dev.shuttle.client.PoolConfig;
import dev.shuttle.client.internal.Deadline;
import dev.shuttle.client.internal.StatsRecorder;
import dev.shuttle.client.testing.Await;
import dev.shuttle.client.testing.ManualScheduler;
import dev.shuttle.client.testing.RecordingTrace;
import dev.shuttle.client.testing.StagedHook;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The pool with fake connections, a dialer the test gates, and a fake clock: checkout order, Go's wantConn rule,
 * FIFO waiting, exactly-once release, idle sizing, cleanup and hand-off, without sockets or sleeps.
 */
class ConnectionPoolTest {
    private static final Origin ORIGIN = new Origin("http", "example.test", 80);
    private static final long SECOND = 1_000_000_000L;

    private final AtomicLong now = new AtomicLong(1_000 * SECOND);
    private final AtomicLong ids = new AtomicLong();
    private final List<FakeConnection> dialed = new CopyOnWriteArrayList<>();
    /** Dials block until the test releases a permit; unlimited unless {@link #gateDials()} was called. */
    private final Semaphore dialPermits = new Semaphore(Integer.MAX_VALUE);
    private volatile boolean failDials;
    /** Streams per connection when the dialer opens HTTP/2 ones; 0: HTTP/1.1. */
    private volatile int multiplexedStreams;
    private final StatsRecorder stats = new StatsRecorder();
    private final ManualScheduler scheduler = new ManualScheduler();
    /** What the requests of the held-connection tests trace. */
    private final RecordingTrace heldTrace = new RecordingTrace();
    private ConnectionPool pool;

    private ConnectionPool pool(PoolConfig config, DrainPolicy policy) {
        Dialer dialer = (origin, deadline, trace) -> {
            dialPermits.acquireUninterruptibly();
            if (failDials) {
                throw new IOException("connection refused");
            }
            FakeConnection connection = new FakeConnection(ids.incrementAndGet(), origin);
            if (multiplexedStreams > 0) {
                connection.multiplexed = true;
                connection.streamCapacity = multiplexedStreams;
            }
            dialed.add(connection);
            return connection;
        };
        pool = new ConnectionPool(config, policy, dialer, now::get, scheduler, stats);
        return pool;
    }

    private ConnectionPool pool() {
        return pool(PoolConfig.defaults(), DrainPolicy.defaults());
    }

    private void gateDials() {
        dialPermits.drainPermits();
    }

    private Lease acquire() throws IOException {
        return pool.acquire(ORIGIN, false, false, Deadline.NONE, ClientTrace.NONE);
    }

    /** A checkout for a request that cannot be retried: recently idle connections are checked first. */
    private Lease acquireChecked() throws IOException {
        return pool.acquire(ORIGIN, false, true, Deadline.NONE, ClientTrace.NONE);
    }

    private CompletableFuture<Lease> acquireAsync() {
        return acquireAsync(false, ClientTrace.NONE);
    }

    private CompletableFuture<Lease> acquireAsync(ClientTrace trace) {
        return acquireAsync(false, trace);
    }

    /** A retry's checkout: it takes only a connection that never carried a request (or, HTTP/2, a newer one). */
    private CompletableFuture<Lease> acquireFreshAsync() {
        return acquireAsync(true, ClientTrace.NONE);
    }

    /** The retry of a request whose exchange on {@code failed} failed, as a call makes it, on a thread of its own. */
    private CompletableFuture<Lease> acquireRetryAsync(Lease failed) {
        CompletableFuture<Lease> future = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                future.complete(pool.acquireRetry(ORIGIN, failed, Deadline.NONE, ClientTrace.NONE));
            } catch (Throwable t) {
                future.completeExceptionally(t);
            }
        });
        return future;
    }

    /** A checkout on a virtual thread of its own, for a request that waits. */
    private CompletableFuture<Lease> acquireAsync(boolean fresh, ClientTrace trace) {
        CompletableFuture<Lease> future = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                future.complete(pool.acquire(ORIGIN, fresh, false, Deadline.NONE, trace));
            } catch (Throwable t) {
                future.completeExceptionally(t);
            }
        });
        return future;
    }

    /** Every test gives back every lease it took, exactly once: a second release throws, a missing one shows here. */
    @AfterEach
    void checkExactlyOnce() {
        if (pool != null) {
            pool.close();
            assertThat(pool.releases()).as("releases").isEqualTo(pool.checkouts());
        }
    }

    @Test
    void idleConnectionsAreReusedMostRecentFirst() throws Exception {
        pool();
        Lease a = acquire();
        Lease b = acquire();
        assertThat(dialed).hasSize(2);
        a.release(true);
        now.addAndGet(SECOND);
        b.release(true);
        Lease next = acquire();
        assertThat(next.connection()).isSameAs(b.connection());
        assertThat(next.reused()).isTrue();
        assertThat(next.wasIdle()).isTrue();
        assertThat(next.idleNanos()).isZero();
        Lease after = acquire();
        assertThat(after.connection()).isSameAs(a.connection());
        assertThat(after.idleNanos()).isEqualTo(SECOND);
        next.release(true);
        after.release(true);
        assertThat(pool.checkouts()).isEqualTo(pool.releases());
    }

    @Test
    void aSecondReleaseThrowsSoAConnectionNeverEntersThePoolTwice() throws Exception {
        pool();
        Lease lease = acquire();
        lease.release(true);
        assertThatThrownBy(() -> lease.release(true)).isInstanceOf(IllegalStateException.class);
        assertThat(pool.idleCount()).isEqualTo(1);
    }

    @Test
    void aRequestWaitingForItsDialTakesAConnectionReleasedMeanwhileAndTheDialGoesIdle() throws Exception {
        pool();
        Lease first = acquire();
        gateDials();
        CompletableFuture<Lease> waiting = acquireAsync();
        Await.until("dial started", () -> dialPermits.hasQueuedThreads());
        first.release(true);
        Lease second = waiting.get();
        assertThat(second.connection()).isSameAs(first.connection());
        assertThat(second.wasIdle()).isFalse();
        dialPermits.release();
        Await.until("dialed connection pooled", () -> pool.idleCount() == 1);
        assertThat(dialed).hasSize(2);
        second.release(true);
        assertThat(pool.idleCount()).isEqualTo(2);
    }

    @Test
    void requestsBeyondMaxConnsPerHostWaitInFifoOrder() throws Exception {
        pool(PoolConfig.builder().maxConnsPerHost(1).build(), DrainPolicy.defaults());
        Lease only = acquire();
        CompletableFuture<Lease> first = acquireAsync();
        Await.until("first queued", () -> pool.waitingCount(ORIGIN) == 1);
        CompletableFuture<Lease> second = acquireAsync();
        Await.until("second queued", () -> pool.waitingCount(ORIGIN) == 2);
        only.release(true);
        Lease got = first.get();
        assertThat(second).isNotDone();
        got.release(true);
        second.get().release(true);
        assertThat(dialed).hasSize(1);
    }

    @Test
    void aFailedDialFailsTheRequestThatAskedForIt() {
        pool();
        failDials = true;
        assertThatThrownBy(this::acquire).isInstanceOf(IOException.class).hasMessageContaining("refused");
        assertThat(pool.connectionCount(ORIGIN)).isZero();
    }

    @Test
    void waitingPastTheDeadlineIsACallTimeout() throws Exception {
        pool(PoolConfig.builder().maxConnsPerHost(1).build(), DrainPolicy.defaults());
        Lease only = acquire();
        assertThatThrownBy(() -> pool.acquire(ORIGIN, false, false, now.get(), ClientTrace.NONE))
                .isInstanceOfSatisfying(HttpTimeoutException.class,
                        e -> assertThat(e.kind()).isEqualTo(HttpTimeoutException.Kind.CALL));
        only.release(true);
        assertThat(pool.idleCount()).isEqualTo(1);
    }

    @Test
    void anUnhealthyIdleConnectionIsClosedOnACheckedCheckoutAndAnotherDialed() throws Exception {
        pool();
        Lease lease = acquire();
        FakeConnection stale = (FakeConnection) lease.connection();
        lease.release(true);
        stale.healthy = false; // the server closed it while idle
        Lease fresh = acquireChecked();
        assertThat(fresh.connection()).isNotSameAs(stale);
        assertThat(stale.closed).isTrue();
        assertThat(fresh.reused()).isFalse();
        fresh.release(true);
    }

    @Test
    void aRetryTakesOnlyANeverUsedConnection() throws Exception {
        pool();
        Lease used = acquire();
        used.release(true);
        Lease retry = pool.acquire(ORIGIN, true, false, Deadline.NONE, ClientTrace.NONE);
        assertThat(retry.connection()).isNotSameAs(used.connection());
        assertThat(retry.reused()).isFalse();
        retry.release(true);
    }

    @Test
    void adaptiveIdleKeepsTheRecentPeakAndFixedLimitsTrimTheOldest() throws Exception {
        pool();
        List<Lease> burst = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            burst.add(acquire());
        }
        burst.forEach(l -> l.release(true));
        assertThat(pool.idleCount()).isEqualTo(5);
        pool.close();

        pool(PoolConfig.builder().maxIdlePerHost(2).build(), DrainPolicy.defaults());
        burst.clear();
        dialed.clear();
        for (int i = 0; i < 5; i++) {
            burst.add(acquire());
        }
        burst.forEach(l -> l.release(true));
        assertThat(pool.idleCount()).isEqualTo(2);
        assertThat(dialed.stream().filter(c -> c.closed).count()).isEqualTo(3);
    }

    @Test
    void theAdaptiveAllowanceDecaysOverTheIdleTimeout() throws Exception {
        pool(PoolConfig.builder().idleTimeout(Duration.ofSeconds(90)).build(), DrainPolicy.defaults());
        List<Lease> burst = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            burst.add(acquire());
        }
        burst.forEach(l -> l.release(true));
        assertThat(pool.idleCount()).isEqualTo(4);
        // 60 s later the peak of 4 has decayed to ceil(4 * 30/90) = 2: a released connection pushes the oldest out.
        now.addAndGet(60 * SECOND);
        Lease one = acquire();
        one.release(true);
        assertThat(pool.idleCount()).isEqualTo(2);
    }

    @Test
    void maxIdleTotalEvictsTheLeastRecentlyUsedAcrossOrigins() throws Exception {
        pool(PoolConfig.builder().maxIdleTotal(1).build(), DrainPolicy.defaults());
        Origin other = new Origin("http", "other.test", 80);
        Lease a = acquire();
        Lease b = pool.acquire(other, false, false, Deadline.NONE, ClientTrace.NONE);
        a.release(true);
        now.addAndGet(SECOND);
        b.release(true);
        assertThat(pool.idleCount()).isEqualTo(1);
        assertThat(((FakeConnection) a.connection()).closed).isTrue();
        assertThat(((FakeConnection) b.connection()).closed).isFalse();
    }

    @Test
    void maintenanceClosesExpiredConnectionsAndReportsTheNextDeadline() throws Exception {
        pool(PoolConfig.builder().idleTimeout(Duration.ofSeconds(10)).build(), DrainPolicy.defaults());
        assertThat(pool.maintain(now.get())).isEqualTo(-1);
        Lease a = acquire();
        Lease b = acquire();
        a.release(true);
        now.addAndGet(4 * SECOND);
        b.release(true);
        now.addAndGet(SECOND); // both watched from here on; the next thing due is a's expiry
        assertThat(pool.maintain(now.get())).isEqualTo(5 * SECOND);
        now.addAndGet(5 * SECOND);
        assertThat(pool.maintain(now.get())).isEqualTo(4 * SECOND);
        assertThat(((FakeConnection) a.connection()).closed).isTrue();
        assertThat(pool.idleCount()).isEqualTo(1);
        now.addAndGet(4 * SECOND);
        assertThat(pool.maintain(now.get())).isEqualTo(-1);
        assertThat(pool.idleCount()).isZero();
        assertThat(stats.snapshot(pool.gauges(), 0, 0).connectionsClosed()).isEqualTo(2);
        assertThat(scheduler.pending()).as("nothing left to maintain").isEmpty();
    }

    @Test
    void aConnectionIdlingWhileMaintenanceClosesOthersIsStillExpiredLater() throws Exception {
        // Issue 13, item 1: a connection that went idle while the cleanup was finishing found it "scheduled", and the
        // cleanup then decided not to run again: it stayed open until the pool was touched again. Here B goes idle
        // from inside A's close, between the expiry and the decision about the next run.
        pool(PoolConfig.builder().idleTimeout(Duration.ofSeconds(10)).build(), DrainPolicy.defaults());
        Lease a = acquire();
        Lease b = acquire();
        a.release(true);
        FakeConnection first = (FakeConnection) a.connection();
        first.onClose = () -> b.release(true);
        now.addAndGet(10 * SECOND);
        assertThat(scheduler.runPending()).isEqualTo(1); // expires A, whose close idles B
        assertThat(first.closed).isTrue();
        assertThat(pool.idleCount()).isEqualTo(1);
        assertThat(scheduler.pending()).as("a run is due for B").hasSize(1);
        now.addAndGet(10 * SECOND);
        while (scheduler.runPending() > 0 && pool.idleCount() > 0) {
            // run until B's expiry
        }
        assertThat(((FakeConnection) b.connection()).closed).isTrue();
    }

    @Test
    void closingThePoolCancelsItsMaintenance() throws Exception {
        // Issue 13, item 4: the cleanup task kept a closed client reachable for up to the idle timeout.
        pool();
        acquire().release(true);
        assertThat(scheduler.pending()).hasSize(1);
        pool.close();
        assertThat(scheduler.pending()).isEmpty();
    }

    @Test
    void aRecentlyIdleConnectionIsTakenWithoutACheckForARetryableRequest() throws Exception {
        pool();
        Lease lease = acquire();
        FakeConnection connection = (FakeConnection) lease.connection();
        lease.release(true);
        connection.healthy = false; // would fail a check; not looked at, the retry rule covers this
        Lease again = acquire();
        assertThat(again.connection()).isSameAs(connection);
        again.release(false);
    }

    @Test
    void aConnectionIdleForASecondIsWatchedAndClosedWhenTheServerClosesIt() throws Exception {
        pool();
        Lease lease = acquire();
        FakeConnection connection = (FakeConnection) lease.connection();
        lease.release(true);
        now.addAndGet(ConnectionPool.WATCH_AFTER_NANOS);
        scheduler.runPending();
        assertThat(connection.watched).isTrue();
        connection.healthy = false; // the server closed it: the watcher wakes
        connection.onWake.run();
        assertThat(connection.closed).isTrue();
        assertThat(pool.idleCount()).isZero();
        assertThat(stats.snapshot(pool.gauges(), 0, 0).connectionsClosed()).isEqualTo(1);
    }

    @Test
    void aWatchedConnectionWokenByHarmlessBytesIsWatchedAgain() throws Exception {
        pool();
        Lease lease = acquire();
        FakeConnection connection = (FakeConnection) lease.connection();
        lease.release(true);
        now.addAndGet(ConnectionPool.WATCH_AFTER_NANOS);
        scheduler.runPending();
        connection.watched = false; // the watcher gave it back (a TLS session ticket, say): healthy still
        connection.onWake.run();
        assertThat(connection.closed).isFalse();
        assertThat(connection.watched).isTrue();
        Lease again = acquire();
        assertThat(again.connection()).isSameAs(connection);
        assertThat(connection.watched).as("taken back from the watcher").isFalse();
        again.release(true);
    }

    @Test
    void aCheckoutThatLosesToTheWatcherChecksTheConnectionItself() throws Exception {
        pool();
        Lease lease = acquire();
        FakeConnection connection = (FakeConnection) lease.connection();
        lease.release(true);
        now.addAndGet(ConnectionPool.WATCH_AFTER_NANOS);
        scheduler.runPending();
        connection.quietWhileWatched = false; // the watcher saw readiness first
        connection.healthy = false;
        Lease fresh = acquire();
        assertThat(fresh.connection()).isNotSameAs(connection);
        assertThat(connection.closed).isTrue();
        connection.onWake.run(); // the watcher's own wake-up, late: the entry is gone, nothing happens
        fresh.release(true);
        assertThat(pool.idleCount()).isEqualTo(1);
    }

    @Test
    void anOriginUnusedForTheIdleTimeoutIsForgottenButCountedInTheTotals() throws Exception {
        // Issue 13, item 7: the per-origin counters grew with every origin a client ever talked to.
        pool(PoolConfig.builder().idleTimeout(Duration.ofSeconds(10)).build(), DrainPolicy.defaults());
        acquire().release(true);
        assertThat(stats.originCount()).isEqualTo(1);
        now.addAndGet(10 * SECOND);
        pool.maintain(now.get());
        assertThat(stats.originCount()).isZero();
        var snapshot = stats.snapshot(pool.gauges(), 0, 0);
        assertThat(snapshot.connectionsOpened()).isEqualTo(1);
        assertThat(snapshot.connectionsClosed()).isEqualTo(1);
    }

    @Test
    void anAbortAfterTheReleaseLeavesTheConnectionAlone() throws Exception {
        // Issue 13, item 2: a close that gave up waiting for a read aborted the connection even though the reader had
        // just released it, closing a connection that was idle or another call's.
        pool();
        Lease lease = acquire();
        lease.release(true);
        assertThat(lease.abort(new IOException("late"))).isFalse();
        assertThat(((FakeConnection) lease.connection()).closed).isFalse();
        Lease next = acquire();
        assertThat(next.connection()).isSameAs(lease.connection());
        assertThat(next.abort(new IOException("in time"))).isTrue();
        assertThat(((FakeConnection) next.connection()).closed).isTrue();
        next.release(true); // returned after an abort: closed, not pooled
        assertThat(pool.idleCount()).isZero();
    }

    @Test
    void aRequestWaitsForADrainInsteadOfDialingAndGetsTheDrainedConnection() throws Exception {
        pool();
        Lease lease = acquire();
        assertThat(lease.startDrain(new DrainProgress(now.get(), 1000))).isTrue();
        CompletableFuture<Lease> waiting = acquireAsync();
        Await.until("waiting for the drain", () -> pool.handOffWaits() == 1);
        assertThat(waiting).isNotDone();
        lease.release(true); // the drain reached the end
        Lease handed = waiting.get();
        assertThat(handed.connection()).isSameAs(lease.connection());
        assertThat(handed.afterDrain()).isTrue();
        assertThat(dialed).hasSize(1);
        handed.release(true);
    }

    @Test
    void whenTheAwaitedDrainFailsTheWaiterDials() throws Exception {
        pool();
        Lease lease = acquire();
        lease.startDrain(new DrainProgress(now.get(), -1));
        CompletableFuture<Lease> waiting = acquireAsync();
        Await.until("waiting for the drain", () -> pool.handOffWaits() == 1);
        lease.release(false); // gave up: closed
        Lease fresh = waiting.get();
        assertThat(fresh.connection()).isNotSameAs(lease.connection());
        assertThat(fresh.reused()).isFalse();
        fresh.release(true);
    }

    @Test
    void withoutHandOffTheRequestDialsAtOnceButTakesTheDrainedConnectionIfFirst() throws Exception {
        pool(PoolConfig.defaults(), DrainPolicy.bounded(1000, Duration.ofMillis(50)));
        Lease lease = acquire();
        lease.startDrain(new DrainProgress(now.get(), 1000));
        gateDials();
        CompletableFuture<Lease> waiting = acquireAsync();
        Await.until("dial started", () -> dialPermits.hasQueuedThreads());
        lease.release(true);
        Lease drained = waiting.get();
        assertThat(drained.connection()).isSameAs(lease.connection());
        dialPermits.release();
        Await.until("dialed connection pooled", () -> pool.idleCount() == 1);
        assertThat(pool.handOffWaits()).isZero();
        drained.release(true);
    }

    // --- Hand-off with spares (issue 14): fake clock, gated dialer, manual scheduler; no sockets, no sleeps. ---

    private static final long MS = 1_000_000;

    /** Teaches the pool's cost model: dials cost 20 ms, {@code drains} drains of {@code drainMs} each completed. */
    private void learn(int drains, long drainMs) {
        CostModel costs = pool.costs(ORIGIN);
        costs.recordFreshFirstByte(20 * MS);
        for (int i = 0; i < drains; i++) {
            costs.recordDrain(1000, drainMs * MS, true, 50 * MS);
        }
    }

    @Test
    void aSlowDrainIsWaitedForWithASpareDialedBesideAndTheNextRequestTakesTheSpare() throws Exception {
        pool();
        Lease first = acquire();
        learn(3, 10); // chunked drains take 10 ms: cheaper than a 20 ms dial, slow for back-to-back requests
        first.startDrain(new DrainProgress(now.get(), -1));
        gateDials();
        List<HandOffDecision> decisions = new CopyOnWriteArrayList<>();
        ClientTrace trace = new ClientTrace() {
            @Override
            public void handOff(HandOffDecision decision) {
                decisions.add(decision);
            }
        };
        CompletableFuture<Lease> waiting = acquireAsync(trace);
        // The decision is traced outside the pool's lock, so it may come just after the dial it started.
        Await.until("spare dial started and traced", () -> dialPermits.hasQueuedThreads() && !decisions.isEmpty());
        assertThat(decisions).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo(HandOffDecision.Kind.WAIT_FOR_DRAIN_AND_DIAL_SPARE);
            assertThat(d.expectedDrain()).isEqualTo(Duration.ofMillis(10));
            assertThat(d.dialCost()).isEqualTo(Duration.ofMillis(20));
        });
        now.addAndGet(10 * MS);
        first.release(true); // the drain ended first: the waiter gets the drained connection
        Lease second = waiting.get();
        assertThat(second.connection()).isSameAs(first.connection());
        assertThat(second.afterDrain()).isTrue();
        dialPermits.release();
        Await.until("the spare is idle", () -> pool.idleCount() == 1);
        second.startDrain(new DrainProgress(now.get(), -1));
        Lease third = acquire(); // the spare, ready: no wait for the second drain
        assertThat(third.connection()).isNotSameAs(first.connection());
        assertThat(third.reused()).isFalse();
        assertThat(third.wasIdle()).isTrue();
        assertThat(pool.spareDials()).isEqualTo(1);
        second.release(true);
        third.release(true);
    }

    @Test
    void withASpareDialOnItsWayTheNextRequestCountsOnItInsteadOfDialingAnother() throws Exception {
        pool();
        Lease first = acquire();
        learn(3, 10);
        first.startDrain(new DrainProgress(now.get(), -1));
        gateDials();
        CompletableFuture<Lease> second = acquireAsync();
        Await.until("spare dial started", () -> dialPermits.hasQueuedThreads());
        first.release(true);
        Lease secondLease = second.get(); // drained connection; the spare dial is still on its way
        secondLease.startDrain(new DrainProgress(now.get(), -1));
        CompletableFuture<Lease> third = acquireAsync();
        Await.until("third counts on the spare", () -> pool.spareWaits() == 1);
        assertThat(pool.connectionCount(ORIGIN)).as("one connection plus one dial in flight").isEqualTo(2);
        dialPermits.release();
        Lease thirdLease = third.get();
        assertThat(thirdLease.connection()).isNotSameAs(first.connection());
        assertThat(dialed).hasSize(2);
        secondLease.release(true);
        thirdLease.release(true);
    }

    @Test
    void aRequestCountingOnASpareWhoseDialFailsDialsForItself() throws Exception {
        pool();
        Lease first = acquire();
        learn(3, 10);
        first.startDrain(new DrainProgress(now.get(), -1));
        gateDials();
        CompletableFuture<Lease> second = acquireAsync();
        Await.until("spare dial started", () -> dialPermits.hasQueuedThreads());
        first.release(true);
        Lease secondLease = second.get();
        secondLease.startDrain(new DrainProgress(now.get(), -1));
        CompletableFuture<Lease> third = acquireAsync();
        Await.until("third counts on the spare", () -> pool.spareWaits() == 1);
        failDials = true;
        dialPermits.release(); // the spare dial fails: the third request must not be left counting on it
        Await.until("third dials for itself", () -> dialPermits.hasQueuedThreads());
        failDials = false;
        dialPermits.release();
        Lease thirdLease = third.get();
        assertThat(thirdLease.reused()).isFalse();
        secondLease.release(true);
        thirdLease.release(true);
    }

    @Test
    void aQuickDrainIsWaitedForWithoutASpare() throws Exception {
        pool();
        Lease first = acquire();
        learn(3, 0); // drains end in well under a millisecond
        pool.costs(ORIGIN).recordDrain(1_000_000, MS / 4, true, 50 * MS);
        first.startDrain(new DrainProgress(now.get(), 1000));
        gateDials();
        CompletableFuture<Lease> waiting = acquireAsync();
        Await.until("waiting for the drain", () -> pool.handOffWaits() == 1);
        first.release(true);
        Lease second = waiting.get();
        assertThat(second.connection()).isSameAs(first.connection());
        assertThat(dialPermits.hasQueuedThreads()).isFalse();
        assertThat(pool.spareDials()).isZero();
        assertThat(pool.connectionCount(ORIGIN)).isEqualTo(1);
        second.release(true);
    }

    @Test
    void withNoDrainHistoryTheRequestWaitsAGraceThenDialsAsWell() throws Exception {
        pool();
        Lease first = acquire();
        first.startDrain(new DrainProgress(now.get(), -1));
        gateDials();
        CompletableFuture<Lease> waiting = acquireAsync();
        Await.until("waiting for the drain", () -> pool.handOffWaits() == 1);
        Await.until("grace scheduled", () -> scheduler.pending().stream()
                .anyMatch(t -> t.delayNanos == CostModel.MIN_SPARE_WAIT_NANOS));
        ManualScheduler.Task grace = scheduler.pending().stream()
                .filter(t -> t.delayNanos == CostModel.MIN_SPARE_WAIT_NANOS).findFirst().orElseThrow();
        assertThat(dialPermits.hasQueuedThreads()).as("no dial during the grace").isFalse();
        now.addAndGet(grace.delayNanos);
        scheduler.runPending(); // the drain goes on past the grace: dial as well
        Await.until("dial after the grace", () -> dialPermits.hasQueuedThreads());
        dialPermits.release();
        Lease second = waiting.get(); // the dial was first; the drain, when it ends, leaves a spare
        assertThat(second.reused()).isFalse();
        first.release(true);
        assertThat(pool.idleCount()).isEqualTo(1);
        second.release(true);
    }

    @Test
    void aFirstDrainThatEndsWithinTheGraceCostsNoDial() throws Exception {
        pool();
        Lease first = acquire();
        first.startDrain(new DrainProgress(now.get(), -1));
        gateDials();
        CompletableFuture<Lease> waiting = acquireAsync();
        Await.until("waiting for the drain", () -> pool.handOffWaits() == 1);
        first.release(true);
        Lease second = waiting.get();
        assertThat(second.connection()).isSameAs(first.connection());
        scheduler.runPending(); // the grace ends after the request was served: nothing to do
        assertThat(dialPermits.hasQueuedThreads()).isFalse();
        assertThat(dialed).hasSize(1);
        second.release(true);
    }

    @Test
    void afterADrainThatGaveUpTheNextRequestDialsAtOnce() throws Exception {
        // A stalled origin costs at most one cap: the first drain that hits it makes the next request dial.
        pool();
        Lease first = acquire();
        learn(5, 1);
        pool.costs(ORIGIN).recordDrain(100, 50 * MS, false, 50 * MS);
        first.startDrain(new DrainProgress(now.get(), -1));
        gateDials();
        CompletableFuture<Lease> waiting = acquireAsync();
        Await.until("dialing", () -> dialPermits.hasQueuedThreads());
        assertThat(pool.handOffDials()).isEqualTo(1);
        assertThat(pool.handOffWaits()).isZero();
        dialPermits.release();
        Lease second = waiting.get();
        assertThat(second.reused()).isFalse();
        first.release(false);
        second.release(true);
    }

    @Test
    void aDrainThatOverrunsItsEstimateByADialsTimeMakesTheWaiterDialAsWell() throws Exception {
        pool();
        Lease first = acquire();
        CostModel costs = pool.costs(ORIGIN);
        costs.recordFreshFirstByte(20 * MS);
        costs.recordDrain(1000, MS / 2, true, 50 * MS); // 0.5 ms drains: waited for alone
        first.startDrain(new DrainProgress(now.get(), -1));
        gateDials();
        CompletableFuture<Lease> waiting = acquireAsync();
        Await.until("waiting for the drain", () -> pool.handOffWaits() == 1);
        // The wait is counted just before the check is scheduled, in the same hold of the pool's lock.
        Await.until("overrun check scheduled", () -> scheduler.pending().stream()
                .anyMatch(t -> t.delayNanos == MS / 2 + 20 * MS)); // the estimate plus a real dial
        ManualScheduler.Task overrun = scheduler.pending().stream()
                .filter(t -> t.delayNanos == MS / 2 + 20 * MS).findFirst().orElseThrow();
        assertThat(dialPermits.hasQueuedThreads()).isFalse();
        now.addAndGet(overrun.delayNanos);
        scheduler.runPending(); // the drain stalls: the waiter dials as well, and takes whichever is first
        Await.until("dial after the overrun", () -> dialPermits.hasQueuedThreads());
        first.release(true);
        Lease second = waiting.get();
        assertThat(second.connection()).isSameAs(first.connection());
        dialPermits.release();
        Await.until("the dial became a spare", () -> pool.idleCount() == 1);
        second.release(true);
    }

    /**
     * A busy HTTP/2 connection fails under four streams that are retried: the retries share one new connection, as a
     * burst of first requests does, instead of dialing one each (a connection loss under 100 streams opened 100).
     */
    @Test
    void retriesAfterAnHttp2ConnectionFailedShareOneNewConnection() throws Exception {
        multiplexedStreams = 10;
        pool();
        List<Lease> streams = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            streams.add(acquire());
        }
        assertThat(dialed).hasSize(1);
        dialed.getFirst().healthy = false; // the connection failed (reset, GOAWAY): its streams fail
        streams.forEach(l -> l.release(false));
        gateDials();
        List<CompletableFuture<Lease>> retries = new ArrayList<>();
        for (Lease failed : streams) {
            retries.add(acquireRetryAsync(failed));
        }
        Await.until("four retries waiting", () -> pool.waitingCount(ORIGIN) == 4);
        assertThat(pool.counts(ORIGIN).dialing()).as("one dial for the four").isEqualTo(1);
        dialPermits.release();
        List<Lease> served = new ArrayList<>();
        for (CompletableFuture<Lease> retry : retries) {
            served.add(retry.get());
        }
        assertThat(served).extracting(Lease::connection).containsOnly(dialed.get(1));
        assertThat(dialed).hasSize(2);
        served.forEach(l -> l.release(true));
    }

    @Test
    void aRetryDoesNotTakeAStreamOnTheHttp2ConnectionItFailedOn() throws Exception {
        multiplexedStreams = 10;
        pool();
        Lease busy = acquire();
        Lease failed = acquire();
        failed.release(false); // its stream failed; the connection still takes streams
        gateDials();
        Lease fresh = servedByItsOwnDial(acquireRetryAsync(failed));
        assertThat(fresh.connection()).isNotSameAs(busy.connection());
        assertThat(fresh.reused()).isFalse();
        // Not knowing which connection failed (acquire with fresh), a retry takes none that was open before it came.
        Lease blindFresh = servedByItsOwnDial(acquireFreshAsync());
        assertThat(blindFresh.connection()).isNotSameAs(busy.connection()).isNotSameAs(fresh.connection());
        blindFresh.release(true);
        fresh.release(true);
        busy.release(true);
    }

    /**
     * A burst to an HTTP/2 origin: the second request finds no free stream while the first one's dial is in flight,
     * and comes to wait just after that dial completed (staged between the two holds of the pool's lock). It must
     * take a stream on the new connection rather than dial a second one.
     */
    @Test
    void aRequestThatLookedJustBeforeAnHttp2DialCompletedTakesAStreamOnItInsteadOfDialing() throws Exception {
        multiplexedStreams = 10;
        pool();
        gateDials();
        CompletableFuture<Lease> first = acquireAsync();
        Await.until("the first request's dial started", () -> dialPermits.hasQueuedThreads());
        CountDownLatch looked = new CountDownLatch(1);
        CountDownLatch dialDone = new CountDownLatch(1);
        pool.afterIdleLookup = StagedHook.pauseUntil(looked, dialDone);
        CompletableFuture<Lease> second = acquireAsync();
        assertThat(looked.await(5, TimeUnit.SECONDS)).isTrue();
        pool.afterIdleLookup = null;
        dialPermits.release(); // the dial completes between the second request's look and its wait
        Lease firstLease = first.get(5, TimeUnit.SECONDS);
        dialDone.countDown();

        Await.until("the second request served or dialing", () -> second.isDone() || dialPermits.hasQueuedThreads());
        boolean dialedAgain = dialPermits.hasQueuedThreads();
        dialPermits.release(); // a second dial, if any, completes: nothing is left blocked
        assertThat(dialedAgain).as("a second dial beside a connection with 9 free streams").isFalse();
        Lease secondLease = second.get();
        assertThat(secondLease.connection()).isSameAs(firstLease.connection());
        assertThat(dialed).hasSize(1);
        secondLease.release(true);
        firstLease.release(true);
    }

    /**
     * The same race on an HTTP/1.1 origin: a request found nothing idle, and a connection is released (goes idle)
     * before it queues (staged between the two holds of the pool's lock). It must take that connection rather than
     * dial beside it.
     */
    @Test
    void aRequestThatLookedJustBeforeAConnectionWentIdleTakesItInsteadOfDialing() throws Exception {
        pool();
        Lease busy = acquire();
        gateDials();
        CountDownLatch looked = new CountDownLatch(1);
        CountDownLatch releasedMeanwhile = new CountDownLatch(1);
        pool.afterIdleLookup = StagedHook.pauseUntil(looked, releasedMeanwhile);
        CompletableFuture<Lease> late = acquireAsync();
        assertThat(looked.await(5, TimeUnit.SECONDS)).isTrue();
        pool.afterIdleLookup = null;
        busy.release(true); // idle between the late request's look and its wait
        releasedMeanwhile.countDown();

        Await.until("the late request served or dialing", () -> late.isDone() || dialPermits.hasQueuedThreads());
        boolean dialedBeside = dialPermits.hasQueuedThreads();
        dialPermits.release(); // a dial, if any, completes: nothing is left blocked
        assertThat(dialedBeside).as("a dial beside an idle connection").isFalse();
        Lease lease = late.get(5, TimeUnit.SECONDS);
        assertThat(lease.connection()).isSameAs(busy.connection());
        assertThat(lease.wasIdle()).isTrue();
        assertThat(dialed).hasSize(1);
        lease.release(true);
    }

    /** Dials are gated: lets the one {@code waiting} started through, and returns what it was served. */
    private Lease servedByItsOwnDial(CompletableFuture<Lease> waiting) throws Exception {
        Await.until("its dial started", () -> dialPermits.hasQueuedThreads());
        dialPermits.release();
        return waiting.get();
    }

    @Test
    void aRetryThatComesAfterTheReplacementOpenedTakesAStreamOnIt() throws Exception {
        multiplexedStreams = 10;
        pool();
        Lease first = acquire();
        Lease second = acquire();
        assertThat(dialed).hasSize(1);
        dialed.getFirst().healthy = false; // the connection failed; its streams learn of it one after the other
        first.release(false);
        Lease retried = pool.acquireRetry(ORIGIN, first, Deadline.NONE, ClientTrace.NONE);
        assertThat(retried.connection()).isSameAs(dialed.get(1));
        second.release(false);
        Lease late = pool.acquireRetry(ORIGIN, second, Deadline.NONE, ClientTrace.NONE);
        assertThat(late.connection()).as("a stream on the replacement, opened after the failed connection")
                .isSameAs(dialed.get(1));
        assertThat(dialed).hasSize(2);
        late.release(true);
        retried.release(true);
    }

    /**
     * New connections of this origin answer 24 ms after their dial starts, though {@code connect()} returns at once
     * (a server or proxy slow to accept: what the lab's dial-delay relay does); reused ones in 1 ms; its drains take
     * 8 ms. A request then waits for a drain and dials a spare beside it.
     */
    private CompletableFuture<Lease> waitBesideASpareOfASlowToAnswerOrigin(Lease draining) throws Exception {
        CostModel costs = pool.costs(ORIGIN);
        costs.recordFreshFirstByte(25 * MS);
        costs.recordFreshFirstByte(25 * MS);
        costs.recordReusedFirstByte(MS);
        costs.recordDrain(1000, 8 * MS, true, 50 * MS);
        draining.startDrain(new DrainProgress(now.get(), -1));
        gateDials();
        CompletableFuture<Lease> waiting = acquireAsync(heldTrace);
        Await.until("a spare dialed beside the drain", () -> dialPermits.hasQueuedThreads());
        assertThat(pool.spareDials()).isEqualTo(1);
        return waiting;
    }

    /** The same, and the spare's {@code connect()} returns after 1 ms: the pool holds the new connection back. */
    private CompletableFuture<Lease> holdASpareOfASlowToAnswerOrigin(Lease draining) throws Exception {
        CompletableFuture<Lease> waiting = waitBesideASpareOfASlowToAnswerOrigin(draining);
        now.addAndGet(MS);
        dialPermits.release(); // connected after 1 ms: it could answer 23 ms from now, the drain ends in 7
        Await.until("the new connection held back", () -> pool.heldDials() == 1);
        // The trace says so (fired after the pool's lock is let go): held for 8 ms at most, could answer in 23.
        Await.until("the hold traced", () -> !heldTrace.events.isEmpty());
        assertThat(heldTrace.events).containsExactly("dialHeld " + 8 * MS + " of " + 23 * MS);
        return waiting;
    }

    /** The held dial's timer: the drain's 7 ms to go plus the 1 ms spare wait, well before the connection's 23 ms. */
    private ManualScheduler.Task readyTimer() {
        assertThat(scheduler.pending()).hasSize(1);
        ManualScheduler.Task ready = scheduler.pending().getFirst();
        assertThat(ready.delayNanos).isEqualTo(8 * MS);
        return ready;
    }

    @Test
    void aNewConnectionThatCouldAnswerOnlyAfterTheDrainIsHeldAndTheDrainServesTheRequest() throws Exception {
        pool();
        Lease first = acquire();
        CompletableFuture<Lease> waiting = holdASpareOfASlowToAnswerOrigin(first);
        ManualScheduler.Task ready = readyTimer();
        assertThat(waiting).as("not given a connection that would keep it waiting 23 ms").isNotDone();
        assertThat(pool.counts(ORIGIN).dialing()).as("the held dial still counts as one").isEqualTo(1);
        now.addAndGet(6 * MS);
        first.release(true); // the drain ends, as expected
        Lease second = waiting.get();
        assertThat(second.connection()).isSameAs(first.connection());
        now.addAndGet(2 * MS);
        assertThat(scheduler.run(ready)).isTrue();
        // Served by its drain: the new connection is still held until it could answer, 24 ms after its dial started
        // (25 ms to a fresh first byte, less the reused 1 ms), 15 ms from now. Idle now, it would make the next
        // request wait those 15 ms.
        assertThat(pool.idleCount()).isZero();
        assertThat(pool.counts(ORIGIN).dialing()).as("held until it could answer").isEqualTo(1);
        assertThat(scheduler.pending()).hasSize(1);
        ManualScheduler.Task answers = scheduler.pending().getFirst();
        assertThat(answers.delayNanos).isEqualTo(15 * MS);
        now.addAndGet(15 * MS);
        assertThat(scheduler.run(answers)).isTrue();
        assertThat(pool.idleCount()).as("the new connection is the spare for the next request").isEqualTo(1);
        assertThat(pool.counts(ORIGIN).dialing()).isZero();
        second.release(true);
    }

    @Test
    void aHeldConnectionServesItsRequestOnceTheDrainOverrunsItsEstimate() throws Exception {
        pool();
        Lease first = acquire();
        CompletableFuture<Lease> waiting = holdASpareOfASlowToAnswerOrigin(first);
        ManualScheduler.Task ready = readyTimer();
        now.addAndGet(ready.delayNanos);
        assertThat(scheduler.run(ready)).isTrue(); // the drain stalls: a stalled drain costs the estimate and 1 ms
        Lease second = waiting.get();
        assertThat(second.connection()).isNotSameAs(first.connection());
        assertThat(second.reused()).isFalse();
        first.release(true);
        assertThat(pool.idleCount()).isEqualTo(1);
        second.release(true);
    }

    /**
     * A request waits beside a spare of a slow-to-answer origin, and its drain ends 5 ms later, before the spare's
     * {@code connect()} returns: the request takes the drained connection, which is returned.
     */
    private Lease servedByItsDrainBeforeTheSpareConnects() throws Exception {
        pool();
        Lease first = acquire();
        CompletableFuture<Lease> waiting = waitBesideASpareOfASlowToAnswerOrigin(first);
        now.addAndGet(5 * MS);
        first.release(true);
        Lease second = waiting.get();
        assertThat(second.connection()).isSameAs(first.connection());
        return second;
    }

    @Test
    void aNewConnectionIsNotHeldWhenItsDialTookWhatTheOriginsDialsCost() throws Exception {
        Lease second = servedByItsDrainBeforeTheSpareConnects();
        // A handshake inside connect() (TLS, a slow TCP handshake): the dial returns when the connection is ready.
        now.addAndGet(19 * MS);
        dialPermits.release();
        Await.until("the spare is idle", () -> pool.idleCount() == 1);
        assertThat(pool.heldDials()).isZero();
        assertThat(scheduler.pending()).as("no ready timer").allMatch(t -> t.delayNanos != 8 * MS);
        second.release(true);
    }

    @Test
    void aRequestThatDialedBecauseTheLastDrainGaveUpIsServedByTheDrainDueBeforeItsConnectionCouldAnswer()
            throws Exception {
        // Traced behind the lab's 20 ms relay: the request dialed (the last drain had stopped at the byte cap), the
        // drain in flight ended 0.9 ms later, but the new connection's connect() had returned first and the request
        // took it, then waited 20 ms for its response.
        pool();
        Lease first = acquire();
        CostModel costs = pool.costs(ORIGIN);
        costs.recordFreshFirstByte(25 * MS);
        costs.recordFreshFirstByte(25 * MS);
        costs.recordReusedFirstByte(MS);
        costs.recordDrain(1000, 8 * MS, true, 50 * MS);
        costs.recordDrain(262_144, MS, false, 50 * MS); // stopped at the byte cap
        first.startDrain(new DrainProgress(now.get(), -1));
        gateDials();
        CompletableFuture<Lease> waiting = acquireAsync(heldTrace);
        Await.until("dialing", () -> dialPermits.hasQueuedThreads());
        assertThat(pool.handOffDials()).as("the last drain gave up: it dialed").isEqualTo(1);
        now.addAndGet(MS);
        dialPermits.release(); // connected after 1 ms: it could answer 23 ms from now; drains here take 8
        Await.until("the new connection held back", () -> pool.heldDials() == 1);
        assertThat(waiting).isNotDone();
        now.addAndGet(MS);
        first.release(true); // the drain ends
        Lease second = waiting.get();
        assertThat(second.connection()).isSameAs(first.connection());
        assertThat(pool.idleCount()).as("the new connection is still held").isZero();
        second.release(true);
    }

    @Test
    void aSpareWhoseRequestWasServedBeforeItConnectedIsHeldUntilItCouldAnswer() throws Exception {
        Lease second = servedByItsDrainBeforeTheSpareConnects();
        now.addAndGet(MS);
        dialPermits.release(); // connected 6 ms after its dial started: it could answer in 18 more
        Await.until("the spare held back", () -> pool.heldDials() == 1);
        assertThat(pool.idleCount()).as("idle now, the next request would wait 18 ms on it").isZero();
        assertThat(scheduler.pending()).hasSize(1);
        ManualScheduler.Task ready = scheduler.pending().getFirst();
        assertThat(ready.delayNanos).isEqualTo(18 * MS);
        now.addAndGet(18 * MS);
        assertThat(scheduler.run(ready)).isTrue();
        assertThat(pool.idleCount()).isEqualTo(1);
        assertThat(heldTrace.events).as("nothing told a request already served").isEmpty();
        second.release(true);
    }

    @Test
    void closingThePoolClosesAHeldConnectionAtOnce() throws Exception {
        pool();
        Lease first = acquire();
        CompletableFuture<Lease> waiting = holdASpareOfASlowToAnswerOrigin(first);
        FakeConnection heldConnection = dialed.getLast();
        pool.close();
        assertThat(heldConnection.closed).as("not left to its timer, up to a dial's time later").isTrue();
        assertThat(scheduler.pending()).as("its timer cancelled").isEmpty();
        assertThat(pool.counts(ORIGIN).dialing()).isZero();
        assertThat(waiting).failsWithin(Duration.ofSeconds(5));
        first.release(false);
    }

    /**
     * A request waiting out its grace for a first drain has a timer on the scheduler; closing the pool cancels it,
     * so the scheduler holds no reference to a closed pool (as for maintenance and held dials).
     */
    @Test
    void closingThePoolCancelsAGraceTimer() throws Exception {
        pool();
        Lease first = acquire();
        first.startDrain(new DrainProgress(now.get(), -1));
        gateDials();
        CompletableFuture<Lease> waiting = acquireAsync();
        Await.until("grace scheduled", () -> scheduler.pending().stream()
                .anyMatch(t -> t.delayNanos == CostModel.MIN_SPARE_WAIT_NANOS));
        pool.close();
        assertThat(scheduler.pending()).as("the grace timer cancelled").isEmpty();
        assertThat(waiting).failsWithin(Duration.ofSeconds(5));
        first.release(false);
    }

    /** A request served before the close leaves its overrun timer behind; the close cancels that one too. */
    @Test
    void closingThePoolCancelsTheOverrunTimerOfARequestAlreadyServed() throws Exception {
        pool();
        Lease first = acquire();
        CostModel costs = pool.costs(ORIGIN);
        costs.recordFreshFirstByte(20 * MS);
        costs.recordDrain(1_000_000, MS / 2, true, 50 * MS); // quick drains: this one is waited for alone
        first.startDrain(new DrainProgress(now.get(), 100_000));
        CompletableFuture<Lease> waiting = acquireAsync();
        Await.until("waiting for the drain", () -> pool.handOffWaits() == 1);
        Await.until("overrun timer scheduled", () -> scheduler.pending().size() == 1);
        first.release(true);
        Lease next = waiting.get(5, TimeUnit.SECONDS);
        next.release(true);
        assertThat(scheduler.pending()).as("maintenance and the overrun timer").hasSize(2);
        pool.close();
        assertThat(scheduler.pending()).as("both cancelled").isEmpty();
    }

    /** A grace timer outlives its origin when maintenance forgets the origin first; closing still cancels it. */
    @Test
    void closingThePoolCancelsAGraceTimerOfAnOriginMaintenanceForgot() throws Exception {
        pool(PoolConfig.builder().idleTimeout(Duration.ofSeconds(10)).build(), DrainPolicy.defaults());
        Lease first = acquire();
        first.startDrain(new DrainProgress(now.get(), -1));
        CompletableFuture<Lease> waiting = acquireAsync();
        Await.until("grace scheduled", () -> scheduler.pending().stream()
                .anyMatch(t -> t.delayNanos == CostModel.MIN_SPARE_WAIT_NANOS));
        first.release(true); // the drain ends first and serves the waiter; its grace timer stays
        waiting.get(5, TimeUnit.SECONDS).release(true);
        now.addAndGet(10 * SECOND);
        pool.maintain(now.get()); // expires the idle connection and forgets the origin
        assertThat(stats.originCount()).isZero();
        pool.close();
        assertThat(scheduler.pending()).as("the grace timer cancelled").isEmpty();
    }

    @Test
    void theDrainAboutToFinishIsChosenOverAnOlderOne() throws Exception {
        pool();
        Lease a = acquire();
        Lease b = acquire();
        CostModel costs = pool.costs(ORIGIN);
        costs.recordFreshFirstByte(20 * MS);
        costs.recordDrain(1_000_000, MS / 2, true, 50 * MS); // quick drains: 2 bytes per ns, 2 MB per ms
        a.startDrain(new DrainProgress(now.get(), 5_000_000)); // 2.5 ms to go
        b.startDrain(new DrainProgress(now.get(), 100_000)); // 0.05 ms to go
        gateDials();
        CompletableFuture<Lease> waiting = acquireAsync();
        Await.until("waiting for a drain", () -> pool.handOffWaits() == 1);
        assertThat(dialPermits.hasQueuedThreads()).as("0.05 ms: no spare").isFalse();
        b.release(true);
        Lease next = waiting.get();
        assertThat(next.connection()).isSameAs(b.connection());
        a.release(true);
        next.release(true);
    }

    @Test
    void closingThePoolClosesIdleConnectionsAndFailsWaiters() throws Exception {
        pool(PoolConfig.builder().maxConnsPerHost(1).build(), DrainPolicy.defaults());
        Lease held = acquire();
        CompletableFuture<Lease> waiting = acquireAsync();
        Await.until("queued", () -> pool.waitingCount(ORIGIN) == 1);
        pool.close();
        assertThat(waiting).failsWithin(Duration.ofSeconds(5));
        held.release(true); // closed pool: closed, not pooled
        assertThat(((FakeConnection) held.connection()).closed).isTrue();
        assertThatThrownBy(this::acquire).isInstanceOf(IOException.class).hasMessage("client closed");
    }
}
