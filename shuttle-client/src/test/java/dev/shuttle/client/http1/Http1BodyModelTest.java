package dev.shuttle.client.http1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.DrainOutcome;
import dev.shuttle.client.DrainPolicy;
import dev.shuttle.client.Origin;
import dev.shuttle.client.PoolConfig;
import dev.shuttle.client.drain.Drainer;
import dev.shuttle.client.internal.ClientWatcher;
import dev.shuttle.client.internal.Deadline;
import dev.shuttle.client.internal.StatsRecorder;
import dev.shuttle.client.pool.ConnectionPool;
import dev.shuttle.client.pool.Lease;
import dev.shuttle.client.testing.ManualScheduler;
import dev.shuttle.transport.BufferPool;
import dev.shuttle.transport.PlainTransport;
import dev.shuttle.wire.http1.BodyFraming;
import dev.shuttle.wire.http1.Http1Limits;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;

/**
 * Model-based test of one HTTP/1.1 response body and its drain (issue 13, Tests): a Content-Length body on a real
 * loopback connection whose server side the test writes and closes, and random sequences of the server sending part
 * of the body, the server closing, reads, {@code available()}, {@code close()}, a close racing a read blocked on
 * another thread (the read then gets bytes, or the close gives up waiting and aborts), the leak guard, and time
 * passing (a background drain's cap). After each: the body's state (open, ended, failed, closed) and what reads
 * return are what the model says; the lease is released at most once, and exactly once when the body is settled;
 * the outcome is reported at most once, and is the one the model allows; the connection is back in the pool exactly
 * when the model says it may be reused, and closed otherwise; no background thread throws.
 */
class Http1BodyModelTest {
    private static final Origin ORIGIN = new Origin("http", "body.test", 80);
    private static final Duration CAP = Duration.ofMillis(50);
    private static final long SETTLE_NANOS = 3_000_000_000L;

    private final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    private Thread.UncaughtExceptionHandler previous;
    private ServerSocketChannel listener;
    private Harness current;

    @BeforeProperty
    void listen() throws IOException {
        listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> uncaught.add(error));
    }

    @AfterProperty
    void stop() throws IOException {
        Thread.setDefaultUncaughtExceptionHandler(previous);
        listener.close();
    }

    @Property(tries = 100)
    void theBodyBehavesAsTheModelSays(@ForAll("chains") ActionChain<Harness> chain) throws Exception {
        current = null;
        try {
            chain.run();
            current.finishAndCheck();
            assertThat(uncaught).as("exceptions on background threads").isEmpty();
        } finally {
            if (current != null) {
                current.cleanUp();
            }
            uncaught.clear();
        }
    }

    /** One body setup: its length, whether the connection may be reused at all, the drain policy. */
    record Setup(int length, boolean reusable, DrainPolicy policy) {
    }

    @Provide
    Arbitrary<ActionChain<Harness>> chains() {
        Arbitrary<Setup> setups = Combinators.combine(Arbitraries.of(1, 10, 1000, 20_000),
                Arbitraries.of(true, true, true, false),
                Arbitraries.of(new DrainPolicy(256 * 1024, CAP, true, true), DrainPolicy.bounded(256 * 1024, CAP),
                        new DrainPolicy(500, CAP, true, true), DrainPolicy.none())).as(Setup::new);
        return setups.flatMap(setup -> ActionChain.<Harness>startWith(() -> current = new Harness(setup, listener))
                .withAction(3, dependent(h -> h.sent < h.setup.length() && !h.serverClosed,
                        h -> Arbitraries.integers().between(1, h.setup.length() - h.sent)
                                .map(k -> step("server sends " + k, s -> s.send(k)))))
                .withAction(1, Action.<Harness>when(h -> !h.serverClosed)
                        .just(step("server closes", Harness::serverClose)))
                .withAction(3, dependent(Harness::canRead, h -> Arbitraries.of(1, 7, 100, 8192)
                        .map(n -> step("read " + n, s -> s.read(n)))))
                .withAction(1, Action.just(step("available", Harness::available)))
                .withAction(2, Action.just(step("close", Harness::close)))
                .withAction(1, dependent(Harness::canRace, h -> Arbitraries.of(0, 1, 5, 20_000)
                        .map(k -> step("close racing a blocked read, then server sends " + k,
                                s -> s.closeRacingRead(k)))))
                .withAction(1, Action.just(step("leak guard", Harness::leaked)))
                .withAction(1, Action.just(step("drain cap passes", Harness::capPasses)))
                .withMaxTransformations(12));
    }

    private static Transformer<Harness> step(String description, java.util.function.Consumer<Harness> action) {
        return Transformer.mutate(description, action);
    }

    private static Action<Harness> dependent(java.util.function.Predicate<Harness> when,
                                             java.util.function.Function<Harness, Arbitrary<Transformer<Harness>>> steps) {
        return new Action.Dependent<>() {
            @Override
            public boolean precondition(Harness h) {
                return when.test(h);
            }

            @Override
            public Arbitrary<Transformer<Harness>> transformer(Harness h) {
                return steps.apply(h);
            }
        };
    }

    enum State { OPEN, ENDED, FAILED, CLOSED }

    /** The real body on a loopback connection, and the model's account of it, side by side. */
    static final class Harness {
        final Setup setup;
        private final SocketChannel server;
        private final Http1Connection connection;
        private final ConnectionPool pool;
        private final Lease lease;
        private final Http1Body body;
        private final List<DrainOutcome> outcomes = new CopyOnWriteArrayList<>();
        private final AtomicInteger settled = new AtomicInteger();
        final List<String> log = new ArrayList<>();

        // The model.
        int sent;
        int consumed;
        boolean serverClosed;
        State state = State.OPEN;
        /** Closed before the end, its rest being drained in the background: the outcome comes later. */
        boolean draining;
        /** The outcomes allowed once the body's fate is decided; empty until then. */
        Set<DrainOutcome> allowed = Set.of();
        /** Whether the connection goes back to the pool; null until the lease is released. */
        Boolean reused;
        /**
         * The earliest the background drain can have started (real time: the drain's cap is a socket timeout), so that
         * a drain that gave up at its cap is recognised however late this thread sees it (a loaded machine).
         */
        long drainStart;
        /** The close found a read in progress: its decision ran on another thread, maybe after bytes came. */
        boolean closedByRace;
        /** The drain's outcome (reused or given up at the cap) says whether the connection went back. */
        boolean reuseFromOutcome;

        Harness(Setup setup, ServerSocketChannel listener) {
            this.setup = setup;
            try {
                SocketChannel client = SocketChannel.open(listener.getLocalAddress());
                server = listener.accept();
                BufferPool buffers = new BufferPool(4);
                connection = new Http1Connection(1, ORIGIN, new PlainTransport(client, buffers, System::nanoTime),
                        buffers, Http1Limits.clientDefaults(), ClientWatcher.shared(), System::nanoTime);
                pool = new ConnectionPool(PoolConfig.builder().maxIdlePerHost(1).build(), setup.policy(),
                        (origin, deadline, trace) -> connection, System::nanoTime, new ManualScheduler(),
                        new StatsRecorder());
                lease = pool.acquire(ORIGIN, false, false, Deadline.NONE, ClientTrace.NONE);
                ClientTrace trace = new ClientTrace() {
                    @Override
                    public void bodyClosed(long bytesRead, DrainOutcome outcome, long bytesDiscarded) {
                        outcomes.add(outcome);
                    }
                };
                body = new Http1Body(lease, connection,
                        new BodyFraming.ContentLength(setup.length()).newDecoder(Http1Limits.clientDefaults()),
                        setup.reusable(), null, new Drainer(setup.policy(), System::nanoTime), setup.policy().maxTime(),
                        trace, new StatsRecorder(), settled::incrementAndGet);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        boolean canRead() {
            // A read must not block: something has arrived, or the server closed, or the body is no longer open.
            return state != State.OPEN || draining || sent > consumed || serverClosed;
        }

        boolean canRace() {
            return state == State.OPEN && !draining && sent == consumed && !serverClosed;
        }

        // ---- actions ----

        void send(int k) {
            log.add("server sends " + k);
            write(k);
            if (draining && sent == setup.length()) {
                drainEnds(closedByRace && setup.policy().inline() ? DrainOutcome.REUSED_INLINE : null);
            }
            settleAndCompare();
        }

        /** The server writes the next {@code k} body bytes. */
        private void write(int k) {
            byte[] bytes = new byte[k];
            for (int i = 0; i < k; i++) {
                bytes[i] = (byte) ((sent + i) % 251);
            }
            try {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    server.write(buffer);
                }
            } catch (IOException e) {
                if (connection.isOpen()) {
                    throw new UncheckedIOException(e);
                } // else the client closed its side: the bytes go nowhere
            }
            sent += k;
        }

        void serverClose() {
            log.add("server closes");
            try {
                server.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            serverClosed = true;
            if (draining) {
                decided(capMayHavePassed() ? Set.of(DrainOutcome.ABANDONED_ERROR, DrainOutcome.ABANDONED_TIME)
                        : Set.of(DrainOutcome.ABANDONED_ERROR), false);
            }
            settleAndCompare();
        }

        void read(int len) {
            log.add("read " + len);
            byte[] buffer = new byte[len];
            int n;
            IOException failure = null;
            try {
                n = body.read(buffer, 0, len);
            } catch (IOException e) {
                n = -2;
                failure = e;
            }
            String context = context();
            switch (state) {
                case CLOSED -> assertThat(failure).as(context).hasMessage("response body closed");
                case ENDED -> assertThat(n).as(context).isEqualTo(-1);
                case FAILED -> assertThat(failure).as(context).isNotNull();
                case OPEN -> {
                    if (sent > consumed) {
                        assertThat(n).as("bytes read; %s", context).isBetween(1, Math.min(len, sent - consumed));
                        for (int i = 0; i < n; i++) {
                            assertThat(buffer[i]).as("byte %d; %s", consumed + i, context)
                                    .isEqualTo((byte) ((consumed + i) % 251));
                        }
                        consumed += n;
                        if (consumed == setup.length()) {
                            state = State.ENDED;
                            released(setup.reusable());
                        }
                    } else {
                        // The server closed before the end: a truncated body.
                        assertThat(failure).as("a truncated body fails; %s", context).isNotNull();
                        state = State.FAILED;
                        released(false);
                    }
                }
            }
            settleAndCompare();
        }

        void available() {
            log.add("available");
            int available = body.available();
            if (state != State.OPEN || draining) {
                assertThat(available).as(context()).isZero();
            } else {
                assertThat(available).as(context()).isBetween(0, sent - consumed);
            }
        }

        void close() {
            log.add("close");
            long closedAt = System.nanoTime();
            boolean wasDraining = draining;
            body.close();
            closeDecision();
            if (draining && !wasDraining) {
                drainStart = closedAt; // started within this close()
            }
            settleAndCompare();
        }

        /** What close() decides once it holds the body's lock. */
        private void closeDecision() {
            switch (state) {
                case CLOSED -> {
                    return;
                }
                // Read to its end: the outcome says whether the connection went back to the pool or was closed.
                case ENDED -> decided(Set.of(setup.reusable() ? DrainOutcome.COMPLETE : DrainOutcome.COMPLETE_CLOSED),
                        null);
                case FAILED -> decided(Set.of(DrainOutcome.ABANDONED_ERROR), null);
                case OPEN -> closeEarly();
            }
            state = State.CLOSED;
        }

        private void closeEarly() {
            DrainPolicy policy = setup.policy();
            if (!setup.reusable()) {
                decided(Set.of(DrainOutcome.SKIPPED_CLOSE), false);
            } else if (!policy.drains()) {
                decided(Set.of(DrainOutcome.SKIPPED_POLICY), false);
            } else if (setup.length() - consumed > policy.maxBytes()) {
                decided(Set.of(DrainOutcome.SKIPPED_LENGTH), false);
            } else if (sent == setup.length()) {
                // Everything was sent: inline, unless the policy skips that or the bytes are still on their way.
                decided(policy.inline() ? Set.of(DrainOutcome.REUSED_INLINE, DrainOutcome.REUSED_ASYNC)
                        : Set.of(DrainOutcome.REUSED_ASYNC), true);
            } else if (serverClosed) {
                decided(Set.of(DrainOutcome.ABANDONED_ERROR), false);
            } else {
                draining = true;
                drainStart = System.nanoTime(); // the callers set it earlier when they know better
            }
        }

        void closeRacingRead(int k) {
            log.add("close racing a blocked read, then server sends " + k);
            CompletableFuture<Integer> reader = new CompletableFuture<>();
            byte[] buffer = new byte[64];
            Thread thread = Thread.ofVirtual().start(() -> {
                try {
                    reader.complete(body.read(buffer, 0, buffer.length));
                } catch (Throwable t) {
                    reader.completeExceptionally(t);
                }
            });
            awaitBlocked(thread);
            long closedAt = System.nanoTime();
            body.close();
            closedByRace = true;
            int k2 = Math.min(k, setup.length() - sent);
            if (k2 > 0) {
                write(k2);
                try {
                    reader.get(5, java.util.concurrent.TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException | InterruptedException e) {
                    // failed: see below
                } catch (java.util.concurrent.TimeoutException e) {
                    fail("the blocked read neither returned nor failed; " + context());
                }
                if (reader.isCompletedExceptionally()) {
                    // The bytes came after the close's wait (the drain cap: none with DrainPolicy.none(), or a slow
                    // run): the close had aborted the connection already.
                    assertThat(System.nanoTime() - closedAt).as(context())
                            .isGreaterThanOrEqualTo(setup.policy().maxTime().toNanos());
                    state = State.FAILED;
                    released(false);
                    closeDecision();
                    settleAndCompare();
                    return;
                }
                int n = reader.join();
                assertThat(n).as("the blocked read gets bytes; %s", context()).isBetween(1, Math.min(64, k2));
                for (int i = 0; i < n; i++) {
                    assertThat(buffer[i]).isEqualTo((byte) ((consumed + i) % 251));
                }
                consumed += n;
                // The close's wait (the drain cap) may run out while the read returns: its abort then wins the lease
                // (the read's release finds it aborted), and the connection is closed whatever the close decides.
                long elapsed = System.nanoTime() - closedAt;
                awaitQuiet(elapsed < setup.policy().maxTime().toNanos() ? 0 : setup.policy().maxTime().toNanos());
                IOException abort = connection.abortReason();
                boolean abortWon = abort != null && abort.getMessage().startsWith("response body closed while");
                if (abortWon) {
                    assertThat(System.nanoTime() - closedAt).as("aborted only after the wait; %s", context())
                            .isGreaterThanOrEqualTo(setup.policy().maxTime().toNanos());
                }
                if (consumed == setup.length()) {
                    state = State.ENDED;
                    released(setup.reusable() && !abortWon);
                } else if (abortWon) {
                    state = State.CLOSED;
                    decided(java.util.EnumSet.allOf(DrainOutcome.class), false);
                    settleAndCompare();
                    return;
                }
            } else {
                // Nothing comes: after the cap the close aborts the connection, which fails the read.
                assertThat(reader).as(context()).failsWithin(Duration.ofSeconds(5));
                state = State.FAILED;
                released(false);
            }
            closeDecision();
            if (draining) {
                // The close's thread started the drain when the read returned: after closedAt, maybe well before this
                // thread saw the read return, and so maybe a whole cap ago on a loaded machine.
                drainStart = closedAt;
            }
            settleAndCompare();
        }

        void leaked() {
            log.add("leak guard");
            body.leaked("GET", URI.create("http://127.0.0.1/"));
            // close() sets closeCalled first, and a closed response is never reported as leaked.
            boolean closeCalled = log.stream().anyMatch(s -> s.startsWith("close"));
            if (!closeCalled && state == State.OPEN) {
                state = State.CLOSED;
                decided(Set.of(DrainOutcome.ABANDONED_ERROR), false);
            } else if (!closeCalled && (state == State.ENDED || state == State.FAILED)) {
                closeDecision();
            }
            settleAndCompare();
        }

        void capPasses() {
            log.add("drain cap passes");
            try {
                Thread.sleep(CAP.toMillis() + 10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (draining) {
                decided(Set.of(DrainOutcome.ABANDONED_TIME), false);
            }
            settleAndCompare();
        }

        /**
         * The rest of the body arrived while draining: reused, unless the cap passed first (the clock is real, and a
         * slow test run may take longer than the cap between two actions).
         */
        private void drainEnds(DrainOutcome alsoAllowed) {
            boolean late = System.nanoTime() - drainStart >= CAP.toNanos();
            draining = false;
            allowed = late ? Set.of(DrainOutcome.REUSED_ASYNC, DrainOutcome.ABANDONED_TIME)
                    : alsoAllowed == null ? Set.of(DrainOutcome.REUSED_ASYNC)
                    : Set.of(DrainOutcome.REUSED_ASYNC, alsoAllowed);
            reuseFromOutcome = true;
        }

        // ---- model bookkeeping ----

        private void released(boolean reusable) {
            assertThat(reused).as("released once; %s", context()).isNull();
            reused = reusable;
        }

        /** The body's fate is decided: one of {@code outcomes}; the lease goes back as {@code reusable} (null: already). */
        private void decided(Set<DrainOutcome> outcomes, Boolean reusable) {
            draining = false;
            allowed = outcomes;
            if (reusable != null) {
                released(reusable);
            }
        }

        // ---- checks ----

        private String context() {
            return setup + " after " + log + " (sent " + sent + ", consumed " + consumed + ", " + state
                    + (draining ? ", draining" : "") + ")";
        }

        private void settleAndCompare() {
            long start = System.nanoTime();
            while (!settledNow()) {
                if (System.nanoTime() - start > SETTLE_NANOS) {
                    break; // compare() says what differs
                }
                Thread.onSpinWait();
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            compare();
        }

        private int expectedSettled() {
            return state == State.OPEN && !draining ? 0 : 1;
        }

        /** The background drain may have run its whole time cap by now. */
        private boolean capMayHavePassed() {
            return draining && System.nanoTime() - drainStart >= CAP.toNanos();
        }

        /**
         * A drain the model counts as running gave its connection back: nothing but its time cap ends it unseen (bytes
         * and the server's close are the model's own actions), so it gave up at the cap, as "drain cap passes" says,
         * only without this thread having waited for it (a loaded machine: the cap is real time).
         */
        private void catchUpWithDrain(boolean awaitEnd) {
            long start = System.nanoTime();
            while (awaitEnd && draining && !lease.isReleased() && System.nanoTime() - start < SETTLE_NANOS) {
                Thread.onSpinWait();
            }
            if (!draining || !lease.isReleased()) {
                return;
            }
            assertThat(capMayHavePassed()).as("a drain ended before its cap; %s", context()).isTrue();
            while (outcomes.isEmpty() && System.nanoTime() - start < SETTLE_NANOS) {
                Thread.onSpinWait(); // reported just after the release
            }
            assertThat(outcomes).as("the outcome of a drain that ended unseen; %s", context())
                    .containsExactly(DrainOutcome.ABANDONED_TIME);
            decided(Set.of(DrainOutcome.ABANDONED_TIME), false);
        }

        private boolean settledNow() {
            // Read once: an outcome reported between two reads would let the second see it while the first did not
            // learn from it whether the lease went back.
            boolean reported = !outcomes.isEmpty();
            if (reuseFromOutcome && reported) {
                reuseFromOutcome = false;
                released(outcomes.getFirst() == DrainOutcome.REUSED_ASYNC
                        || outcomes.getFirst() == DrainOutcome.REUSED_INLINE);
            }
            if (settled.get() != expectedSettled()) {
                return false;
            }
            boolean outcomeIn = allowed.isEmpty() || reported;
            boolean leaseIn = reused == null || lease.isReleased();
            boolean closedIn = reused == null || reused || !connection.isOpen();
            return outcomeIn && leaseIn && closedIn;
        }

        private void compare() {
            catchUpWithDrain(false);
            try {
                compareNow();
            } catch (AssertionError e) {
                if (!capMayHavePassed()) {
                    throw e;
                }
                // The drain reached its cap while the state was being read (a loaded machine, or a cold JVM loading
                // the assertion classes on the first comparison): once it has given up, the comparison must hold.
                catchUpWithDrain(true);
                compareNow();
            }
        }

        private void compareNow() {
            String context = context();
            assertThat(pool.checkouts()).as(context).isEqualTo(1);
            assertThat(pool.releases()).as("the lease released at most once; %s", context).isLessThanOrEqualTo(1);
            assertThat(lease.isReleased()).as("lease released; %s", context).isEqualTo(reused != null);
            assertThat(outcomes.size()).as("outcome reported at most once; %s", context).isLessThanOrEqualTo(1);
            if (allowed.isEmpty()) {
                assertThat(outcomes).as("no outcome yet; %s", context).isEmpty();
            } else {
                assertThat(outcomes).as("outcome; %s", context).singleElement().isIn(allowed);
            }
            assertThat(settled.get()).as("settled at most once; %s", context).isEqualTo(expectedSettled());
            if (reused != null) {
                assertThat(pool.idleCount()).as("back in the pool; %s", context).isEqualTo(reused ? 1 : 0);
                assertThat(connection.isOpen()).as("connection open; %s", context).isEqualTo(reused);
                assertThat(pool.isQuiet()).as(context).isTrue();
            } else {
                assertThat(connection.isOpen()).as("connection open while the body holds it; %s", context).isTrue();
            }
        }

        /** Lets a close that is about to give up waiting do so (its abort is what the model must know about). */
        private static void awaitQuiet(long nanos) {
            if (nanos > 0) {
                try {
                    Thread.sleep(Duration.ofNanos(nanos).plusMillis(5));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        private static void awaitBlocked(Thread thread) {
            long start = System.nanoTime();
            while (thread.getState() != Thread.State.WAITING && thread.getState() != Thread.State.TIMED_WAITING) {
                if (System.nanoTime() - start > SETTLE_NANOS) {
                    fail("the reader did not block");
                }
                Thread.onSpinWait();
            }
        }

        @Override
        public String toString() {
            return context();
        }

        // ---- end ----

        void finishAndCheck() {
            if (state != State.CLOSED) {
                close();
            }
            if (draining) {
                send(setup.length() - sent);
            }
            assertThat(lease.isReleased()).as("released in the end; %s", context()).isTrue();
            assertThat(outcomes).as("one outcome in the end; %s", context()).hasSize(1);
            assertThat(pool.releases()).as(context()).isEqualTo(1);
            assertThat(settled.get()).as(context()).isEqualTo(1);
        }

        void cleanUp() {
            pool.close();
            connection.close();
            try {
                server.close();
            } catch (IOException e) {
                // already
            }
        }
    }
}
