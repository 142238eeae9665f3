package dev.shuttle.transport;

import dev.shuttle.transport.ReadinessWatcher.Ticket;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Hands parks and unpark requests from connection owners to the watcher thread, under one lock that also guards the
 * watcher's lifecycle, and lets an {@code unpark} caller wait until its channel is handed back.
 *
 * <p>Owners add to the queues ({@link #offerPark}, {@link #offerUnpark}); the watcher thread takes them in once per
 * round ({@link #takeIn}) and publishes each hand-back ({@link #publish}). Lifecycle: NEW → RUNNING → CLOSING →
 * CLOSED, CLOSED once the watcher thread has ended.
 */
final class ParkRequests {
    enum Lifecycle { NEW, RUNNING, CLOSING, CLOSED }

    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled under lock whenever a ticket reaches RETURNED or WOKEN, for {@code unpark}'s callers. */
    private final Condition handedBack = lock.newCondition();
    /** Guarded by lock. */
    private Lifecycle lifecycle = Lifecycle.NEW;
    /** Guarded by lock: parks not yet taken in by the watcher thread. */
    private final ArrayDeque<Ticket> parks = new ArrayDeque<>();
    /** Guarded by lock: tickets whose owners asked for them back. */
    private final ArrayDeque<Ticket> unparks = new ArrayDeque<>();
    /**
     * Threads in {@link #awaitState}: a hand-back signals the condition only when someone waits, so the common path
     * (readiness, nobody unparking) takes no lock per connection. A waiter counts itself before it checks the state
     * under the lock, and a hand-back sets the state before it reads this count, so one of them sees the other.
     */
    private final AtomicInteger waiters = new AtomicInteger();

    /** NEW → RUNNING; throws in any other state. */
    void start() {
        lock.lock();
        try {
            if (lifecycle != Lifecycle.NEW) {
                throw new IllegalStateException("state: " + lifecycle);
            }
            lifecycle = Lifecycle.RUNNING;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Refuses further parks: RUNNING → CLOSING, NEW → CLOSED (no thread ever ran).
     *
     * @return true when the watcher never started, so nothing is left to stop
     */
    boolean beginClose() {
        lock.lock();
        try {
            if (lifecycle == Lifecycle.NEW) {
                lifecycle = Lifecycle.CLOSED;
                return true;
            }
            if (lifecycle == Lifecycle.RUNNING) {
                lifecycle = Lifecycle.CLOSING;
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    boolean isRunning() {
        lock.lock();
        try {
            return lifecycle == Lifecycle.RUNNING;
        } finally {
            lock.unlock();
        }
    }

    /** Queues a park for the watcher thread; false when the watcher no longer accepts parks. */
    boolean offerPark(Ticket ticket) {
        lock.lock();
        try {
            if (lifecycle != Lifecycle.RUNNING) {
                return false;
            }
            parks.add(ticket);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Queues an unpark request for the watcher thread; false when the watcher thread has ended (CLOSED), so the
     * caller takes its channel back itself.
     */
    boolean offerUnpark(Ticket ticket) {
        lock.lock();
        try {
            if (lifecycle == Lifecycle.CLOSED) {
                return false;
            }
            unparks.add(ticket);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Watcher thread, once per round: moves every queued park and unpark request into the round's lists.
     *
     * @return whether the watcher is closing
     */
    boolean takeIn(List<Ticket> roundParks, List<Ticket> roundUnparks) {
        lock.lock();
        try {
            moveAll(parks, roundParks);
            moveAll(unparks, roundUnparks);
            return lifecycle == Lifecycle.CLOSING;
        } finally {
            lock.unlock();
        }
    }

    /** While closing: true once no park or unpark is left to serve (new parks are refused by then). */
    boolean isDrained() {
        lock.lock();
        try {
            return parks.isEmpty() && unparks.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /**
     * After the watcher itself failed: refuses further parks, moves the queued parks into {@code leftover}, and
     * queues again every ticket of {@code roundUnparks} still UNPARKING, to be served once the selector is closed.
     */
    void failed(List<Ticket> leftover, List<Ticket> roundUnparks) {
        lock.lock();
        try {
            lifecycle = Lifecycle.CLOSING;
            moveAll(parks, leftover);
            for (int i = 0; i < roundUnparks.size(); i++) {
                if (roundUnparks.get(i).state() == Ticket.UNPARKING) {
                    unparks.add(roundUnparks.get(i));
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * The watcher thread ends: CLOSED, so later unparks serve themselves.
     *
     * @return the unpark requests that arrived while the last round ran
     */
    List<Ticket> closed() {
        lock.lock();
        try {
            lifecycle = Lifecycle.CLOSED;
            if (unparks.isEmpty()) {
                return List.of();
            }
            List<Ticket> late = new ArrayList<>(unparks);
            unparks.clear();
            return late;
        } finally {
            lock.unlock();
        }
    }

    /** Sets the ticket's final state (RETURNED or WOKEN) and wakes any {@link #awaitState} caller waiting for it. */
    void publish(Ticket ticket, int state) {
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

    /** Waits until the ticket reaches {@code wanted}; an interrupt is kept for later, since a hand-back is short. */
    void awaitState(Ticket ticket, int wanted) {
        boolean interrupted = false;
        waiters.incrementAndGet();
        lock.lock();
        try {
            while (ticket.state() != wanted) {
                try {
                    handedBack.await();
                } catch (InterruptedException e) {
                    interrupted = true;
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

    private static void moveAll(ArrayDeque<Ticket> from, List<Ticket> to) {
        if (!from.isEmpty()) {
            to.addAll(from);
            from.clear();
        }
    }
}
