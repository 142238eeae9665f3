package dev.shuttle.client.drain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The drain budget's branches as a table: no clock, no socket (issue 14: bodies past the byte cap). */
class DrainBudgetTest {
    private static final long MS = 1_000_000;
    private static final long CAP = 256 * 1024;
    private static final long TIME_CAP = 50 * MS;
    private static final long CEILING = CAP * DrainBudget.CEILING_FACTOR;
    private static final double UNKNOWN = Double.NaN;
    /** Loopback speed: a megabyte per millisecond. */
    private static final double FAST = 1.0;

    private static DrainBudget plan(long remaining, boolean learns, long dialNanos, double bytesPerNano) {
        return DrainBudget.plan(remaining, CAP, TIME_CAP, learns, dialNanos, bytesPerNano);
    }

    @Test
    void withinTheCapOnlyTheTimeCapApplies() {
        for (boolean learns : new boolean[] {false, true}) {
            DrainBudget budget = plan(CAP, learns, 20 * MS, FAST);
            assertThat(budget.skips()).isFalse();
            assertThat(budget.bytes()).isEqualTo(CAP);
            assertThat(budget.passesCap()).isFalse();
        }
    }

    @Test
    void withoutLearningADeclaredLengthPastTheCapIsClosedAndChunkedStopsAtTheCap() {
        assertThat(plan(CAP + 1, false, 20 * MS, FAST).skips()).isTrue();
        DrainBudget chunked = plan(-1, false, 20 * MS, FAST);
        assertThat(chunked.bytes()).isEqualTo(CAP);
        assertThat(chunked.passesCap()).isFalse();
    }

    @Test
    void aBodyThatDrainsSoonerThanADialIsDrainedPastTheCapForAtMostTheDialsTime() {
        // 1 MiB at a megabyte per millisecond: about 1 ms, against a 20 ms dial.
        DrainBudget budget = plan(1 << 20, true, 20 * MS, FAST);
        assertThat(budget.skips()).isFalse();
        assertThat(budget.bytes()).isEqualTo(1 << 20);
        assertThat(budget.floorBytes()).isEqualTo(CAP);
        assertThat(budget.extensionNanos()).isEqualTo(20 * MS);
    }

    @Test
    void aBodyThatWouldOutlastTheDialIsClosedAtOnce() {
        // 1 MiB at 100 MB/s (10 ms) against a 6 ms dial, or over a slow link (10 Mbit/s) against 20 ms.
        assertThat(plan(1 << 20, true, 6 * MS, 0.1).skips()).isTrue();
        assertThat(plan(1 << 20, true, 6 * MS, FAST).skips()).isFalse();
        assertThat(plan(1 << 20, true, 20 * MS, 1.25e-3).skips()).isTrue();
        assertThat(plan(1 << 20, true, 20 * MS, 0.0).skips()).isTrue();
    }

    @Test
    void nothingMeasuredYetTriesOnceBoundedByTheDialsTime() {
        DrainBudget budget = plan(1 << 20, true, 8 * MS, UNKNOWN);
        assertThat(budget.skips()).isFalse();
        assertThat(budget.extensionNanos()).isEqualTo(8 * MS);
    }

    @Test
    void noDialMeasuredOrACheapOneMeansNoExtension() {
        assertThat(plan(1 << 20, true, 0, FAST).skips()).isTrue();
        assertThat(plan(-1, true, 0, FAST).passesCap()).isFalse();
        long cheap = DrainBudget.MIN_DIAL_TO_PASS_CAP_NANOS - 1;
        assertThat(plan(CAP + 1, true, cheap, 1000.0).skips()).as("loopback: closing costs next to nothing").isTrue();
        assertThat(plan(-1, true, cheap, 1000.0).passesCap()).isFalse();
        assertThat(plan(CAP + 1, true, cheap + 1, 1000.0).skips()).isFalse();
    }

    @Test
    void theExtensionNeverPassesTheTimeCapNorTheCeiling() {
        DrainBudget slowDial = plan(1 << 20, true, 200 * MS, FAST);
        assertThat(slowDial.extensionNanos()).isEqualTo(TIME_CAP);
        assertThat(plan(CEILING, true, 200 * MS, 1000.0).skips()).isFalse();
        assertThat(plan(CEILING + 1, true, 200 * MS, 1000.0).skips()).as("past the ceiling").isTrue();
        DrainBudget chunked = plan(-1, true, 20 * MS, FAST);
        assertThat(chunked.bytes()).isEqualTo(CEILING);
        assertThat(chunked.floorBytes()).isEqualTo(CAP);
        assertThat(chunked.extensionNanos()).isEqualTo(20 * MS);
    }
}
