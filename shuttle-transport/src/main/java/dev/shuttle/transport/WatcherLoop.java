package dev.shuttle.transport;

import dev.shuttle.transport.ReadinessWatcher.RoundHooks;
import dev.shuttle.transport.ReadinessWatcher.Ticket;
import dev.shuttle.transport.ReadinessWatcher.Wake;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * Runs the readiness watcher's thread: each round selects, takes in the parks and unpark requests queued in
 * {@link ParkRequests}, registers the parks, expires deadlines and hands channels back. Everything here except
 * {@link #wakeup} and {@link #join} runs on that thread.
 *
 * <p>A round's order settles its races: readiness wins over a deadline that passed meanwhile, because a round selects
 * first and expires deadlines last; a wakeup swallowed by the {@code selectNow()} that flushes cancelled keys is
 * renewed, because the wakeup flag is cleared after the round's select and read again after the flush. The round's
 * tickets sit in fields, not locals, so a round that throws leaves every one of them where {@link #failEverything}
 * hands it back.
 */
final class WatcherLoop {
    private static final System.Logger LOG = System.getLogger(ReadinessWatcher.class.getName());

    private final Selector selector;
    private final ParkRequests requests;
    private final LongSupplier nanoClock;
    private final RoundHooks hooks;
    private final Thread thread;
    /** Any thread: true while a wakeup is on its way to the selector, so a burst of parks costs one wakeup. */
    private final AtomicBoolean wakeupPending = new AtomicBoolean();

    /** Watcher thread only. */
    private final DeadlineQueue<Ticket> deadlines = new DeadlineQueue<>();
    /** Watcher thread only: this round's parks, taken in from {@link #requests}, until registered. */
    private final List<Ticket> arriving = new ArrayList<>();
    /** Watcher thread only: tickets to hand back to their parkables at the end of this round. */
    private final List<Ticket> ready = new ArrayList<>();
    /** Watcher thread only: tickets to hand back to their owners (unpark) at the end of this round. */
    private final List<Ticket> returning = new ArrayList<>();

    WatcherLoop(String name, ParkRequests requests, LongSupplier nanoClock, RoundHooks hooks) {
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector", e);
        }
        this.requests = requests;
        this.nanoClock = nanoClock;
        this.hooks = hooks;
        this.thread = Thread.ofPlatform().name(name).daemon(true).unstarted(this::run);
    }

    void start() {
        thread.start();
    }

    /** Any thread: makes the selector start a round soon, once per burst. */
    void wakeup() {
        if (!wakeupPending.getAndSet(true)) {
            selector.wakeup();
        }
    }

    /** Waits for the watcher thread to end, unless called on it; keeps an interrupt. */
    void join() {
        if (Thread.currentThread() != thread) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** For a watcher that never started: closing the selector is all there is to stop. */
    void closeSelector() {
        try {
            selector.close();
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "closing the selector failed", e);
        }
    }

    private void run() {
        try {
            long nextDeadline = DeadlineQueue.NONE;
            while (true) {
                selector.select(this::onSelected, selectTimeoutMillis(nextDeadline, nanoClock.getAsLong()));
                // After this round's selection and before taking in: a park or unpark that still saw the flag set is
                // taken in below; one after this line sees it clear and wakes the selector.
                wakeupPending.set(false);
                boolean closing = requests.takeIn(arriving, returning);
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
                    // Deadlines last: a channel found ready in this round has already left the queue.
                    nextDeadline = deadlines.expire(nanoClock.getAsLong(), ticket -> toReady(ticket, Wake.DEADLINE));
                }
                handBack();
                if (closing && requests.isDrained()) {
                    return;
                }
            }
        } catch (Throwable t) {
            LOG.log(Level.ERROR, "readiness watcher failed; handing every parked connection back", t);
            failEverything();
        } finally {
            closeSelector(); // deregisters every channel still registered
            // Owners that asked for their channel back while the last round ran: unpark() waits for these.
            for (Ticket ticket : requests.closed()) {
                ticket.setBlocking();
                requests.publish(ticket, Ticket.RETURNED);
            }
        }
    }

    /** The select timeout that ends the wait at {@code nextDeadline}: at least 1 ms, since 0 waits without end. */
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
        // Otherwise UNPARKING: the unpark request, taken in this round or the next, hands it back.
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
            // A park or unpark after this round's take-in woke the selector, and the flush swallowed that wakeup:
            // wake it again, or the next select would sleep with a request queued (and the flag suppressing others).
            selector.wakeup();
        }
        for (int i = 0; i < returning.size(); i++) {
            Ticket ticket = returning.get(i);
            ticket.setBlocking();
            requests.publish(ticket, Ticket.RETURNED);
        }
        returning.clear();
        for (int i = 0; i < ready.size(); i++) {
            Ticket ticket = ready.get(i);
            Wake reason = ticket.reason;
            if (reason != Wake.FAILED && !ticket.setBlocking()) {
                reason = Wake.FAILED;
            }
            requests.publish(ticket, Ticket.WOKEN);
            wake(ticket, reason);
        }
        ready.clear();
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
        requests.failed(leftover, returning); // unparks served in run()'s finally, once the selector is closed
        returning.clear();
        for (Ticket ticket : chosen) {
            if (ticket.state() == Ticket.WAKING) {
                requests.publish(ticket, Ticket.WOKEN);
                wake(ticket, Wake.FAILED);
            }
        }
        for (Ticket ticket : leftover) {
            int s = ticket.state();
            if ((s == Ticket.WATCHED || s == Ticket.QUEUED) && ticket.compareAndSetState(s, Ticket.WAKING)) {
                requests.publish(ticket, Ticket.WOKEN);
                wake(ticket, Wake.FAILED);
            }
            // else UNPARKING: its request was queued again above, or is served when the watcher is CLOSED
        }
    }
}
