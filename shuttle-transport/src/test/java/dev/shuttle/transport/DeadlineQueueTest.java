package dev.shuttle.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeadlineQueueTest {
    private static final class Item extends DeadlineQueue.Entry {
        final String name;

        Item(String name) {
            this.name = name;
        }
    }

    private final DeadlineQueue<Item> queue = new DeadlineQueue<>();
    private final List<String> expired = new ArrayList<>();

    @Test
    void expiresEntriesInDeadlineOrderAndReportsTheNextDeadline() {
        queue.add(new Item("c"), 300);
        queue.add(new Item("a"), 100);
        queue.add(new Item("b"), 200);

        assertThat(queue.expire(99, item -> expired.add(item.name))).isEqualTo(100);
        assertThat(expired).isEmpty();

        assertThat(queue.expire(200, item -> expired.add(item.name))).isEqualTo(300);
        assertThat(expired).containsExactly("a", "b");

        assertThat(queue.expire(1000, item -> expired.add(item.name))).isEqualTo(DeadlineQueue.NONE);
        assertThat(expired).containsExactly("a", "b", "c");
        assertThat(queue.size()).isZero();
    }

    @Test
    void equalDeadlinesAreKeptApart() {
        Item first = new Item("first");
        Item second = new Item("second");
        queue.add(first, 50);
        queue.add(second, 50);
        assertThat(queue.size()).isEqualTo(2);
        assertThat(queue.remove(first)).isTrue();
        queue.expire(50, item -> expired.add(item.name));
        assertThat(expired).containsExactly("second");
    }

    @Test
    void removedEntriesNeverExpireAndMayBeAddedAgain() {
        Item item = new Item("x");
        queue.add(item, 10);
        assertThat(queue.remove(item)).isTrue();
        assertThat(queue.remove(item)).isFalse();
        assertThat(queue.expire(100, i -> expired.add(i.name))).isEqualTo(DeadlineQueue.NONE);
        assertThat(expired).isEmpty();

        queue.add(item, 500);
        assertThat(item.deadline()).isEqualTo(500);
        assertThat(queue.expire(100, i -> expired.add(i.name))).isEqualTo(500);
    }

    @Test
    void anEntryIsQueuedOnceAtATime() {
        Item item = new Item("x");
        queue.add(item, 10);
        assertThatThrownBy(() -> queue.add(item, 20)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void drainHandsOverEverything() {
        queue.add(new Item("b"), 2);
        queue.add(new Item("a"), 1);
        queue.drain(item -> expired.add(item.name));
        assertThat(expired).containsExactly("a", "b");
        assertThat(queue.size()).isZero();
    }
}
