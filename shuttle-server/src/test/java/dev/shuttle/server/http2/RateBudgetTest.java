package dev.shuttle.server.http2;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The one-long token bucket behind the HTTP/2 flood limits, on a made-up clock. */
class RateBudgetTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void aBurstOfTheBudgetPassesAndTheNextEventDoesNot() {
        RateBudget budget = new RateBudget(10, SECOND);
        long now = 123_456_789L;
        for (int i = 0; i < 10; i++) {
            assertThat(budget.spend(now)).as("event " + i).isTrue();
        }
        assertThat(budget.spend(now)).isFalse();
        assertThat(budget.spend(now + SECOND / 20)).isFalse(); // half an interval later: still nothing back
    }

    @Test
    void theBudgetComesBackAtItsRate() {
        RateBudget budget = new RateBudget(10, SECOND);
        long now = -5 * SECOND; // nanoTime may be negative
        for (int i = 0; i < 10; i++) {
            budget.spend(now);
        }
        assertThat(budget.spend(now + SECOND / 10)).as("one interval later, one event").isTrue();
        assertThat(budget.spend(now + SECOND / 10)).isFalse();
        assertThat(budget.spend(now + 10 * SECOND)).as("long idle: a full burst again").isTrue();
        for (int i = 0; i < 9; i++) {
            assertThat(budget.spend(now + 10 * SECOND)).isTrue();
        }
        assertThat(budget.spend(now + 10 * SECOND)).isFalse();
    }

    @Test
    void aSteadyRateAtTheLimitIsNeverRefused() {
        RateBudget budget = new RateBudget(200, 30 * SECOND);
        long interval = 30 * SECOND / 200;
        for (int i = 0; i < 10_000; i++) {
            assertThat(budget.spend(i * interval)).isTrue();
        }
    }
}
