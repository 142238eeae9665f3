package dev.shuttle.wire.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The ids a side opens: in order by parity, opened below the next, none after 2^31-1. */
class OwnStreamIdsTest {
    @Test
    void aClientOpensOddIdsInOrderAndOnlyThoseWereOpened() {
        OwnStreamIds ids = new OwnStreamIds(true);
        assertThat(ids.wasOpened(1)).as("before the first stream").isFalse();
        assertThat(ids.next()).isEqualTo(1);
        assertThat(ids.next()).isEqualTo(3);
        // id: opened?
        int[][] table = {{0, 0}, {1, 1}, {2, 0}, {3, 1}, {4, 0}, {5, 0}, {7, 0}, {-1, 0}};
        for (int[] row : table) {
            assertThat(ids.wasOpened(row[0])).as("id %d", row[0]).isEqualTo(row[1] == 1);
        }
    }

    @Test
    void aServerOpensEvenIds() {
        OwnStreamIds ids = new OwnStreamIds(false);
        assertThat(ids.next()).isEqualTo(2);
        assertThat(ids.wasOpened(2)).isTrue();
        assertThat(ids.wasOpened(1)).isFalse();
        assertThat(ids.wasOpened(4)).isFalse();
    }

    @Test
    void theIdsRunOutAfterTheLargestAndEveryOneOfOursCountsAsOpened() {
        OwnStreamIds ids = new OwnStreamIds(Integer.MAX_VALUE - 2);
        assertThat(ids.next()).isEqualTo(Integer.MAX_VALUE - 2);
        assertThat(ids.exhausted()).isFalse();
        assertThat(ids.next()).isEqualTo(Integer.MAX_VALUE);
        assertThat(ids.exhausted()).isTrue();
        assertThatThrownBy(ids::next).isInstanceOf(IllegalStateException.class);
        assertThat(ids.wasOpened(Integer.MAX_VALUE)).isTrue();
        assertThat(ids.wasOpened(Integer.MAX_VALUE - 1)).isFalse();
    }
}
