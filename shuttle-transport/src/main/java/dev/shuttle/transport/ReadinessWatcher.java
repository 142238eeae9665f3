package dev.shuttle.transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The shared readiness watcher that lets an idle connection hold no thread: one platform thread with an NIO
 * {@link Selector} waits on every parked channel and hands it back to its owner, deregistered and in blocking mode,
 * when bytes arrive, when its deadline passes, or when the watcher shuts down ({@link Parkable#onWake}); or, when the
 * owner wants it back first (a client checking out an idle connection, a handler writing to a parked HTTP/2
 * connection), through {@link #unpark}. Server and client connections share this class; a server has one watcher,
 * and every client in the JVM shares another.
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
 * wakes as FAILED; readiness wins over a deadline that passed while the watcher was busy, because each round selects
 * first and expires deadlines last; a wakeup swallowed by the flushing {@code selectNow()} cannot strand a park,
 * because the wakeup flag is cleared only after the round's last selection, just before the queues are drained; a park
 * after shutdown began is refused ({@code park} returns null) so no connection can slip in behind the final sweep.
 *
 * <p>Lifecycle: NEW → RUNNING ({@link #start()}) → CLOSING ({@link #close()}) → CLOSED (every park was handed back
 * and the thread ended).
 */
public final class ReadinessWatcher implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ReadinessWatcher.class.getName());

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

        /** After the round registered the parks it drained. */
        default void afterRegister() {
        }
    }

    private enum Lifecycle { NEW, RUNNING, CLOSING, CLOSED }

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

        /**
         * Compare-and-set on {@link #state} without an {@code AtomicInteger}: every parked connection has a ticket, and
         * the atomic's own object cost 16 bytes of it.
         */
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
            // The requested deadline waits in the queue entry's own field until register() queues it with that value:
            // a second field for it cost 8 bytes per park. Published to the watcher thread through the pending queue's
            // lock.
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

        /** Whether this park has ended (woken or taken back). */
        public boolean isDone() {
            int s = state;
            return s == WOKEN || s == RETURNED;
        }
    }

    private final Selector selector;
    private final LongSupplier nanoClock;
    private final RoundHooks hooks;
    private final Thread thread;

    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled under lock whenever a ticket reaches RETURNED or WOKEN, for {@link #unpark}'s callers. */
    private final Condition handedBack = lock.newCondition();
    /** Guarded by lock. */
    private Lifecycle lifecycle = Lifecycle.NEW;
    /** Guarded by lock: parks not yet registered with the selector. */
    private final ArrayDeque<Ticket> pending = new ArrayDeque<>();
    /** Guarded by lock: tickets whose owners asked for them back. */
    private final ArrayDeque<Ticket> unparkRequests = new ArrayDeque<>();
    /**
     * Threads in {@link #awaitState}: a hand-back signals the condition only when someone waits, so the common path
     * (readiness, nobody unparking) takes no lock per connection. A waiter counts itself before it checks the state
     * under the lock, and a hand-back sets the state before it reads this count, so one of them sees the other.
     */
    private final AtomicInteger waiters = new AtomicInteger();
    /** True while a wakeup is on its way to the selector, so a burst of parks costs one wakeup. */
    private final AtomicBoolean wakeupPending = new AtomicBoolean();

    /** Watcher thread only. */
    private final DeadlineQueue<Ticket> deadlines = new DeadlineQueue<>();
    /**
     * Watcher thread only: this round's parks, taken from {@link #pending}, until registered. A field, like the two
     * lists below, so a round that fails leaves none of its tickets where {@link #failEverything} cannot see them.
     */
    private final List<Ticket> arriving = new ArrayList<>();
    /** Watcher thread only: tickets to hand back to their parkables at the end of this round. */
    private final List<Ticket> ready = new ArrayList<>();
    /** Watcher thread only: tickets to hand back to their owners (unpark) at the end of this round. */
    private final List<Ticket> returning = new ArrayList<>();

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
        lock.lock();
        try {
            if (lifecycle != Lifecycle.RUNNING) {
                return null;
            }
            pending.add(ticket);
        } finally {
            lock.unlock();
        }
        wakeSelector();
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
                awaitState(ticket, Ticket.WOKEN);
                return false;
            } else {
                throw new IllegalStateException("ticket already taken back");
            }
        }
        boolean watcherGone;
        lock.lock();
        try {
            watcherGone = lifecycle == Lifecycle.CLOSED;
            if (!watcherGone) {
                unparkRequests.add(ticket);
            }
        } finally {
            lock.unlock();
        }
        if (watcherGone) {
            // The selector is closed, which deregistered every channel: the caller can have it back at once.
            setBlocking(ticket);
            publish(ticket, Ticket.RETURNED);
            return true;
        }
        wakeSelector();
        awaitState(ticket, Ticket.RETURNED);
        return true;
    }

    private void awaitState(Ticket ticket, int wanted) {
        boolean interrupted = false;
        waiters.incrementAndGet();
        lock.lock();
        try {
            while (ticket.state() != wanted) {
                try {
                    handedBack.await();
                } catch (InterruptedException e) {
                    interrupted = true; // the hand-back takes microseconds; finish it, keep the interrupt
                }
            }
        } finally {
            lock.unlock();
            waiters.decrementAndGet();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void wakeSelector() {
        if (!wakeupPending.getAndSet(true)) {
            selector.wakeup();
        }
    }

    /**
     * Hands every parked channel back with {@link Wake#SHUTDOWN}, refuses further parks and stops the thread; waits
     * for it. Idempotent.
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
        wakeSelector(); // through the flag, so a flush that swallows this wakeup renews it
        if (Thread.currentThread() != thread) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Whether the watcher accepts parks. */
    public boolean isRunning() {
        lock.lock();
        try {
            return lifecycle == Lifecycle.RUNNING;
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        try {
            long nextDeadline = DeadlineQueue.NONE;
            while (true) {
                selector.select(this::onSelected, selectTimeoutMillis(nextDeadline, nanoClock.getAsLong()));
                // After this round's selection and before draining: a park or unpark that still saw the flag set is
                // drained below; one after this line sees it clear and wakes the selector. A wakeup swallowed by the
                // flushing selectNow() in handBack() is renewed there.
                wakeupPending.set(false);
                boolean closing;
                lock.lock();
                try {
                    moveAll(pending, arriving);
                    moveAll(unparkRequests, returning);
                    closing = lifecycle == Lifecycle.CLOSING;
                } finally {
                    lock.unlock();
                }
                for (int i = 0; i < arriving.size(); i++) {
                    register(arriving.get(i));
                }
                arriving.clear();
                hooks.afterRegister();
                for (int i = 0; i < returning.size(); i++) {
                    forget(returning.get(i));
                }
                if (closing) {
                    deadlines.drain(ticket -> toReady(ticket, Wake.SHUTDOWN));
                } else {
                    // Deadlines last: a channel found ready in this round has already left the queue: readiness wins.
                    nextDeadline = deadlines.expire(nanoClock.getAsLong(), ticket -> toReady(ticket, Wake.DEADLINE));
                }
                handBack();
                if (closing && lastRoundDone()) {
                    return;
                }
            }
        } catch (Throwable t) {
            LOG.log(Level.ERROR, "readiness watcher failed; handing every parked connection back", t);
            failEverything();
        } finally {
            closeSelector(); // deregisters every channel still registered
            List<Ticket> late;
            lock.lock();
            try {
                lifecycle = Lifecycle.CLOSED;
                late = drain(unparkRequests);
            } finally {
                lock.unlock();
            }
            // Owners that asked for their channel back while the last round ran: unpark() waits for these.
            for (Ticket ticket : late) {
                setBlocking(ticket);
                publish(ticket, Ticket.RETURNED);
            }
        }
    }

    /** While closing: true once no park or unpark is left to serve (new parks are refused by then). */
    private boolean lastRoundDone() {
        lock.lock();
        try {
            return pending.isEmpty() && unparkRequests.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    private static List<Ticket> drain(ArrayDeque<Ticket> queue) {
        if (queue.isEmpty()) {
            return List.of();
        }
        List<Ticket> drained = new ArrayList<>(queue);
        queue.clear();
        return drained;
    }

    private static void moveAll(ArrayDeque<Ticket> from, List<Ticket> to) {
        if (!from.isEmpty()) {
            to.addAll(from);
            from.clear();
        }
    }

    static long selectTimeoutMillis(long nextDeadline, long now) {
        if (nextDeadline == DeadlineQueue.NONE) {
            return 0; // no deadline: wait for readiness or a wakeup
        }
        long remaining = nextDeadline - now;
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(remaining + 999_999));
    }

    private void register(Ticket ticket) {
        if (!ticket.compareAndSetState(Ticket.QUEUED, Ticket.WATCHED)) {
            return; // its owner took it back before it was registered: the unpark request serves it
        }
        try {
            ticket.key = ticket.parkable.channel().register(selector, SelectionKey.OP_READ, ticket);
            deadlines.add(ticket, ticket.deadline());
        } catch (ClosedChannelException e) {
            toReady(ticket, Wake.FAILED);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "cannot register a parked channel", e);
            toReady(ticket, Wake.FAILED);
        }
    }

    private void onSelected(SelectionKey key) {
        // Cancelled whoever wins the ticket: a key left registered for a ticket its owner is taking back would be
        // selected again by every flush, for ever.
        key.cancel();
        toReady((Ticket) key.attachment(), Wake.READABLE);
    }

    /** The watcher decides to hand {@code ticket} to its parkable, unless its owner is taking it back. */
    private void toReady(Ticket ticket, Wake reason) {
        int s = ticket.state();
        if ((s == Ticket.WATCHED || s == Ticket.QUEUED) && ticket.compareAndSetState(s, Ticket.WAKING)) {
            forget(ticket);
            ticket.reason = reason;
            ready.add(ticket);
        }
        // Otherwise UNPARKING: the unpark request, drained this round or the next, hands it back.
    }

    /** Cancels the ticket's key and deadline; the flush before the hand-back completes the deregistration. */
    private void forget(Ticket ticket) {
        if (ticket.key != null) {
            ticket.key.cancel();
        }
        deadlines.remove(ticket);
    }

    /** Flushes cancelled keys, then returns channels to their owners in blocking mode. */
    private void handBack() throws IOException {
        if (ready.isEmpty() && returning.isEmpty()) {
            return;
        }
        hooks.beforeFlush();
        // Keys that became ready meanwhile go through onSelected too, hence the loop.
        while (selector.selectNow(this::onSelected) > 0) {
            // keep flushing
        }
        if (wakeupPending.get()) {
            // A park or unpark after this round's drain woke the selector, and the flush swallowed that wakeup:
            // wake it again, or the next select would sleep with a request queued (and the flag suppressing others).
            selector.wakeup();
        }
        for (int i = 0; i < returning.size(); i++) {
            Ticket ticket = returning.get(i);
            setBlocking(ticket);
            publish(ticket, Ticket.RETURNED);
        }
        returning.clear();
        for (int i = 0; i < ready.size(); i++) {
            Ticket ticket = ready.get(i);
            Wake reason = ticket.reason;
            if (reason != Wake.FAILED && !setBlocking(ticket)) {
                reason = Wake.FAILED;
            }
            publish(ticket, Ticket.WOKEN);
            wake(ticket, reason);
        }
        ready.clear();
    }

    private static boolean setBlocking(Ticket ticket) {
        try {
            ticket.parkable.channel().configureBlocking(true);
            return true;
        } catch (IOException | IllegalBlockingModeException e) {
            return false;
        }
    }

    private void publish(Ticket ticket, int state) {
        ticket.setState(state);
        if (waiters.get() > 0) {
            lock.lock();
            try {
                handedBack.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    private static void wake(Ticket ticket, Wake reason) {
        try {
            ticket.parkable.onWake(reason);
        } catch (RuntimeException | Error e) {
            LOG.log(Level.WARNING, "handing back a parked connection failed", e);
        }
    }

    /**
     * After a failure of the watcher itself: every park ends FAILED (those the failed round had taken in or already
     * chosen for a hand-back included, so none is left holding its descriptor), and every unpark is served once the
     * selector is closed. A ticket the failed round already handed back is left alone: its owner has it.
     */
    private void failEverything() {
        List<Ticket> chosen = new ArrayList<>(ready);
        ready.clear();
        List<Ticket> leftover = new ArrayList<>(arriving);
        arriving.clear();
        deadlines.drain(leftover::add);
        lock.lock();
        try {
            lifecycle = Lifecycle.CLOSING; // refuse new parks
            leftover.addAll(pending);
            pending.clear();
            // Served once the selector is closed (which deregisters their channels), in run()'s finally.
            for (int i = 0; i < returning.size(); i++) {
                if (returning.get(i).state() == Ticket.UNPARKING) {
                    unparkRequests.add(returning.get(i));
                }
            }
        } finally {
            lock.unlock();
        }
        returning.clear();
        for (Ticket ticket : chosen) {
            if (ticket.state() == Ticket.WAKING) {
                publish(ticket, Ticket.WOKEN);
                wake(ticket, Wake.FAILED);
            }
        }
        for (Ticket ticket : leftover) {
            int s = ticket.state();
            if ((s == Ticket.WATCHED || s == Ticket.QUEUED) && ticket.compareAndSetState(s, Ticket.WAKING)) {
                publish(ticket, Ticket.WOKEN);
                wake(ticket, Wake.FAILED);
            }
            // else UNPARKING: its request was drained above, or is served when the watcher is CLOSED
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
