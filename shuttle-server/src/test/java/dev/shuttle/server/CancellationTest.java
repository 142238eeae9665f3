package dev.shuttle.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CancellationTest {
    @Test
    void firesOnceWithItsCause() {
        Cancellation signal = Cancellation.create();
        assertThat(signal.isCancelled()).isFalse();
        ClientGoneException first = new ClientGoneException("first");
        assertThat(signal.cancel(first)).isTrue();
        assertThat(signal.cancel(new ClientGoneException("second"))).isFalse();
        assertThat(signal.cause()).isSameAs(first);
        assertThatThrownBy(signal::throwIfCancelled).isInstanceOf(ClientGoneException.class).hasMessage("first");
    }

    @Test
    void waitersWakeAndActionsRunInOrderOffTheFiringThread() throws Exception {
        Cancellation signal = Cancellation.create();
        List<String> ran = new CopyOnWriteArrayList<>();
        CountDownLatch actionsDone = new CountDownLatch(2);
        Thread firing = Thread.currentThread();
        signal.onCancel(() -> {
            ran.add(Thread.currentThread() == firing ? "on the firing thread" : "a");
            actionsDone.countDown();
        });
        AutoCloseable forgotten = signal.onCancel(() -> ran.add("forgotten"));
        signal.onCancel(() -> {
            ran.add("b");
            actionsDone.countDown();
        });
        forgotten.close();
        CountDownLatch woke = new CountDownLatch(1);
        Thread waiter = Thread.startVirtualThread(() -> {
            try {
                signal.await();
                woke.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(signal.await(Duration.ofMillis(1))).isFalse();
        signal.cancel(new IOException("stop"));
        assertThat(woke.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(actionsDone.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(ran).containsExactly("a", "b");
        waiter.join();
    }

    @Test
    void anActionAddedAfterFiringRunsAtOnce() throws Exception {
        Cancellation signal = Cancellation.create();
        signal.cancel(new IOException("done"));
        CountDownLatch ran = new CountDownLatch(1);
        signal.onCancel(ran::countDown);
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aChildFiresWithItsParentOrAlone() {
        Cancellation parent = Cancellation.create();
        Cancellation child = parent.child();
        Cancellation alone = parent.child();
        assertThat(alone.cancel(new IOException("timeout"))).isTrue();
        assertThat(parent.isCancelled()).isFalse();
        ClientGoneException gone = new ClientGoneException("gone");
        parent.cancel(gone);
        assertThat(child.cause()).isSameAs(gone);
        assertThat(alone.cause()).hasMessage("timeout");
        assertThat(parent.child().cause()).isSameAs(gone); // born cancelled
    }

    @Test
    void neverNeverFires() throws Exception {
        Cancellation never = Cancellation.never();
        assertThat(never.cancel(new IOException("x"))).isFalse();
        assertThat(never.isCancelled()).isFalse();
        never.onCancel(() -> {
            throw new AssertionError("must not run");
        }).close();
        assertThat(never.child().isCancelled()).isFalse();
    }
}
