package dev.shuttle.client.internal;

import java.lang.ref.Cleaner;

/**
 * The one Cleaner that reports responses and clients that became unreachable without being closed. Its daemon
 * thread is created on first use and shared by every client in the JVM.
 */
public final class Leaks {
    private static final Cleaner CLEANER = Cleaner.create();

    private Leaks() {
    }

    /** {@code action} must not refer to {@code owner}, or the owner never becomes unreachable. */
    public static Cleaner.Cleanable register(Object owner, Runnable action) {
        return CLEANER.register(owner, action);
    }
}
