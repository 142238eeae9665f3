package dev.shuttle.transport;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.function.LongSupplier;

/**
 * The shared readiness watcher that lets an idle connection hold no thread: one platform thread with an NIO
 * {@link java.nio.channels.Selector} waits on every parked channel and hands it back to its owner, deregistered and
 * in blocking mode, when bytes arrive, when its deadline passes, or when the watcher shuts down
 * ({@link Parkable#onWake}); or, when the owner wants it back first (a client checking out an idle connection, a
 * handler writing to a parked HTTP/2 connection), through {@link #unpark}. Server and client connections share this
 * class; a server has one watcher, and every client in the JVM shares another.
 *
 * <p>Park/unpark protocol. A connection with nothing left to do switches its (unregistered) channel to non-blocking
 * mode and calls {@link #park}; from then on it must not touch the channel until the channel comes back. The watcher
 * registers it for OP_READ and queues its deadline. A channel cannot return to blocking mode while a cancelled key
 * still registers it, and cancelled keys are flushed only by the next selection operation, so every hand-back cancels
 * keys, runs {@code selectNow()} (repeating while that selects more keys, which are handled the same way), and only
 * then sets blocking mode. Each park ends exactly once, in one of two ways: {@link Parkable#onWake} (readable,
 * deadline, shutdown, failure) or a successful {@link #unpark}; a {@link Ticket}'s state decides which, by
 * compare-and-set, so an unpark racing with readiness has one winner.
 *
 * <p>Races settled here: bytes that arrive between the connection's last read and the registration are seen by the
 * first select (epoll is level-triggered); a channel closed by someone else while queued fails its registration and
 * wakes as FAILED; a park after shutdown began is refused ({@code park} returns null) so no connection can slip in
 * behind the final sweep. The watcher thread's own rounds are {@code WatcherLoop}'s; the queues between owners and
 * that thread are {@code ParkRequests}'.
 *
 * <p>Lifecycle: NEW → RUNNING ({@link #start()}) → CLOSING ({@link #close()}) → CLOSED (every park was handed back
 * and the thread ended).
 */
public final class ReadinessWatcher implements AutoCloseable {
    /** Why the watcher hands a channel back. */
    public enum Wake {
        /** Bytes or end-of-stream arrived (for TLS, possibly a record that carries no application bytes). */
        READABLE,
        /** The park's deadline passed (idle or header timeout). */
        DEADLINE,
        /** The watcher is shutting down: the owner may say goodbye (HTTP/2 GOAWAY) and close. */
        SHUTDOWN,
        /** The channel could not be watched or handed back (closed under the watcher, or the watcher failed): close. */
        FAILED
    }

    /** A connection waiting in the watcher. */
    public interface Parkable {
        SocketChannel channel();

        /**
         * The watcher hands the channel back: deregistered and in blocking mode (except for {@link Wake#FAILED},
         * where its state is unknown and it should be closed). Runs on the watcher thread, which serves every parked
         * connection: start a virtual thread for anything more than a flag or a close. Never called for a park whose
         * owner took the channel back with {@link #unpark}.
         */
        void onWake(Wake reason);
    }

    /** Test seam: code run on the watcher thread at two points of a round, to stage races deterministically. */
    interface RoundHooks {
        RoundHooks NONE = new RoundHooks() {
        };

        /** Before the selectNow() that flushes cancelled keys. */
        default void beforeFlush() {
        }

        /** After the round registered the parks it took in. */
        default void afterRegister() {
        }
    }

    /**
     * One stay in the watcher, returned by {@link #park}; pass it to {@link #unpark} to take the channel back early.
     * Its state moves forward only: QUEUED → WATCHED → (WAKING → WOKEN | UNPARKING → RETURNED); QUEUED may go straight
     * to WAKING or UNPARKING.
     */
    public static final class Ticket extends DeadlineQueue.Entry {
        static final int QUEUED = 0;
        static final int WATCHED = 1;
        static final int WAKING = 2;
        static final int WOKEN = 3;
        static final int UNPARKING = 4;
        static final int RETURNED = 5;

        /** Compare-and-set on {@link #state} without an {@code AtomicInteger}, whose object every park would carry. */
        private static final VarHandle STATE;

        static {
            try {
                STATE = MethodHandles.lookup().findVarHandle(Ticket.class, "state", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final Parkable parkable;
        /** Forward only, by {@link #compareAndSetState}; see the class comment. */
        private volatile int state = QUEUED;
        /** Watcher thread only. */
        SelectionKey key;
        /** Watcher thread only: why it is in the ready list. */
        Wake reason;

        Ticket(Parkable parkable, long requestedDeadline) {
            this.parkable = parkable;
            // The requested deadline waits in the queue entry's own field, saving a field per park, until the watcher
            // queues it with that value; published to the watcher thread through ParkRequests' lock.
            this.deadline = requestedDeadline;
        }

        int state() {
            return state;
        }

        boolean compareAndSetState(int expected, int next) {
            return STATE.compareAndSet(this, expected, next);
        }

        void setState(int next) {
            state = next;
        }

        /** Puts the channel back in blocking mode for its owner; false when that failed (closed meanwhile). */
        boolean setBlocking() {
            try {
                parkable.channel().configureBlocking(true);
                return true;
            } catch (IOException | IllegalBlockingModeException e) {
                return false;
            }
        }

        /** Whether this park has ended (woken or taken back). */
        public boolean isDone() {
            int s = state;
            return s == WOKEN || s == RETURNED;
        }
    }

    private final ParkRequests requests = new ParkRequests();
    private final WatcherLoop loop;

    public ReadinessWatcher(String name, LongSupplier nanoClock) {
        this(name, nanoClock, RoundHooks.NONE);
    }

    ReadinessWatcher(String name, LongSupplier nanoClock, RoundHooks hooks) {
        this.loop = new WatcherLoop(name, requests, nanoClock, hooks);
    }

    public void start() {
        requests.start();
        loop.start();
    }

    /**
     * Hands a channel to the watcher until bytes arrive, {@code deadline} (on the watcher's clock) passes, or the
     * owner takes it back. The channel must be in non-blocking mode and registered nowhere; the caller must not touch
     * it afterwards.
     *
     * @return the park's ticket, or null when the watcher is shutting down: the caller keeps the channel
     */
    public Ticket park(Parkable parkable, long deadline) {
        if (parkable.channel().isBlocking()) {
            throw new IllegalBlockingModeException();
        }
        Ticket ticket = new Ticket(parkable, deadline);
        if (!requests.offerPark(ticket)) {
            return null;
        }
        loop.wakeup();
        return ticket;
    }

    /**
     * Takes a parked channel back before the watcher hands it over: waits until the watcher has deregistered it and
     * set it to blocking mode. Must be called by the owner of the park, once.
     *
     * @return true when the channel is back in the caller's hands and {@link Parkable#onWake} will not be called;
     *         false when the watcher had already handed it to {@code onWake} (readable, deadline, shutdown, failure):
     *         {@code onWake} has been called, or is being called, and whoever it gives the channel to owns it
     */
    public boolean unpark(Ticket ticket) {
        while (true) {
            int s = ticket.state();
            if (s == Ticket.QUEUED || s == Ticket.WATCHED) {
                if (ticket.compareAndSetState(s, Ticket.UNPARKING)) {
                    break;
                }
            } else if (s == Ticket.WAKING || s == Ticket.WOKEN) {
                requests.awaitState(ticket, Ticket.WOKEN);
                return false;
            } else {
                throw new IllegalStateException("ticket already taken back");
            }
        }
        if (!requests.offerUnpark(ticket)) {
            // The selector is closed, which deregistered every channel: the caller can have it back at once.
            ticket.setBlocking();
            requests.publish(ticket, Ticket.RETURNED);
            return true;
        }
        loop.wakeup();
        requests.awaitState(ticket, Ticket.RETURNED);
        return true;
    }

    /**
     * Hands every parked channel back with {@link Wake#SHUTDOWN}, refuses further parks and stops the thread; waits
     * for it. Idempotent.
     */
    @Override
    public void close() {
        if (requests.beginClose()) {
            loop.closeSelector();
            return;
        }
        loop.wakeup(); // through the flag, so a flush that swallows this wakeup renews it
        loop.join();
    }

    /** Whether the watcher accepts parks. */
    public boolean isRunning() {
        return requests.isRunning();
    }
}
