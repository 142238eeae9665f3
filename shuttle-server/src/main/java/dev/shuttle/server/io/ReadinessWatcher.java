package dev.shuttle.server.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The shared readiness watcher that lets an idle connection hold no thread: one platform thread with an NIO
 * {@link Selector} waits for bytes on every parked channel and, when they arrive, hands the channel back in blocking
 * mode to its owner, who starts a fresh virtual thread. It also closes parked channels at their deadline (idle or
 * header timeout) and all of them on shutdown.
 *
 * <p>Park/unpark protocol. A connection thread with nothing left to do switches its (unregistered) channel to
 * non-blocking mode and calls {@link #park}; from then on it must not touch the channel. The watcher registers the
 * channel for OP_READ and adds its deadline. On readiness it cancels the key; a channel cannot return to blocking mode
 * while a cancelled key still registers it, and cancelled keys are only flushed by the next selection operation, so
 * the watcher runs {@code selectNow()} (repeating while that selects more keys, which are cancelled too), then sets
 * blocking mode and calls {@link Parkable#onReadable()}. Races: bytes that arrive between the connection's last read
 * and the registration are seen by the first select (epoll is level-triggered); a channel closed by someone else
 * while queued fails its registration and is reported closed; readiness wins over a deadline that passed while the
 * watcher was busy, because each round selects first and expires deadlines last; a wakeup swallowed by the flushing
 * {@code selectNow()} cannot strand a park, because the wakeup flag is cleared only after the round's last selection,
 * just before the queue is drained; a park after shutdown began is refused ({@code park} returns false) so no
 * connection can slip in behind the final sweep.
 *
 * <p>Lifecycle: NEW → RUNNING ({@link #start()}) → CLOSING ({@link #close()}) → CLOSED (the thread closed every parked
 * channel and its selector, and ended).
 */
public final class ReadinessWatcher implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ReadinessWatcher.class.getName());

    /** Why the watcher gives a parked channel back closed. */
    public enum CloseReason { DEADLINE, SHUTDOWN, CHANNEL_CLOSED }

    /** A connection waiting for bytes. Callbacks run on the watcher thread: they must be quick and never block. */
    public interface Parkable {
        SocketChannel channel();

        /** Bytes (or EOF) arrived; the channel is deregistered and blocking again. Start a thread to read them. */
        void onReadable();

        /** The watcher is done with this channel without readiness: close it. */
        void closeParked(CloseReason reason);
    }

    private enum Lifecycle { NEW, RUNNING, CLOSING, CLOSED }

    /** Test seam: code run on the watcher thread at two points of a round, to stage races deterministically. */
    interface RoundHooks {
        RoundHooks NONE = new RoundHooks() {
        };

        /** Before the selectNow() that flushes cancelled keys. */
        default void beforeFlush() {
        }

        /** After the round registered the parks it drained. */
        default void afterRegister() {
        }
    }

    /** One stay in the watcher; attached to the selection key. */
    private static final class Registration extends DeadlineQueue.Entry {
        final Parkable parkable;
        final long requestedDeadline;
        SelectionKey key; // watcher thread only

        Registration(Parkable parkable, long requestedDeadline) {
            this.parkable = parkable;
            this.requestedDeadline = requestedDeadline;
        }
    }

    private final Selector selector;
    private final LongSupplier nanoClock;
    private final RoundHooks hooks;
    private final Thread thread;

    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by lock. */
    private Lifecycle lifecycle = Lifecycle.NEW;
    /** Guarded by lock: parks not yet registered with the selector. */
    private final ArrayDeque<Registration> pending = new ArrayDeque<>();
    /** True while a wakeup is on its way to the selector, so a burst of parks costs one wakeup. */
    private final AtomicBoolean wakeupPending = new AtomicBoolean();

    /** Watcher thread only. */
    private final DeadlineQueue<Registration> deadlines = new DeadlineQueue<>();
    /** Watcher thread only: registrations whose channel became readable in this round. */
    private final List<Registration> ready = new ArrayList<>();

    public ReadinessWatcher(String name, LongSupplier nanoClock) {
        this(name, nanoClock, RoundHooks.NONE);
    }

    ReadinessWatcher(String name, LongSupplier nanoClock, RoundHooks hooks) {
        this.hooks = hooks;
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector", e);
        }
        this.nanoClock = nanoClock;
        this.thread = Thread.ofPlatform().name(name).daemon(true).unstarted(this::run);
    }

    public void start() {
        lock.lock();
        try {
            if (lifecycle != Lifecycle.NEW) {
                throw new IllegalStateException("state: " + lifecycle);
            }
            lifecycle = Lifecycle.RUNNING;
        } finally {
            lock.unlock();
        }
        thread.start();
    }

    /**
     * Hands a channel to the watcher until bytes arrive or {@code deadline} (nanoTime) passes. The channel must be in
     * non-blocking mode and registered nowhere; the caller must not touch it afterwards.
     *
     * @return false when the watcher is shutting down: the caller keeps the channel and should close it
     */
    public boolean park(Parkable parkable, long deadline) {
        if (parkable.channel().isBlocking()) {
            throw new IllegalBlockingModeException();
        }
        lock.lock();
        try {
            if (lifecycle != Lifecycle.RUNNING) {
                return false;
            }
            pending.add(new Registration(parkable, deadline));
        } finally {
            lock.unlock();
        }
        if (!wakeupPending.getAndSet(true)) {
            selector.wakeup();
        }
        return true;
    }

    /**
     * Closes every parked channel (reason SHUTDOWN), refuses further parks and stops the thread; waits for it.
     * Idempotent.
     */
    @Override
    public void close() {
        lock.lock();
        try {
            if (lifecycle == Lifecycle.NEW) {
                lifecycle = Lifecycle.CLOSED;
                closeSelector();
                return;
            }
            if (lifecycle == Lifecycle.RUNNING) {
                lifecycle = Lifecycle.CLOSING;
            }
        } finally {
            lock.unlock();
        }
        selector.wakeup();
        if (Thread.currentThread() != thread) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        try {
            long nextDeadline = DeadlineQueue.NONE;
            while (true) {
                selector.select(this::onSelected, selectTimeoutMillis(nextDeadline, nanoClock.getAsLong()));
                if (!ready.isEmpty()) {
                    resumeReady();
                }
                // Only now, after the last selection of this round (resumeReady's selectNow also swallows wakeups),
                // and before draining: a park that still saw the flag set is drained below; a park after this line
                // sees it clear and wakes the next select.
                wakeupPending.set(false);
                List<Registration> batch;
                boolean closing;
                lock.lock();
                try {
                    batch = pending.isEmpty() ? List.of() : new ArrayList<>(pending);
                    pending.clear();
                    closing = lifecycle == Lifecycle.CLOSING;
                } finally {
                    lock.unlock();
                }
                if (closing) {
                    batch.forEach(registration -> close(registration, CloseReason.SHUTDOWN));
                    closeAllRegistered();
                    return;
                }
                batch.forEach(this::register);
                hooks.afterRegister();
                // Deadlines last: a channel found ready in this round has already left the queue, so readiness wins.
                nextDeadline = deadlines.expire(nanoClock.getAsLong(), registration -> {
                    registration.key.cancel();
                    close(registration, CloseReason.DEADLINE);
                });
            }
        } catch (Throwable t) {
            LOG.log(Level.ERROR, "readiness watcher failed; closing every parked connection", t);
            lock.lock();
            try {
                lifecycle = Lifecycle.CLOSING;
                pending.forEach(registration -> close(registration, CloseReason.SHUTDOWN));
                pending.clear();
            } finally {
                lock.unlock();
            }
            closeAllRegistered();
        } finally {
            lock.lock();
            try {
                lifecycle = Lifecycle.CLOSED;
            } finally {
                lock.unlock();
            }
            closeSelector();
        }
    }

    static long selectTimeoutMillis(long nextDeadline, long now) {
        if (nextDeadline == DeadlineQueue.NONE) {
            return 0; // no deadline: wait for readiness or a wakeup
        }
        long remaining = nextDeadline - now;
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(remaining + 999_999));
    }

    private void register(Registration registration) {
        try {
            registration.key = registration.parkable.channel().register(selector, SelectionKey.OP_READ, registration);
            deadlines.add(registration, registration.requestedDeadline);
        } catch (ClosedChannelException e) {
            close(registration, CloseReason.CHANNEL_CLOSED);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "cannot register a parked channel", e);
            close(registration, CloseReason.CHANNEL_CLOSED);
        }
    }

    private void onSelected(SelectionKey key) {
        Registration registration = (Registration) key.attachment();
        key.cancel();
        deadlines.remove(registration);
        ready.add(registration);
    }

    private void resumeReady() throws IOException {
        // Flush the cancelled keys so the channels can go back to blocking mode; keys that became ready meanwhile are
        // cancelled by onSelected as well, hence the loop.
        hooks.beforeFlush();
        while (selector.selectNow(this::onSelected) > 0) {
            // keep flushing
        }
        for (Registration registration : ready) {
            SocketChannel channel = registration.parkable.channel();
            try {
                channel.configureBlocking(true);
            } catch (IOException | IllegalBlockingModeException e) {
                close(registration, CloseReason.CHANNEL_CLOSED);
                continue;
            }
            try {
                registration.parkable.onReadable();
            } catch (RuntimeException | Error e) {
                LOG.log(Level.WARNING, "resuming a parked connection failed", e);
                close(registration, CloseReason.CHANNEL_CLOSED);
            }
        }
        ready.clear();
    }

    private void closeAllRegistered() {
        deadlines.drain(registration -> {
            registration.key.cancel();
            close(registration, CloseReason.SHUTDOWN);
        });
    }

    private static void close(Registration registration, CloseReason reason) {
        try {
            registration.parkable.closeParked(reason);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "closing a parked connection failed", e);
        }
    }

    private void closeSelector() {
        try {
            selector.close();
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "closing the selector failed", e);
        }
    }

    /** Registrations waiting in the selector (watcher thread only; for tests). */
    int registeredCount() {
        return deadlines.size();
    }
}
