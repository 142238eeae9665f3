package dev.shuttle.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.client.testing.Await;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SchedulerTest {
    @Test
    void runsTasksInDueOrderSkipsCancelledOnesAndHoldsNoThreadWhenEmpty() throws Exception {
        Scheduler scheduler = new Scheduler("test");
        List<String> ran = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(1);
        long ms = 1_000_000;
        scheduler.schedule(30 * ms, () -> {
            ran.add("late");
            done.countDown();
        });
        scheduler.schedule(10 * ms, () -> ran.add("early"));
        Scheduler.Task cancelled = scheduler.schedule(20 * ms, () -> ran.add("cancelled"));
        cancelled.cancel();
        assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(ran).containsExactly("early", "late");
        Await.until("runner thread gone with the last task", () -> !scheduler.isRunning());
        assertThat(scheduler.pending()).isZero();
        CountDownLatch again = new CountDownLatch(1);
        scheduler.schedule(0, again::countDown); // starts a runner again
        assertThat(again.await(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aFailingTaskDoesNotStopTheOthers() throws Exception {
        Scheduler scheduler = new Scheduler("test-failing");
        CountDownLatch ran = new CountDownLatch(1);
        scheduler.schedule(0, () -> {
            throw new IllegalStateException("task bug");
        });
        scheduler.schedule(1_000_000, ran::countDown);
        assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void deadlinesSaturate() {
        assertThat(Deadline.after(Long.MAX_VALUE - 5, 10)).isEqualTo(Deadline.NONE);
        assertThat(Deadline.after(5, Deadline.NONE)).isEqualTo(Deadline.NONE);
        assertThat(Deadline.after(5, 10)).isEqualTo(15);
    }
}
