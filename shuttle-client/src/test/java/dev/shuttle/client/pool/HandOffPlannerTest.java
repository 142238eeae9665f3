package dev.shuttle.client.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.HandOffDecision;
import dev.shuttle.client.HandOffDecision.Kind;
import org.junit.jupiter.api.Test;

/** The hand-off rule as a table: what a request with no idle connection does, from what the pool knows. */
class HandOffPlannerTest {
    private static final long MS = 1_000_000;
    private static final long US = 1_000;

    /** An origin behind a 20 ms dial whose drains take {@code typical}; 3 drains seen, none failed, no spare. */
    private static final class F {
        boolean draining = true;
        long expected;
        long longestRunning;
        int seen = 3;
        long typical;
        boolean gaveUp;
        long dialCost = 20 * MS;
        long rawDialCost = 20 * MS;
        long spareWait = MS;
        boolean spare;

        F expected(long nanos) {
            expected = nanos;
            return this;
        }

        F typical(long nanos) {
            typical = nanos;
            return this;
        }

        F spare() {
            spare = true;
            return this;
        }

        /** Loopback: a dial really takes 0.3 ms, the model's floor says 5 ms. */
        F loopback() {
            dialCost = 5 * MS;
            rawDialCost = 300 * US;
            return this;
        }

        HandOffDecision decide() {
            return HandOffPlanner.decide(new HandOffPlanner.Facts(draining, expected, longestRunning, seen, typical,
                    gaveUp, dialCost, rawDialCost, spareWait, spare));
        }
    }

    @Test
    void nothingDrainingDialsUnlessASpareIsOnItsWay() {
        F f = new F();
        f.draining = false;
        assertThat(f.decide().kind()).isEqualTo(Kind.DIAL);
        assertThat(f.spare().decide().kind()).isEqualTo(Kind.WAIT_FOR_SPARE);
    }

    @Test
    void withoutHistoryItWaitsTheRestOfAGraceThenDials() {
        F f = new F();
        f.seen = 0;
        f.longestRunning = 200 * US;
        HandOffDecision decision = f.decide();
        assertThat(decision.kind()).isEqualTo(Kind.WAIT_FOR_DRAIN_THEN_DIAL);
        assertThat(decision.spareWait().toNanos()).as("the grace left").isEqualTo(800 * US);
        assertThat(decision.reason()).contains("no drain of this origin has ended yet");
    }

    @Test
    void withoutHistoryTheGraceIsNoLongerThanADial() {
        F f = new F().loopback();
        f.seen = 0;
        HandOffDecision decision = f.decide();
        assertThat(decision.kind()).isEqualTo(Kind.WAIT_FOR_DRAIN_THEN_DIAL);
        assertThat(decision.spareWait().toNanos()).as("ski rental: wait what a dial costs").isEqualTo(300 * US);
        f.longestRunning = 300 * US;
        assertThat(f.decide().kind()).isEqualTo(Kind.WAIT_FOR_DRAIN_AND_DIAL_SPARE);
    }

    @Test
    void withoutHistoryADrainAlreadyRunningLongerThanTheGraceMeansSlowDrains() {
        // Twenty requests of a 100 ms tail all come before the first drain gives up: none may wait a grace each.
        F f = new F();
        f.seen = 0;
        f.longestRunning = 3 * MS;
        assertThat(f.decide().kind()).isEqualTo(Kind.WAIT_FOR_DRAIN_AND_DIAL_SPARE);
        assertThat(f.spare().decide().kind()).isEqualTo(Kind.WAIT_FOR_SPARE);
    }

    @Test
    void aQuickDrainOfAQuickOriginIsWaitedForAlone() {
        HandOffDecision decision = new F().typical(400 * US).expected(300 * US).loopback().decide();
        assertThat(decision.kind()).isEqualTo(Kind.WAIT_FOR_DRAIN);
        assertThat(decision.dials()).isFalse();
        assertThat(decision.expectedDrain().toNanos()).isEqualTo(300 * US);
    }

    @Test
    void aDrainCheaperThanADialButSlowForARequestIsWaitedForWithASpareDialedBeside() {
        HandOffDecision decision = new F().typical(10 * MS).expected(10 * MS).decide();
        assertThat(decision.kind()).isEqualTo(Kind.WAIT_FOR_DRAIN_AND_DIAL_SPARE);
        assertThat(decision.dials()).isTrue();
        assertThat(decision.reason()).contains("10.000 ms").contains("dialing a spare");
        // One spare dial in flight at a time: the next request counts on it instead of dialing another.
        assertThat(new F().typical(10 * MS).expected(10 * MS).spare().decide().kind())
                .isEqualTo(Kind.WAIT_FOR_SPARE);
    }

    @Test
    void onASlowOriginEvenADrainAboutToEndIsNotWaitedForAlone() {
        // The estimate of a 10 ms drain is off by milliseconds on a busy host; the spare costs this request nothing.
        assertThat(new F().typical(10 * MS).expected(100 * US).decide().kind())
                .isEqualTo(Kind.WAIT_FOR_DRAIN_AND_DIAL_SPARE);
        assertThat(new F().typical(10 * MS).expected(100 * US).loopback().decide().kind())
                .isEqualTo(Kind.WAIT_FOR_DRAIN_AND_DIAL_SPARE);
        assertThat(new F().typical(10 * MS).expected(100 * US).spare().decide().kind())
                .isEqualTo(Kind.WAIT_FOR_SPARE);
    }

    @Test
    void aDrainSlowerThanADialIsNotWaitedFor() {
        assertThat(new F().typical(30 * MS).expected(30 * MS).decide().kind()).isEqualTo(Kind.DIAL);
        HandOffDecision never = new F().typical(50 * MS).expected(Long.MAX_VALUE).decide();
        assertThat(never.kind()).isEqualTo(Kind.DIAL);
        assertThat(never.expectedDrain()).isNull();
        assertThat(new F().typical(30 * MS).expected(30 * MS).spare().decide().kind()).isEqualTo(Kind.WAIT_FOR_SPARE);
    }

    @Test
    void oneDrainThatGaveUpStopsTheWaitingAtOnce() {
        // The old rule waited for three drains of history, losing up to three caps on a stalled origin.
        F f = new F().typical(MS / 10);
        f.seen = 1;
        f.gaveUp = true;
        HandOffDecision decision = f.decide();
        assertThat(decision.kind()).isEqualTo(Kind.DIAL);
        assertThat(decision.reason()).contains("gave up");
        assertThat(f.spare().decide().kind()).isEqualTo(Kind.WAIT_FOR_SPARE);
    }

    @Test
    void boundaries() {
        assertThat(new F().typical(20 * MS).expected(20 * MS).decide().kind())
                .as("exactly a dial: still waited for").isEqualTo(Kind.WAIT_FOR_DRAIN_AND_DIAL_SPARE);
        assertThat(new F().typical(MS - 1).expected(MS).decide().kind()).isEqualTo(Kind.WAIT_FOR_DRAIN_AND_DIAL_SPARE);
        assertThat(new F().typical(MS - 1).expected(MS - 1).decide().kind()).isEqualTo(Kind.WAIT_FOR_DRAIN);
        assertThat(new F().typical(MS).expected(MS - 1).decide().kind())
                .as("drains of the spare wait are slow").isEqualTo(Kind.WAIT_FOR_DRAIN_AND_DIAL_SPARE);
    }
}
