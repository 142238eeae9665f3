package dev.shuttle.server.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Who starts the thread of a woken connection, and that no wake is lost or started twice. */
class WakeHandOffTest {
    private final List<String> started = new ArrayList<>();
    private final WakeHandOff wakes = new WakeHandOff(thread -> started.add(thread.getName()));

    @Test
    void withNobodyTakingTurnsTheWatcherStartsTheThreadItself() {
        wakes.handOff(unstarted("a"));
        assertThat(started).containsExactly("a");
    }

    @Test
    void whileAConnectionTakesTurnsItStartsTheWokenThreadsAtItsNextTurn() {
        wakes.enterTurns();
        wakes.handOff(unstarted("a"));
        wakes.handOff(unstarted("b"));
        assertThat(started).as("left to the turning connection").isEmpty();
        wakes.startWoken();
        assertThat(started).containsExactly("a", "b");
        wakes.exitTurns();
        assertThat(started).hasSize(2);
    }

    @Test
    void aConnectionThatStopsTakingTurnsStartsWhatWasQueuedMeanwhile() {
        wakes.enterTurns();
        wakes.enterTurns(); // two connections turning
        wakes.handOff(unstarted("a"));
        wakes.exitTurns();
        assertThat(started).as("the first to leave starts it").containsExactly("a");
        wakes.handOff(unstarted("b"));
        assertThat(started).hasSize(1);
        wakes.exitTurns();
        assertThat(started).containsExactly("a", "b");
        wakes.handOff(unstarted("c"));
        assertThat(started).as("nobody turning any more").containsExactly("a", "b", "c");
    }

    @Test
    void aWakeRacingTheLastTurnerOutIsStartedByOneOfThemAndOnce() throws Exception {
        int rounds = 20_000;
        AtomicInteger startCount = new AtomicInteger();
        WakeHandOff shared = new WakeHandOff(thread -> startCount.incrementAndGet());
        CyclicBarrier together = new CyclicBarrier(2);
        Thread turner = Thread.ofPlatform().start(() -> {
            try {
                for (int i = 0; i < rounds; i++) {
                    shared.enterTurns();
                    together.await(10, TimeUnit.SECONDS);
                    shared.exitTurns(); // races the watcher's hand-off below
                    together.await(10, TimeUnit.SECONDS);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        for (int i = 0; i < rounds; i++) {
            together.await(10, TimeUnit.SECONDS);
            shared.handOff(unstarted("w" + i));
            together.await(10, TimeUnit.SECONDS);
            // Nobody turns now and nobody will until the next round: the wake must have been started already.
            assertThat(startCount.get()).as("round %d", i).isEqualTo(i + 1);
        }
        assertThat(turner.join(Duration.ofSeconds(10))).isTrue();
    }

    private static Thread unstarted(String name) {
        return Thread.ofVirtual().name(name).unstarted(() -> { });
    }
}
