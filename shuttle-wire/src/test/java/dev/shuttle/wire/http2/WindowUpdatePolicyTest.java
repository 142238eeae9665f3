package dev.shuttle.wire.http2;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WindowUpdatePolicyTest {

    @Test
    void waitsUntilHalfTheWindowIsConsumedThenHandsItAllOut() {
        WindowUpdatePolicy policy = new WindowUpdatePolicy(65_536);

        assertThat(policy.consumed(16_384)).isZero();
        assertThat(policy.consumed(16_383)).isZero();
        assertThat(policy.pending()).isEqualTo(32_767);
        assertThat(policy.consumed(1)).isEqualTo(32_768);
        assertThat(policy.pending()).isZero();
    }

    @Test
    void oneLargeConsumptionIsOneUpdate() {
        WindowUpdatePolicy policy = new WindowUpdatePolicy(65_535);

        assertThat(policy.consumed(65_535)).isEqualTo(65_535);
    }

    @Test
    void peerSendingFullFramesToAReaderThatKeepsUpNeverStalls() throws Exception {
        Http2Window receive = new Http2Window(1, 65_535);
        WindowUpdatePolicy policy = new WindowUpdatePolicy(65_535);
        int updates = 0;
        for (int frame = 0; frame < 1000; frame++) {
            int length = Math.min(16_384, receive.size());
            assertThat(length).as("the peer may send").isGreaterThanOrEqualTo(65_535 / 2 - 16_384);
            receive.receive(length);
            int increment = policy.consumed(length);
            if (increment > 0) {
                receive.increase(increment);
                updates++;
            }
        }
        assertThat(updates).as("one update per half window").isBetween(450, 550);
    }

    @Test
    void smallerTargetMeansEarlierUpdates() {
        WindowUpdatePolicy policy = new WindowUpdatePolicy(65_536);
        policy.targetWindow(1000);

        assertThat(policy.consumed(500)).isEqualTo(500);
    }
}
