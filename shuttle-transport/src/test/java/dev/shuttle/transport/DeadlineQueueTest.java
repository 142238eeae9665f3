package dev.shuttle.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
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

    @Test
    void randomAddsAndRemovesExpireInDeadlineOrder() {
        Random random = new Random(7);
        List<Item> queued = new ArrayList<>();
        for (int round = 0; round < 200; round++) {
            for (int i = 0; i < 50; i++) {
                Item item = new Item("i" + round + "-" + i);
                queue.add(item, random.nextInt(1_000));
                queued.add(item);
            }
            for (int i = 0; i < 20; i++) {
                Item item = queued.remove(random.nextInt(queued.size()));
                assertThat(queue.remove(item)).isTrue();
            }
            assertThat(queue.size()).isEqualTo(queued.size());
        }
        long now = 500;
        List<Item> due = queued.stream().filter(item -> item.deadline() <= now)
                .sorted(Comparator.comparingLong(Item::deadline)).toList();
        List<Item> handed = new ArrayList<>();
        long next = queue.expire(now, handed::add);
        assertThat(handed).extracting(Item::deadline).isSorted()
                .containsExactlyElementsOf(due.stream().map(Item::deadline).toList());
        assertThat(handed).containsExactlyInAnyOrderElementsOf(due);
        assertThat(next).isEqualTo(queued.stream().mapToLong(Item::deadline).filter(d -> d > now).min().orElseThrow());
        List<Item> rest = new ArrayList<>();
        queue.drain(rest::add);
        assertThat(rest).extracting(Item::deadline).isSorted();
        assertThat(rest.size() + handed.size()).isEqualTo(queued.size());
        assertThat(queue.size()).isZero();
    }
}
