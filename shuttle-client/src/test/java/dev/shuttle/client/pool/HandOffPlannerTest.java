package dev.shuttle.client.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.HandOffDecision;
import dev.shuttle.client.HandOffDecision.Kind;
import org.junit.jupiter.api.Test;

/** The hand-off rule as a table: what a request with no idle connection does, from what the pool knows. */
class HandOffPlannerTest {
    private static final long MS = 1_000_000;
    private static final long DIAL = 20 * MS;
    private static final long SPARE_WAIT = MS;

    private static HandOffDecision decide(boolean draining, long expected, int seen, boolean gaveUp, boolean spare) {
        return HandOffPlanner.decide(new HandOffPlanner.Facts(draining, expected, seen, gaveUp, DIAL, SPARE_WAIT,
                spare));
    }

    @Test
    void nothingDrainingDialsUnlessASpareIsOnItsWay() {
        assertThat(decide(false, 0, 5, false, false).kind()).isEqualTo(Kind.DIAL);
        assertThat(decide(false, 0, 5, false, true).kind()).isEqualTo(Kind.WAIT_FOR_SPARE);
    }

    @Test
    void withoutHistoryItWaitsAGraceThenDials() {
        HandOffDecision decision = decide(true, 0, 0, false, false);
        assertThat(decision.kind()).isEqualTo(Kind.WAIT_FOR_DRAIN_THEN_DIAL);
        assertThat(decision.spareWait().toNanos()).isEqualTo(SPARE_WAIT);
        assertThat(decision.reason()).contains("no drain of this origin has ended yet");
    }

    @Test
    void aQuickDrainIsWaitedForAlone() {
        HandOffDecision decision = decide(true, MS / 2, 3, false, false);
        assertThat(decision.kind()).isEqualTo(Kind.WAIT_FOR_DRAIN);
        assertThat(decision.dials()).isFalse();
        assertThat(decision.expectedDrain().toNanos()).isEqualTo(MS / 2);
    }

    @Test
    void aDrainCheaperThanADialButSlowForARequestIsWaitedForWithASpareDialedBeside() {
        HandOffDecision decision = decide(true, 10 * MS, 3, false, false);
        assertThat(decision.kind()).isEqualTo(Kind.WAIT_FOR_DRAIN_AND_DIAL_SPARE);
        assertThat(decision.dials()).isTrue();
        assertThat(decision.reason()).contains("10.000 ms").contains("dialing a spare");
        // One spare dial in flight at a time: the next request counts on it instead of dialing another.
        assertThat(decide(true, 10 * MS, 3, false, true).kind()).isEqualTo(Kind.WAIT_FOR_SPARE);
    }

    @Test
    void aDrainSlowerThanADialIsNotWaitedFor() {
        assertThat(decide(true, 30 * MS, 3, false, false).kind()).isEqualTo(Kind.DIAL);
        assertThat(decide(true, Long.MAX_VALUE, 3, false, false).kind()).isEqualTo(Kind.DIAL);
        assertThat(decide(true, Long.MAX_VALUE, 3, false, false).expectedDrain()).isNull();
        assertThat(decide(true, 30 * MS, 3, false, true).kind()).isEqualTo(Kind.WAIT_FOR_SPARE);
    }

    @Test
    void oneDrainThatGaveUpStopsTheWaitingAtOnce() {
        // The old rule waited for three drains of history, losing up to three caps on a stalled origin.
        HandOffDecision decision = decide(true, 0, 1, true, false);
        assertThat(decision.kind()).isEqualTo(Kind.DIAL);
        assertThat(decision.reason()).contains("gave up");
        assertThat(decide(true, 0, 1, true, true).kind()).isEqualTo(Kind.WAIT_FOR_SPARE);
    }

    @Test
    void aDrainExpectedExactlyAtTheDialCostIsStillWaitedFor() {
        assertThat(decide(true, DIAL, 3, false, false).kind()).isEqualTo(Kind.WAIT_FOR_DRAIN_AND_DIAL_SPARE);
        assertThat(decide(true, SPARE_WAIT, 3, false, false).kind()).isEqualTo(Kind.WAIT_FOR_DRAIN_AND_DIAL_SPARE);
        assertThat(decide(true, SPARE_WAIT - 1, 3, false, false).kind()).isEqualTo(Kind.WAIT_FOR_DRAIN);
    }
}
