package dev.shuttle.server;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A signal that a request is over before its handler is: the client went away ({@link Request#cancellation()}: an
 * HTTP/2 RST_STREAM, an HTTP/1.1 peer close while the handler runs, the connection closed) or a middleware gave up on
 * it (a timeout). A handler may poll it ({@link #isCancelled()}), wait on it ({@link #await}), or register an action
 * ({@link #onCancel}) to stop work running elsewhere, as Go handlers use {@code r.Context().Done()}.
 *
 * <p>It fires once; its {@link #cause()} says why. Actions run on a virtual thread of their own, in registration order,
 * so firing never runs user code on the thread that noticed (the connection's reader, a lock holder). A
 * {@link #child()} fires with its parent or on its own. Thread-safe.
 */
public final class Cancellation {
    private static final Cancellation NEVER = new Cancellation();

    private final ReentrantLock lock = new ReentrantLock();
    /** Null until fired; written under lock, read without it. */
    private volatile IOException cause;
    /** Guarded by lock; made by the first waiter. */
    private Condition fired;
    /** Guarded by lock: actions and children to fire, null once fired or while none. */
    private List<Runnable> actions;
    /** Guarded by lock, like {@link #actions}. */
    private List<Cancellation> children;

    /** {@return a signal that has not fired; for middleware and tests (the server makes each request's own)} */
    public static Cancellation create() {
        return new Cancellation();
    }

    /** {@return a signal that never fires: the request of a handler called without a server} */
    public static Cancellation never() {
        return NEVER;
    }

    private Cancellation() {
    }

    /** {@return whether it fired} */
    public boolean isCancelled() {
        return cause != null;
    }

    /**
     * Why it fired ({@link ClientGoneException} when the client went away), or null while it has not.
     *
     * @return the cause, or null
     */
    public IOException cause() {
        return cause;
    }

    /**
     * Throws {@link #cause()} once fired: a check for loops that produce a response bit by bit.
     *
     * @throws IOException the cause, once this fired
     */
    public void throwIfCancelled() throws IOException {
        IOException why = cause;
        if (why != null) {
            throw why instanceof ClientGoneException gone ? new ClientGoneException(gone.getMessage(), gone)
                    : new IOException(why.getMessage(), why);
        }
    }

    /**
     * Waits until it fires.
     *
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public void await() throws InterruptedException {
        lock.lock();
        try {
            while (cause == null) {
                condition().await();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until it fires or {@code timeout} passes; true when it fired.
     *
     * @param timeout the longest wait
     * @return whether it fired
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public boolean await(Duration timeout) throws InterruptedException {
        long nanos = timeout.toNanos();
        lock.lock();
        try {
            while (cause == null) {
                if (nanos <= 0) {
                    return false;
                }
                nanos = condition().awaitNanos(nanos);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    private Condition condition() {
        assert lock.isHeldByCurrentThread();
        if (fired == null) {
            fired = lock.newCondition();
        }
        return fired;
    }

    /**
     * Runs {@code action} when this fires, on a virtual thread (at once on one if it already fired). Closing the
     * returned registration forgets the action if it has not run; an action for a long-lived resource should be
     * forgotten when the handler no longer needs it.
     *
     * @param action what to do on cancellation; it must not block for long
     * @return the registration; closing it forgets the action
     */
    public AutoCloseable onCancel(Runnable action) {
        Objects.requireNonNull(action, "action");
        if (this == NEVER) {
            return () -> {
            };
        }
        lock.lock();
        try {
            if (cause == null) {
                if (actions == null) {
                    actions = new ArrayList<>(2);
                }
                actions.add(action);
                return () -> forget(action);
            }
        } finally {
            lock.unlock();
        }
        Thread.ofVirtual().name("shuttle-cancelled").start(() -> run(action));
        return () -> {
        };
    }

    private void forget(Runnable action) {
        lock.lock();
        try {
            if (actions != null) {
                actions.remove(action);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * A signal that fires when this one does, and may also be fired on its own (by a timeout, say).
     *
     * @return a new child signal
     */
    public Cancellation child() {
        Cancellation child = new Cancellation();
        if (this == NEVER) {
            return child;
        }
        IOException already;
        lock.lock();
        try {
            already = cause;
            if (already == null) {
                if (children == null) {
                    children = new ArrayList<>(1);
                }
                children.add(child);
            }
        } finally {
            lock.unlock();
        }
        if (already != null) {
            child.cancel(already);
        }
        return child;
    }

    /**
     * Fires this signal (and its children) with {@code cause}, unless it already fired; wakes every waiter and starts
     * the actions. Never blocks and runs no user code on the calling thread, so the server calls it under its locks.
     *
     * @param cause why, handed to waiters through {@link #cause()}
     * @return true when this call fired it
     */
    public boolean cancel(IOException cause) {
        Objects.requireNonNull(cause, "cause");
        if (this == NEVER) {
            return false;
        }
        List<Runnable> toRun;
        List<Cancellation> toCancel;
        lock.lock();
        try {
            if (this.cause != null) {
                return false;
            }
            this.cause = cause;
            if (fired != null) {
                fired.signalAll();
            }
            toRun = actions;
            toCancel = children;
            actions = null;
            children = null;
        } finally {
            lock.unlock();
        }
        if (toCancel != null) {
            for (Cancellation child : toCancel) {
                child.cancel(cause);
            }
        }
        if (toRun != null && !toRun.isEmpty()) {
            Thread.ofVirtual().name("shuttle-cancelled").start(() -> toRun.forEach(Cancellation::run));
        }
        return true;
    }

    private static void run(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException | Error e) {
            System.getLogger(Cancellation.class.getName()).log(System.Logger.Level.WARNING,
                    "a cancellation action failed", e);
        }
    }

    @Override
    public String toString() {
        IOException why = cause;
        return why == null ? "Cancellation[not cancelled]" : "Cancellation[" + why.getMessage() + "]";
    }
}
