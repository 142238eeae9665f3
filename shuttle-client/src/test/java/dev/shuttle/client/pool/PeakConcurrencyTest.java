package dev.shuttle.client.pool;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PeakConcurrencyTest {
    @Test
    void thePeakDecaysLinearlyToZeroOverTheWindow() {
        PeakConcurrency peak = new PeakConcurrency(100);
        assertThat(peak.allowance(0)).isZero();
        peak.observe(30, 0);
        assertThat(peak.allowance(0)).isEqualTo(30);
        assertThat(peak.allowance(50)).isEqualTo(15);
        assertThat(peak.allowance(99)).isEqualTo(1);
        assertThat(peak.allowance(100)).isZero();
    }

    @Test
    void aNewPeakReplacesADecayedOne() {
        PeakConcurrency peak = new PeakConcurrency(100);
        peak.observe(30, 0);
        peak.observe(10, 50); // below the decayed 15: ignored
        assertThat(peak.allowance(50)).isEqualTo(15);
        peak.observe(20, 50);
        assertThat(peak.allowance(50)).isEqualTo(20);
        assertThat(peak.allowance(100)).isEqualTo(10);
    }

    @Test
    void recentMedianFollowsTheMiddleNotTheOutliers() {
        RecentMedian median = new RecentMedian(3);
        assertThat(median.median()).isNaN();
        median.add(1);
        median.add(100);
        assertThat(median.median()).isEqualTo(50.5);
        median.add(2);
        assertThat(median.median()).isEqualTo(2);
        median.add(3); // drops the 1
        assertThat(median.median()).isEqualTo(3);
        assertThat(median.size()).isEqualTo(3);
    }
}
