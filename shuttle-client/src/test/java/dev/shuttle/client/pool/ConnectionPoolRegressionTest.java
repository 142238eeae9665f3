package dev.shuttle.client.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.DrainPolicy;
import dev.shuttle.client.Origin;
import dev.shuttle.client.PoolConfig;
import dev.shuttle.client.internal.Deadline;
import dev.shuttle.client.internal.StatsRecorder;
import dev.shuttle.client.testing.ManualScheduler;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Bugs {@link ConnectionPoolModelTest} found, each shrunk to the few steps that show it. */
class ConnectionPoolRegressionTest {
    private static final Origin ORIGIN = new Origin("http", "example.test", 80);
    private static final long MS = 1_000_000L;
    private static final long SECOND = 1_000 * MS;

    private final AtomicLong now = new AtomicLong(1_000 * SECOND);
    private final AtomicLong ids = new AtomicLong();
    private final ManualScheduler scheduler = new ManualScheduler();
    private final ConnectionPool pool = new ConnectionPool(
            PoolConfig.builder().maxIdlePerHost(2).idleTimeout(Duration.ofSeconds(10)).build(), DrainPolicy.defaults(),
            (origin, deadline, trace) -> new FakeConnection(ids.incrementAndGet(), origin), now::get, scheduler,
            new StatsRecorder());

    @AfterEach
    void everyLeaseWentBack() {
        pool.close();
        assertThat(pool.releases()).isEqualTo(pool.checkouts());
    }

    private Lease acquire() throws IOException {
        return pool.acquire(ORIGIN, false, false, Deadline.NONE, ClientTrace.NONE);
    }

    /**
     * A watched connection that the watcher handed back although nothing was wrong (a TLS session ticket, say) went
     * back to the front of the idle list with its old idle time, ahead of younger connections. Maintenance reads the
     * list as ordered by idle time, so it then stopped watching at that connection, and the younger one behind it was
     * never watched: a server closing it went unnoticed until the next checkout or its expiry.
     */
    @Test
    void aConnectionIdleBehindOneTheWatcherHandedBackIsStillWatched() throws Exception {
        Lease a = acquire();
        Lease b = acquire();
        a.release(true);
        now.addAndGet(500 * MS);
        b.release(true);
        now.addAndGet(500 * MS);
        scheduler.runPending(); // a has been idle 1 s: watched; b not yet
        FakeConnection first = (FakeConnection) a.connection();
        FakeConnection second = (FakeConnection) b.connection();
        assertThat(first.watched).isTrue();
        assertThat(second.watched).isFalse();
        now.addAndGet(200 * MS);
        first.watched = false; // the watcher gives a back by itself; it is healthy, and watched again
        first.onWake.run();
        assertThat(first.watched).isTrue();
        now.addAndGet(300 * MS);
        scheduler.runPending(); // b has been idle 1 s now
        assertThat(second.watched).as("b, idle for 1 s, is watched").isTrue();
    }

    /** The same reordering kept the connection handed back open past its idle timeout, until the younger expired. */
    @Test
    void aConnectionTheWatcherHandedBackStillExpiresOnTime() throws Exception {
        Lease a = acquire();
        Lease b = acquire();
        a.release(true);
        now.addAndGet(5 * SECOND);
        b.release(true);
        now.addAndGet(SECOND);
        scheduler.runPending(); // both watched
        FakeConnection first = (FakeConnection) a.connection();
        first.watched = false;
        first.onWake.run(); // handed back, healthy: idle again, with its idle time of 6 s
        now.addAndGet(4 * SECOND);
        pool.maintain(now.get()); // a has been idle 10 s
        assertThat(first.closed).as("a expired after the idle timeout").isTrue();
        assertThat(((FakeConnection) b.connection()).closed).isFalse();
        assertThat(pool.idleCount()).isEqualTo(1);
    }

    /** And a checkout takes the most recently idle connection, not the one the watcher handed back. */
    @Test
    void aCheckoutStillTakesTheMostRecentlyIdleConnection() throws Exception {
        Lease a = acquire();
        Lease b = acquire();
        a.release(true);
        now.addAndGet(SECOND);
        scheduler.runPending(); // a watched
        b.release(true);
        FakeConnection first = (FakeConnection) a.connection();
        first.watched = false;
        first.onWake.run();
        Lease next = acquire();
        assertThat(next.connection()).isSameAs(b.connection());
        next.release(true);
    }

    /**
     * A retry (a request that takes only a never-used connection) queued while the origin was at maxConnsPerHost. A
     * connection released then went idle (the retry cannot take a used one) and was closed at once by the idle limit,
     * or later by expiry: the origin was below its limit, yet nothing dialed for the retry, which waited until some
     * other event (a failed dial, a broken release) looked at the queue again, forever without a call timeout. Found
     * by the model's invariant that no request waits uncovered while the origin has room for a dial.
     */
    @Test
    void aRetryWaitingAtTheLimitDialsWhenTheIdleLimitClosesAReleasedConnection() throws Exception {
        ConnectionPool limited = limited(PoolConfig.builder().maxConnsPerHost(2).maxIdlePerHost(0).build());
        try {
            Lease a = limited.acquire(ORIGIN, false, false, Deadline.NONE, ClientTrace.NONE);
            Lease b = limited.acquire(ORIGIN, false, false, Deadline.NONE, ClientTrace.NONE);
            CompletableFuture<Lease> retry = acquireAsync(limited, true);
            awaitWaiting(limited, 1);
            assertThat(limited.connectionCount(ORIGIN)).isEqualTo(2); // at the limit: no dial for the retry yet
            a.release(true); // used: not for the retry; idle limit 0 closes it
            assertThat(((FakeConnection) a.connection()).closed).isTrue();
            assertThat(limited.connectionCount(ORIGIN)).as("the freed place is dialed for the retry").isEqualTo(2);
            Lease fresh = retry.get(10, TimeUnit.SECONDS);
            assertThat(fresh.reused()).isFalse();
            fresh.release(true);
            b.release(true);
        } finally {
            limited.close();
        }
    }

    /**
     * The same when maintenance expires the idle connection that held the place. Since a retry makes room for itself
     * (the least recently used idle connection closes as soon as one goes idle while it waits), the connection closes
     * at its release, before maintenance runs; the test still holds the outcome: the retry is served, nothing waits.
     */
    @Test
    void aRetryWaitingAtTheLimitDialsWhenMaintenanceExpiresAnIdleConnection() throws Exception {
        ConnectionPool limited = limited(PoolConfig.builder().maxConnsPerHost(1).maxIdlePerHost(1)
                .idleTimeout(Duration.ofSeconds(10)).build());
        try {
            Lease a = limited.acquire(ORIGIN, false, false, Deadline.NONE, ClientTrace.NONE);
            CompletableFuture<Lease> retry = acquireAsync(limited, true);
            awaitWaiting(limited, 1);
            a.release(true); // would hold the only place: closed at once to make room for the retry
            assertThat(limited.connectionCount(ORIGIN)).isEqualTo(1);
            now.addAndGet(10 * SECOND);
            limited.maintain(now.get());
            assertThat(((FakeConnection) a.connection()).closed).isTrue();
            assertThat(limited.connectionCount(ORIGIN)).as("the freed place is dialed for the retry").isEqualTo(1);
            Lease fresh = retry.get(10, TimeUnit.SECONDS);
            assertThat(fresh.reused()).isFalse();
            fresh.release(true);
        } finally {
            limited.close();
        }
    }

    /**
     * The same when a checkout finds the idle connections expired and closes them on its way: it dialed for itself,
     * and the retry got a place only once some dial ended (here the dials wait, as a slow network's do). Since a retry
     * makes room for itself, a closes at its release and the retry dials then; the checkout still closes b, expired.
     */
    @Test
    void aRetryWaitingAtTheLimitDialsWhenACheckoutClosesExpiredIdleConnections() throws Exception {
        Semaphore dials = new Semaphore(2);
        ConnectionPool limited = limited(PoolConfig.builder().maxConnsPerHost(2).maxIdlePerHost(2)
                .idleTimeout(Duration.ofSeconds(10)).build(), gatedDialer(dials, false));
        aRetryAtTheLimitDialsWhenACheckoutClosesTheIdleConnections(limited, dials,
                (a, b) -> now.addAndGet(10 * SECOND)); // expired, and no maintenance has run
    }

    /**
     * The same for a multiplexed (HTTP/2) idle connection a checkout finds unhealthy and closes under the lock: the
     * freed place serves the retry waiting at the limit. Since a retry makes room for itself, a closes at its release
     * and the retry dials then; the checkout still closes b, unhealthy.
     */
    @Test
    void aRetryWaitingAtTheLimitDialsWhenACheckoutClosesAnUnhealthyMultiplexedConnection() throws Exception {
        Semaphore dials = new Semaphore(2);
        ConnectionPool limited = limited(PoolConfig.builder().maxConnsPerHost(2).maxIdlePerHost(2).build(),
                gatedDialer(dials, true));
        aRetryAtTheLimitDialsWhenACheckoutClosesTheIdleConnections(limited, dials, (a, b) -> {
            ((FakeConnection) a.connection()).healthy = false;
            ((FakeConnection) b.connection()).healthy = false; // say, a GOAWAY came while idle
        });
    }

    /**
     * Two connections at {@code limited}'s limit of two and a retry waiting; both come back (a closes at its release to
     * make room for the retry, b goes idle); {@code spoil} makes them unfit; a checkout then closes them on its way and
     * waits for its own dial. The freed places dial for the retry and for the checkout, and both are served.
     */
    private void aRetryAtTheLimitDialsWhenACheckoutClosesTheIdleConnections(ConnectionPool limited, Semaphore dials,
                                                                          BiConsumer<Lease, Lease> spoil)
            throws Exception {
        try {
            Lease a = limited.acquire(ORIGIN, false, false, Deadline.NONE, ClientTrace.NONE);
            Lease b = limited.acquire(ORIGIN, false, false, Deadline.NONE, ClientTrace.NONE);
            CompletableFuture<Lease> retry = acquireAsync(limited, true);
            awaitWaiting(limited, 1);
            a.release(true);
            b.release(true); // a was closed at its release to make room for the retry; b idle
            spoil.accept(a, b);
            CompletableFuture<Lease> next = acquireAsync(limited, false);
            awaitWaiting(limited, 2); // it closed both on its way and waits for its dial
            assertThat(((FakeConnection) a.connection()).closed).isTrue();
            assertThat(limited.connectionCount(ORIGIN)).as("one freed place dialed for the retry, one for the next")
                    .isEqualTo(2);
            dials.release(2);
            Lease fresh = retry.get(10, TimeUnit.SECONDS);
            assertThat(fresh.reused()).isFalse();
            fresh.release(true);
            next.get(10, TimeUnit.SECONDS).release(true);
        } finally {
            dials.release(100);
            limited.close();
        }
    }

    /** Dials fake connections (multiplexed ones if asked), each only once {@code dials} has a permit for it. */
    private Dialer gatedDialer(Semaphore dials, boolean multiplexed) {
        return (origin, deadline, trace) -> {
            dials.acquireUninterruptibly();
            FakeConnection connection = new FakeConnection(ids.incrementAndGet(), origin);
            connection.multiplexed = multiplexed;
            return connection;
        };
    }

    /**
     * A retry takes no used connection. At the limit with a used connection idle, it would wait until that one closed
     * by itself (the idle timeout) or its call timed out; instead the least recently used idle connection closes and
     * the retry dials in its place.
     */
    @Test
    void aRetryAtTheLimitWithAUsedConnectionIdleClosesItAndDials() throws Exception {
        ConnectionPool limited = limited(PoolConfig.builder().maxConnsPerHost(2).maxIdlePerHost(2).build());
        try {
            Lease a = limited.acquire(ORIGIN, false, false, Deadline.NONE, ClientTrace.NONE);
            Lease b = limited.acquire(ORIGIN, false, false, Deadline.NONE, ClientTrace.NONE);
            a.release(true);
            now.addAndGet(MS);
            b.release(true); // both idle and used: a the older
            Lease fresh = acquireAsync(limited, true).get(10, TimeUnit.SECONDS);
            assertThat(fresh.reused()).isFalse();
            assertThat(((FakeConnection) a.connection()).closed).as("the older idle one made room").isTrue();
            assertThat(((FakeConnection) b.connection()).closed).isFalse();
            assertThat(limited.connectionCount(ORIGIN)).isEqualTo(2);
            fresh.release(true);
        } finally {
            limited.close();
        }
    }

    /** The same when the used connection comes back while the retry already waits at the limit. */
    @Test
    void aUsedConnectionReleasedWhileARetryWaitsAtTheLimitMakesRoomForIt() throws Exception {
        ConnectionPool limited = limited(PoolConfig.builder().maxConnsPerHost(1).build());
        try {
            Lease held = limited.acquire(ORIGIN, false, false, Deadline.NONE, ClientTrace.NONE);
            CompletableFuture<Lease> retry = acquireAsync(limited, true);
            awaitWaiting(limited, 1);
            held.release(true);
            Lease fresh = retry.get(10, TimeUnit.SECONDS);
            assertThat(fresh.connection()).isNotSameAs(held.connection());
            assertThat(((FakeConnection) held.connection()).closed).isTrue();
            fresh.release(true);
        } finally {
            limited.close();
        }
    }

    /** A pool of its own with {@code config}, on this test's clock and scheduler, dialing fake connections. */
    private ConnectionPool limited(PoolConfig config) {
        return limited(config, (origin, deadline, trace) -> new FakeConnection(ids.incrementAndGet(), origin));
    }

    private ConnectionPool limited(PoolConfig config, Dialer dialer) {
        return new ConnectionPool(config, DrainPolicy.defaults(), dialer, now::get, scheduler, new StatsRecorder());
    }

    private static CompletableFuture<Lease> acquireAsync(ConnectionPool target, boolean fresh) {
        CompletableFuture<Lease> result = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                result.complete(target.acquire(ORIGIN, fresh, false, Deadline.NONE, ClientTrace.NONE));
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        return result;
    }

    private static void awaitWaiting(ConnectionPool target, int waiting) throws InterruptedException {
        dev.shuttle.client.testing.Await.until(waiting + " waiting", () -> target.waitingCount(ORIGIN) == waiting);
    }
}
