package dev.shuttle.lab.idle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.lab.servers.ServerKind;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class SampleMathTest {
    private static final long MIB = 1 << 20;

    @Test
    void medianOfAnOddCountIsTheMiddleValue() {
        assertThat(SampleMath.median(List.of(5L, 1L, 3L))).isEqualTo(3);
        assertThat(SampleMath.median(List.of(7L))).isEqualTo(7);
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheTwoMiddleValuesRoundedHalfUp() {
        assertThat(SampleMath.median(List.of(4L, 1L, 2L, 3L))).isEqualTo(3); // (2 + 3) / 2 = 2.5 -> 3
        assertThat(SampleMath.median(List.of(10L, 20L))).isEqualTo(15);
        assertThat(SampleMath.median(List.of(-3L, -2L))).isEqualTo(-2); // -2.5 rounds half up
        assertThat(SampleMath.medianOfDoubles(List.of(1.0, 2.0))).isEqualTo(1.5);
    }

    @Test
    void medianOfNothingIsZeroOrNaN() {
        assertThat(SampleMath.median(List.of())).isZero();
        assertThat(SampleMath.medianOfDoubles(List.of())).isNaN();
    }

    @Test
    void samplesAreMedianedFieldByFieldNotBySample() {
        List<IdleSample> samples = List.of(
                new IdleSample(100, 9, 20, 0),
                new IdleSample(300, 7, 22, 5),
                new IdleSample(200, 8, 21, 1));
        assertThat(SampleMath.medianOfSamples(samples)).isEqualTo(new IdleSample(200, 8, 21, 1));
    }

    @Test
    void perConnectionIsGrowthOverBaselineDividedByConnections() {
        assertThat(SampleMath.perConnection(10 * MIB, 20 * MIB, 1024)).isEqualTo(10 * 1024.0);
        assertThat(SampleMath.perConnection(500, 400, 100)).isEqualTo(-1.0); // shrinking is reported, not hidden
        assertThatThrownBy(() -> SampleMath.perConnection(0, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRoundComparesTheMedianOfItsLoadedSamplesWithTheMedianOfItsBaseline() {
        IdleRound round = IdleRound.of(ServerKind.JETTY, 1000, 1,
                List.of(new IdleSample(100 * MIB, 10 * MIB, 20, 2), new IdleSample(104 * MIB, 12 * MIB, 20, 2),
                        new IdleSample(102 * MIB, 11 * MIB, 20, 2)),
                List.of(new IdleSample(110 * MIB, 14 * MIB, 21, 1002), new IdleSample(111 * MIB, 15 * MIB, 21, 1002),
                        new IdleSample(150 * MIB, 13 * MIB, 22, 1002)),
                1001, 0, null);
        assertThat(round.baseline()).isEqualTo(new IdleSample(102 * MIB, 11 * MIB, 20, 2));
        assertThat(round.loaded()).isEqualTo(new IdleSample(111 * MIB, 14 * MIB, 21, 1002));
        assertThat(round.rssPerConnection()).isCloseTo(9 * MIB / 1000.0, Offset.offset(1e-9));
        assertThat(round.heapPerConnection()).isCloseTo(3 * MIB / 1000.0, Offset.offset(1e-9));
        assertThat(round.threadsPerConnection()).isEqualTo(1.001); // 1 OS thread + 1000 virtual threads
        assertThat(round.virtualThreadsPerConnection()).isEqualTo(1.0);
    }

    @Test
    void aCellTakesTheMedianOfTheRoundsOwnDeltasAndCountsLostConnections() {
        IdleCell cell = new IdleCell(ServerKind.NETTY, 100, List.of(
                round(1, 1000, 2000, 101), // 10 B per connection
                round(2, 5000, 5400, 101), // 4 B: a higher baseline, a smaller delta
                round(3, 1000, 9000, 99))); // 80 B; 2 connections closed by the server
        assertThat(cell.heapPerConnection()).isEqualTo(10.0);
        assertThat(cell.liveHeapBytes()).isEqualTo(5400); // the median of the loaded figures, not base + delta
        assertThat(cell.baselineLiveHeapBytes()).isEqualTo(1000);
        assertThat(cell.lostConnections()).isEqualTo(2);
    }

    private static IdleRound round(int n, long heapBefore, long heapAfter, int heldAtEnd) {
        return IdleRound.of(ServerKind.NETTY, 100, n, List.of(new IdleSample(0, heapBefore, 10, 0)),
                List.of(new IdleSample(0, heapAfter, 10, 0)), heldAtEnd, 0, null);
    }
}
