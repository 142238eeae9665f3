package dev.shuttle.wire.http2;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The two small records of stream ids a side keeps: ids the peer skipped, and streams recently reset. */
class StreamIdRecordsTest {
    @Test
    void idsSkippedBetweenTwoOpenedStreamsAreKnownAndTheOpenedOnesAreNot() {
        SkippedStreamIds skipped = new SkippedStreamIds();
        skipped.opened(0, 1);
        skipped.opened(1, 3);
        skipped.opened(3, 9); // skips 5 and 7
        assertThat(skipped.contains(1)).isFalse();
        assertThat(skipped.contains(3)).isFalse();
        assertThat(skipped.contains(5)).isTrue();
        assertThat(skipped.contains(7)).isTrue();
        assertThat(skipped.contains(9)).isFalse();
        skipped.opened(0, 5); // a first stream of 5 skips 1 and 3
        assertThat(skipped.contains(1)).isTrue();
    }

    @Test
    void onlyTheLastRangesAreKept() {
        SkippedStreamIds skipped = new SkippedStreamIds();
        int highest = 1;
        for (int i = 0; i < SkippedStreamIds.RANGES + 1; i++) {
            skipped.opened(highest, highest + 4);
            highest += 4;
        }
        assertThat(skipped.contains(3)).as("the oldest range is forgotten").isFalse();
        assertThat(skipped.contains(highest - 2)).isTrue();
    }

    @Test
    void recentResetsRememberTheLastOnesOnly() {
        RecentResets resets = new RecentResets();
        for (int id = 1; id < 2 * RecentResets.SIZE + 2; id += 2) {
            resets.add(id);
        }
        assertThat(resets.contains(1)).isFalse();
        assertThat(resets.contains(2 * RecentResets.SIZE + 1)).isTrue();
        assertThat(resets.contains(3)).isTrue();
        assertThat(resets.contains(2)).isFalse();
    }
}
