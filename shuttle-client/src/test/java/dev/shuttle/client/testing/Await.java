package dev.shuttle.client.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits for a condition that another thread makes true (a background drain ending, a server noticing a close),
 * polling with a generous bound. Not for ordering the test's own steps: those use latches.
 */
public final class Await {
    private Await() {
    }

    public static void until(String what, BooleanSupplier condition) throws InterruptedException {
        until(what, condition, Duration.ofSeconds(10));
    }

    public static void until(String what, BooleanSupplier condition, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + bound + " waiting for: " + what);
            }
            Thread.sleep(2);
        }
    }
}
