package dev.shuttle.client.pool;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CostModelTest {
    private static final long MS = 1_000_000;

    @Test
    void dialCostIsFreshMinusReusedFirstByteTimeWithAFloor() {
        CostModel costs = new CostModel();
        assertThat(costs.dialCostNanos()).isEqualTo(CostModel.MIN_DIAL_COST_NANOS);
        costs.recordFreshFirstByte(30 * MS);
        assertThat(costs.dialCostNanos()).as("no reused sample yet: the whole fresh time").isEqualTo(30 * MS);
        costs.recordReusedFirstByte(2 * MS);
        assertThat(costs.dialCostNanos()).isEqualTo(28 * MS);
        costs.recordReusedFirstByte(29 * MS);
        costs.recordReusedFirstByte(29 * MS);
        assertThat(costs.dialCostNanos()).as("never below the floor").isEqualTo(CostModel.MIN_DIAL_COST_NANOS);
    }

    @Test
    void oneDrainIsEnoughHistoryAndOneOutlierDoesNotDecide() {
        CostModel costs = new CostModel();
        DrainProgress chunked = new DrainProgress(0, -1);
        DrainProgress sized = new DrainProgress(0, 100_000);
        assertThat(costs.expectedDrainNanos(chunked, 0)).isZero();
        assertThat(costs.drainsSeen()).isZero();
        costs.recordDrain(100_000, 2 * MS, true, 50 * MS);
        assertThat(costs.drainsSeen()).isEqualTo(1);
        assertThat(costs.expectedDrainNanos(chunked, 0)).as("one drain of history").isEqualTo(2 * MS);
        costs.recordDrain(100_000, 40 * MS, true, 50 * MS); // a stall
        assertThat(costs.expectedDrainNanos(chunked, 0)).as("of two, the quicker").isEqualTo(2 * MS);
        costs.recordDrain(100_000, 2 * MS, true, 50 * MS);
        assertThat(costs.expectedDrainNanos(chunked, 0)).isEqualTo(2 * MS);
        assertThat(costs.expectedDrainNanos(chunked, MS)).as("time already run counts").isEqualTo(MS);
        assertThat(costs.expectedDrainNanos(sized, 0)).as("remaining bytes over throughput").isEqualTo(2 * MS);
        sized.drained(50_000);
        assertThat(costs.expectedDrainNanos(sized, 0)).isEqualTo(MS);
        assertThat(costs.lastDrainGaveUp()).isFalse();
    }

    @Test
    void theLastDrainGivingUpIsRememberedUntilOneCompletes() {
        CostModel costs = new CostModel();
        costs.recordDrain(1000, MS, true, 50 * MS);
        costs.recordDrain(10, 50 * MS, false, 50 * MS);
        assertThat(costs.lastDrainGaveUp()).isTrue();
        costs.recordDrain(1000, MS, true, 50 * MS);
        assertThat(costs.lastDrainGaveUp()).isFalse();
    }

    @Test
    void theSpareWaitIsTheReusedRoundTripWithAOneMillisecondFloor() {
        CostModel costs = new CostModel();
        assertThat(costs.spareWaitNanos()).isEqualTo(CostModel.MIN_SPARE_WAIT_NANOS);
        costs.recordReusedFirstByte(MS / 10);
        assertThat(costs.spareWaitNanos()).isEqualTo(CostModel.MIN_SPARE_WAIT_NANOS);
        for (int i = 0; i < 5; i++) {
            costs.recordReusedFirstByte(30 * MS);
        }
        assertThat(costs.spareWaitNanos()).as("a WAN round trip").isEqualTo(30 * MS);
    }

    @Test
    void drainsThatGiveUpMakeTheOriginNotWorthWaitingFor() {
        CostModel costs = new CostModel();
        for (int i = 0; i < 3; i++) {
            costs.recordDrain(0, 50 * MS, false, 50 * MS);
        }
        assertThat(costs.expectedDrainNanos(new DrainProgress(0, 1000), 0)).isEqualTo(Long.MAX_VALUE);
        assertThat(costs.expectedDrainNanos(new DrainProgress(0, -1), 0)).isEqualTo(50 * MS);
    }

    @Test
    void anOriginWhoseDrainHitTheByteCapSkipsDrainsButRetriesOneInSixteen() {
        CostModel costs = new CostModel();
        assertThat(costs.skipDrainForByteCap(false)).isFalse();
        costs.recordDrain(256 * 1024, 2 * MS, false, 50 * MS); // stopped at the byte cap, well within the time cap
        int skipped = 0;
        for (int i = 0; i < 16; i++) {
            if (costs.skipDrainForByteCap(false)) {
                skipped++;
            }
        }
        assertThat(skipped).isEqualTo(CostModel.SKIPS_PER_RETRY);
        costs.recordDrain(2048, MS, true, 50 * MS); // the retry completed: bodies are small again
        assertThat(costs.skipDrainForByteCap(false)).isFalse();
        costs.recordDrain(10, 50 * MS, false, 50 * MS); // a time-cap failure is not a byte-cap one
        assertThat(costs.skipDrainForByteCap(false)).isFalse();
    }

    @Test
    void aDrainThatRanOutOfTimePastTheByteCapCountsAsOutgrowingIt() {
        CostModel costs = new CostModel();
        // Past the cap the drain may run as long as a dial (here 20 ms): it ran out, the body is too large for here.
        costs.recordDrainPastCap(3 << 20, 20 * MS, false, 20 * MS);
        assertThat(costs.lastDrainGaveUp()).isTrue();
        assertThat(costs.skipDrainForByteCap(false)).isTrue();
        assertThat(costs.skipDrainForByteCap(true)).as("it had the longer budget and still outgrew it").isTrue();
        assertThat(costs.drainBytesPerNano()).isEqualTo((3 << 20) / (20.0 * MS));
        costs.recordDrainPastCap(1 << 20, MS, true, 20 * MS); // completed past the cap: nothing to skip
        assertThat(costs.skipDrainForByteCap(false)).isFalse();
    }

    @Test
    void aDrainThatStoppedAtTheCapItselfDoesNotStopOneThatMayReadPastIt() {
        CostModel costs = new CostModel();
        // A new client's first chunked body: one dial measured, so its drain stopped at the cap.
        costs.recordDrain(256 * 1024, 2 * MS, false, 50 * MS);
        assertThat(costs.skipDrainForByteCap(false)).as("still held to the cap: skip").isTrue();
        // Once a second dial says a new connection costs more than draining, the next body may read past the cap:
        // closing it for a verdict reached at the cap would dial for every such body (measured: 18 connections per
        // 100 chunked 256 KiB + 1 bodies at a 20 ms dial, where draining past the cap keeps 2).
        for (int i = 0; i < 2 * CostModel.SKIPS_PER_RETRY; i++) {
            assertThat(costs.skipDrainForByteCap(true)).isFalse();
        }
    }

    @Test
    void passingTheCapNeedsTwoDialsAndTakesTheCheaperOfThem() {
        CostModel costs = new CostModel();
        costs.recordFreshFirstByte(40 * MS); // a cold process's first connection
        assertThat(costs.passCapDialCostNanos()).as("one dial is not enough").isZero();
        costs.recordFreshFirstByte(MS);
        costs.recordReusedFirstByte(MS / 2);
        assertThat(costs.passCapDialCostNanos()).isEqualTo(MS / 2);
        assertThat(costs.rawDialCostNanos()).as("the hand-off's estimate is the plain median").isGreaterThan(MS);
    }
}
