package dev.shuttle.client.testing;

import java.util.concurrent.CountDownLatch;

/** Test hooks that hold a thread at the exact point of a race until the test lets it go. */
public final class StagedHook {
    private StagedHook() {
    }

    /** A hook that says it was {@code reached}, then holds its thread until {@code release} opens. */
    public static Runnable pauseUntil(CountDownLatch reached, CountDownLatch release) {
        return () -> hold(reached, release);
    }

    /** Says {@code reached}, then holds the calling thread until {@code release} opens (or it is interrupted). */
    public static void hold(CountDownLatch reached, CountDownLatch release) {
        reached.countDown();
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
