package dev.shuttle.wire.http2;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A server's view of the ids its client opens: idle above the highest, skipped ids closed for good. */
class PeerStreamIdsTest {
    @Test
    void everyIdIsIdleBeforeTheFirstStream() {
        PeerStreamIds ids = new PeerStreamIds();
        assertThat(ids.highest()).isZero();
        assertThat(ids.isIdle(1)).isTrue();
        assertThat(ids.wasSkipped(1)).isFalse();
        assertThat(ids.wasResetByUs(1)).isFalse();
    }

    @Test
    void openingInOrderSkipsNothing() {
        PeerStreamIds ids = new PeerStreamIds();
        for (int id = 1; id <= 99; id += 2) {
            ids.opened(id);
        }
        assertThat(ids.highest()).isEqualTo(99);
        assertThat(ids.isIdle(99)).isFalse();
        assertThat(ids.isIdle(101)).isTrue();
        for (int id = 1; id <= 99; id += 2) {
            assertThat(ids.wasSkipped(id)).as("id %d", id).isFalse();
        }
    }

    @Test
    void aJumpSkipsTheIdsBetween() {
        PeerStreamIds ids = new PeerStreamIds();
        ids.opened(5);
        ids.opened(11);
        assertThat(ids.wasSkipped(1)).isTrue();
        assertThat(ids.wasSkipped(3)).isTrue();
        assertThat(ids.wasSkipped(5)).isFalse();
        assertThat(ids.wasSkipped(7)).isTrue();
        assertThat(ids.wasSkipped(9)).isTrue();
        assertThat(ids.wasSkipped(11)).isFalse();
        assertThat(ids.isIdle(9)).as("a skipped id is no longer idle").isFalse();
    }

    @Test
    void aRefusedStreamIsUsedUpAndRemembered() {
        PeerStreamIds ids = new PeerStreamIds();
        ids.opened(1);
        ids.opened(3);
        ids.resetByUs(3);
        assertThat(ids.wasResetByUs(3)).isTrue();
        assertThat(ids.wasResetByUs(1)).isFalse();
        assertThat(ids.highest()).isEqualTo(3);
    }
}
