package dev.shuttle.client.pool;

import dev.shuttle.client.DrainPolicy;
import dev.shuttle.client.HandOffDecision;
import dev.shuttle.client.PoolConfig;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;

/**
 * Model-based test of the connection pool (issue 13, Tests; issue 14's hand-off rule): random sequences of acquire
 * (plain, checked, retry-only, with and without a deadline), dial completes or fails, release (reusable or not,
 * twice), start drain, drain ends or fails, abort, drains and round trips learned, grace and overrun timers firing,
 * the clock moving (waiter timeouts, idle expiry), maintenance, the server closing an idle connection, the watcher
 * waking, interrupts and close, on the real {@link ConnectionPool} with fake connections, a gated dialer, a manual
 * scheduler and a fake clock, against {@link PoolModel}, under the default policy (hand-off with spares), bounded and
 * none. After every action ({@link PoolHarness}): total = idle + leased + draining + dialing, total ≤
 * maxConnsPerHost, checkouts − releases = leases out, every request's outcome, lease (connection, reused, idle time,
 * after a drain, fresh from a dial) and hand-off decision (kind, expected drain, dial cost, spare wait), at most one
 * dial per request, the decision counters, every connection's open/watched state, the dials in flight and every task
 * on the scheduler are as the model says, and the model's invariants hold ({@link PoolModel#violations}: no request
 * waits while something idle or a dial could serve it). At the end the pool is closed and everything given back: every
 * connection is closed, checkouts = releases, nothing is left scheduled.
 */
class ConnectionPoolModelTest {
    private static final long MS = PoolModel.MS;
    private static final long SECOND = PoolModel.SECOND;

    /** The harness of the chain running now, for the checks at its end and to unblock its threads after a failure. */
    private PoolHarness current;

    @Property(tries = 400)
    void thePoolBehavesAsTheModelSays(@ForAll("chains") ActionChain<PoolHarness> chain) {
        current = null;
        try {
            chain.run();
            PoolModel model = current.model;
            List<PoolModel.Lease> leases = model.leases(PoolModel.LState.values());
            Statistics.label("policy").collect(current.setup.policy().handOff() ? "defaults"
                    : current.setup.policy().drains() ? "bounded" : "none");
            // Every kind of decision, and a request served by the drain it waited for, come up in every run (each in
            // 4 % or more of the chains: missing from 400 would take a broken generator, not bad luck).
            for (HandOffDecision.Kind kind : HandOffDecision.Kind.values()) {
                Statistics.label("decided " + kind).collect(model.requests.stream()
                        .anyMatch(r -> r.decision != null && r.decision.kind() == kind));
                Statistics.label("decided " + kind).coverage(c -> c.check(true).count(n -> n > 0));
            }
            Statistics.label("served after waiting for a drain").collect(leases.stream().anyMatch(l -> l.afterDrain));
            Statistics.label("served after waiting for a drain").coverage(c -> c.check(true).count(n -> n > 0));
            Statistics.label("dialed though a drain was there").collect(model.handOffDials > 0);
            Statistics.label("a grace or overrun timer dialed").collect(model.timerDials > 0);
            Statistics.label("a new connection held until it could answer").collect(model.heldDials > 0);
            Statistics.label("held on after a drain served its request").collect(model.heldPastTheirRequest > 0);
            Statistics.label("took a watched connection").collect(leases.stream()
                    .anyMatch(l -> l.wasIdle && l.idleNanos >= PoolModel.WATCH_AFTER));
            Statistics.label("timed out or interrupted").collect(model.requests.stream()
                    .anyMatch(r -> r.failure == PoolModel.Failure.TIMEOUT || r.failure == PoolModel.Failure.INTERRUPTED));
            Statistics.label("dial failed a request").collect(model.requests.stream()
                    .anyMatch(r -> r.failure == PoolModel.Failure.DIAL_FAILED));
            Statistics.label("a dial served another request").collect(leases.stream()
                    .anyMatch(l -> !l.wasIdle && !l.afterDrain && !l.freshFromDial && !l.reused));
            current.finishAndCheck();
        } finally {
            if (current != null) {
                current.cleanUp();
            }
        }
    }

    @Provide
    Arbitrary<ActionChain<PoolHarness>> chains() {
        return setups().flatMap(setup -> ActionChain.<PoolHarness>startWith(() -> current = new PoolHarness(setup))
                .withAction(4, acquire())
                .withAction(4, onDial(request -> Arbitraries.integers().between(0, 4)
                        .map(i -> step("dial for r" + request + (i > 0 ? " connects" : " fails"),
                                s -> s.completeDial(request, i > 0)))))
                .withAction(4, onLease(l -> true, request -> Arbitraries.integers().between(0, 3)
                        .map(i -> step("release r" + request + (i > 0 ? "" : " not reusable"),
                                s -> s.release(request, i > 0)))))
                .withAction(3, onLease(l -> l.conn.state == PoolModel.CState.LEASED, request -> Arbitraries
                        .of(-1L, 1000L, 20_000L).map(left -> step("start drain r" + request + " (" + left + ")",
                                s -> s.startDrain(request, left)))))
                .withAction(1, onLease(l -> true, request -> Arbitraries.just(step("abort r" + request,
                        s -> s.abort(request)))))
                .withAction(1, onReleased(request -> step("release r" + request + " again",
                        s -> s.releaseAgain(request))))
                .withAction(1, onReleased(request -> step("late abort r" + request, s -> s.abort(request))))
                .withAction(3, advance())
                .withAction(2, Action.just("maintenance", step("maintenance", PoolHarness::runMaintenance)))
                .withAction(1, onIdle(false, id -> step("server closes idle c" + id, s -> s.serverClosesIdle(id))))
                .withAction(1, onIdle(true, id -> step("harmless wake of c" + id, s -> s.harmlessWake(id))))
                .withAction(1, onWaiting(request -> step("interrupt r" + request, s -> s.interrupt(request))))
                .withAction(2, onLease(l -> true, request -> Arbitraries.of(PoolHarness.DrainSample.class)
                        .map(sample -> step("drain recorded: " + sample, s -> s.learnDrain(request, sample)))))
                // The last: new connections that answer 30 ms after their dial though connect() returned (a slow
                // accept), where a request's drain may end first and the new connection is held back.
                .withAction(2, onLease(l -> true, request -> Arbitraries.of(
                        new long[] {8 * MS, 2 * MS}, new long[] {1_500_000, 500_000}, new long[] {300_000, 200_000},
                        new long[] {30 * MS, MS})
                        .map(rt -> step("round trips recorded: fresh " + rt[0] / 1000 + " µs, reused " + rt[1] / 1000
                                + " µs", s -> s.learnRoundTrips(request, rt[0], rt[1])))))
                // All at once, so that it comes up often enough to matter: an origin whose new connections answer
                // 30 ms after their dial (held back while a drain is due sooner) and whose drains take 2 ms.
                .withAction(2, onLease(l -> true, request -> Arbitraries.just(step("slow-to-answer origin learned",
                        s -> {
                            s.learnRoundTrips(request, 30 * MS, MS);
                            s.learnRoundTrips(request, 30 * MS, MS);
                            s.learnDrain(request, PoolHarness.DrainSample.SLOW);
                        }))))
                .withAction(4, onTimer(true, request -> step("timer of r" + request + " fires",
                        s -> s.fireGrace(request))))
                .withAction(1, onTimer(false, request -> step("timer of r" + request + " fires",
                        s -> s.fireGrace(request))))
                // Late in a chain only: a closed pool has little left to do.
                .withAction(1, Action.<PoolHarness>when(h -> !h.model.closed && h.log.size() > 30)
                        .just(step("close", PoolHarness::closePool)))
                .withMaxTransformations(50));
    }

    private static Arbitrary<PoolHarness.Setup> setups() {
        Arbitrary<Integer> maxConns = Arbitraries.of(1, 2, 3, Integer.MAX_VALUE);
        Arbitrary<Integer> maxIdlePerHost = Arbitraries.of(PoolConfig.ADAPTIVE, PoolConfig.ADAPTIVE, 0, 1, 2);
        Arbitrary<Integer> maxIdleTotal = Arbitraries.of(1, 2, 256, 256);
        Arbitrary<Duration> idleTimeout = Arbitraries.of(Duration.ofSeconds(10), Duration.ofSeconds(3),
                Duration.ofMillis(500));
        // The default (hand-off with spares, timers) half the time; bounded and none, which never wait for a drain.
        Arbitrary<DrainPolicy> policy = Arbitraries.of(DrainPolicy.defaults(), DrainPolicy.defaults(),
                DrainPolicy.bounded(1000, Duration.ofMillis(50)), DrainPolicy.none());
        return Combinators.combine(maxConns, maxIdlePerHost, maxIdleTotal, idleTimeout, policy)
                .as(PoolHarness.Setup::new);
    }

    private static Transformer<PoolHarness> step(String description, Consumer<PoolHarness> action) {
        return Transformer.mutate(description, action);
    }

    private static Action<PoolHarness> acquire() {
        return new Action.Independent<>() {
            @Override
            public boolean precondition(PoolHarness h) {
                return h.model.waiting().size() < 5;
            }

            @Override
            public Arbitrary<Transformer<PoolHarness>> transformer() {
                Arbitrary<Boolean> fresh = Arbitraries.integers().between(0, 7).map(i -> i == 0);
                Arbitrary<Boolean> checked = Arbitraries.of(false, true);
                Arbitrary<Long> deadline = Arbitraries.of(-1L, -1L, -1L, -1L, 0L, MS, 3 * MS);
                return Combinators.combine(fresh, checked, deadline).as((f, c, d) -> step("acquire"
                        + (f ? " fresh" : "") + (c ? " checked" : "") + (d < 0 ? "" : " deadline +" + d / MS + "ms"),
                        s -> s.acquire(f, c, d)));
            }
        };
    }

    private static Action<PoolHarness> advance() {
        return new Action.Dependent<>() {
            @Override
            public Arbitrary<Transformer<PoolHarness>> transformer(PoolHarness h) {
                long timeout = h.setup.idleTimeout().toNanos();
                return Arbitraries.of(MS / 4, MS, 3 * MS, 45 * MS, SECOND, SECOND, timeout / 2, timeout)
                        .map(nanos -> step("clock +" + nanos / 1000 + "µs", s -> s.advance(nanos)));
            }
        };
    }

    private static Action<PoolHarness> onDial(Function<Integer, Arbitrary<Transformer<PoolHarness>>> steps) {
        return on(h -> h.model.dials.stream().map(r -> r.id).toList(), requests -> requests.flatMap(steps));
    }

    /** On a lease still out (held or aborted) that {@code filter} accepts. */
    private static Action<PoolHarness> onLease(Predicate<PoolModel.Lease> filter,
                                               Function<Integer, Arbitrary<Transformer<PoolHarness>>> steps) {
        return on(h -> h.model.leases(PoolModel.LState.HELD, PoolModel.LState.ABORTED).stream().filter(filter)
                .map(l -> l.req.id).toList(), requests -> requests.flatMap(steps));
    }

    private static Action<PoolHarness> onReleased(Function<Integer, Transformer<PoolHarness>> step) {
        return on(h -> h.model.leases(PoolModel.LState.RELEASED).stream().map(l -> l.req.id).toList(),
                requests -> requests.map(step));
    }

    private static Action<PoolHarness> onWaiting(Function<Integer, Transformer<PoolHarness>> step) {
        return on(h -> h.model.waiting().stream().map(r -> r.id).toList(), requests -> requests.map(step));
    }

    /**
     * On a request whose grace, overrun or ready timer is pending; {@code waiting}: only one that still waits (timers
     * are never cancelled, so most pending ones have nothing left to do).
     */
    private static Action<PoolHarness> onTimer(boolean waiting, Function<Integer, Transformer<PoolHarness>> step) {
        return on(h -> h.model.graceTimers().stream().filter(t -> !waiting || !t.req.done).map(t -> t.req.id)
                .toList(), requests -> requests.map(step));
    }

    /** On an idle connection; {@code watched}: only one the watcher holds. */
    private static Action<PoolHarness> onIdle(boolean watched, Function<Integer, Transformer<PoolHarness>> step) {
        return on(h -> h.model.idle.stream().filter(c -> !watched || c.fakeWatched).map(c -> c.id).toList(),
                ids -> ids.map(step));
    }

    /**
     * An action on one of the ids {@code candidates} lists in the current state (requests or connections), possible
     * only while there is one; {@code steps} turns the choice among them into the step.
     */
    private static Action<PoolHarness> on(Function<PoolHarness, List<Integer>> candidates,
                                          Function<Arbitrary<Integer>, Arbitrary<Transformer<PoolHarness>>> steps) {
        return new Action.Dependent<>() {
            @Override
            public boolean precondition(PoolHarness h) {
                return !candidates.apply(h).isEmpty();
            }

            @Override
            public Arbitrary<Transformer<PoolHarness>> transformer(PoolHarness h) {
                return steps.apply(Arbitraries.of(candidates.apply(h)));
            }
        };
    }
}
