package dev.shuttle.client.http1;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.wire.http1.Http1Source;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The turns an exchange takes before blocking for a response, and the credit that decides whether it takes them. */
class ResponseTurnsTest {
    /** The turns of one round that finds nothing, at 1 µs a turn. */
    private static final int ROUND = (int) TimeUnit.NANOSECONDS.toMicros(ResponseTurns.BUDGET_NANOS);
    /** A source whose looks find what the test scripted, one result per look, and nothing after the script. */
    private static final class ScriptedLooks implements Http1Source {
        private final Deque<Integer> results = new ArrayDeque<>();
        int looks;

        ScriptedLooks then(int... found) {
            for (int n : found) {
                results.add(n);
            }
            return this;
        }

        @Override
        public ByteBuffer buffer() {
            return ByteBuffer.allocate(0);
        }

        @Override
        public int fill() {
            throw new AssertionError("the turns never block");
        }

        @Override
        public int fillNow() {
            looks++;
            Integer n = results.poll();
            return n == null ? 0 : n;
        }
    }

    private int turnsTaken;
    private long now;
    /** How far the clock moves during a turn. */
    private long turnNanos = TimeUnit.MICROSECONDS.toNanos(1);
    private final ResponseTurns turns = new ResponseTurns(() -> {
        turnsTaken++;
        now += turnNanos;
    }, () -> now);

    @Test
    void stopsAtTheTurnThatFoundTheResponse() throws Exception {
        ScriptedLooks source = new ScriptedLooks().then(0, 0, 120);
        assertThat(onVirtualThread(() -> turns.lookFor(source))).isEqualTo(120);
        assertThat(turnsTaken).isEqualTo(3);
        assertThat(source.looks).isEqualTo(3);
    }

    @Test
    void theTurnsStopWhenTheirTimeIsSpent() throws Exception {
        turnNanos = ResponseTurns.BUDGET_NANOS / 3;
        assertThat(onVirtualThread(() -> turns.lookFor(new ScriptedLooks()))).isZero();
        assertThat(turnsTaken).isEqualTo(3);
    }

    @Test
    void onASchedulerSoBusyThatOneTurnOutlastsTheBudgetOneTurnIsTaken() throws Exception {
        turnNanos = ResponseTurns.BUDGET_NANOS * 5;
        ScriptedLooks source = new ScriptedLooks().then(0, 7);
        assertThat(onVirtualThread(() -> turns.lookFor(source))).isZero();
        assertThat(turnsTaken).isOne();
        assertThat(source.looks).as("the look after the turn").isOne();
    }

    @Test
    void aClockThatDoesNotMoveStillBoundsTheTurns() throws Exception {
        turnNanos = 0;
        assertThat(onVirtualThread(() -> turns.lookFor(new ScriptedLooks()))).isZero();
        assertThat(turnsTaken).isEqualTo(ResponseTurns.MAX_TURNS);
    }

    @Test
    void aServerThatClosedEndsTheTurnsWithMinusOne() throws Exception {
        ScriptedLooks source = new ScriptedLooks().then(-1);
        assertThat(onVirtualThread(() -> turns.lookFor(source))).isEqualTo(-1);
        assertThat(turnsTaken).isOne();
    }

    @Test
    void aSlowServerUsesUpTheCreditAndIsProbedEverySixteenthResponse() throws Exception {
        ScriptedLooks silent = new ScriptedLooks();
        assertThat(onVirtualThread(() -> turns.lookFor(silent))).isZero();
        assertThat(turnsTaken).as("a new connection has credit for one round").isEqualTo(ROUND);

        turnsTaken = 0;
        for (int i = 1; i < ResponseTurns.PROBE_EVERY - 1; i++) {
            assertThat(onVirtualThread(() -> turns.lookFor(silent))).isZero();
        }
        assertThat(turnsTaken).as("no credit left: block at once").isZero();

        assertThat(onVirtualThread(() -> turns.lookFor(silent))).isZero();
        assertThat(turnsTaken).as("the probe").isEqualTo(ROUND);
    }

    @Test
    void aResponseFoundByAProbeRestoresTheFullCredit() throws Exception {
        ScriptedLooks source = new ScriptedLooks();
        for (int i = 0; i < ResponseTurns.PROBE_EVERY; i++) {
            onVirtualThread(() -> turns.lookFor(source)); // the first round and the probe find nothing
        }
        source.then(0, 50);
        onVirtualThread(() -> turns.lookFor(source)); // no credit, not a probe: no turn
        for (int i = 0; i < ResponseTurns.PROBE_EVERY - 2; i++) {
            onVirtualThread(() -> turns.lookFor(source));
        }
        turnsTaken = 0;
        assertThat(onVirtualThread(() -> turns.lookFor(source))).as("the probe finds it").isEqualTo(50);
        assertThat(turnsTaken).isEqualTo(2);

        turnsTaken = 0;
        for (int i = 0; i < ResponseTurns.CREDIT; i++) {
            assertThat(onVirtualThread(() -> turns.lookFor(source))).isZero();
        }
        assertThat(turnsTaken).as("each credit pays for one round").isEqualTo(ResponseTurns.CREDIT * ROUND);
        turnsTaken = 0;
        onVirtualThread(() -> turns.lookFor(source));
        assertThat(turnsTaken).as("spent").isZero();
    }

    @Test
    void aPlatformThreadTakesNoTurns() throws Exception {
        ScriptedLooks source = new ScriptedLooks().then(120);
        assertThat(Thread.currentThread().isVirtual()).isFalse();
        assertThat(turns.lookFor(source)).isZero();
        assertThat(turnsTaken).isZero();
        assertThat(source.looks).isZero();
    }

    private static <T> T onVirtualThread(Callable<T> task) throws Exception {
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<T> result = executor.submit(task);
            try {
                return result.get(10, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
        }
    }
}
