package dev.shuttle.client.http1;

import dev.shuttle.wire.http1.Http1Source;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * What an exchange on a virtual thread does between sending its request and blocking for the response: take
 * scheduler turns for some tens of microseconds, looking for the response after each, while that pays off for this
 * connection. The client's side of the server's keep-alive turns ({@code KeepAliveTurns}). One per connection, owned
 * by the thread that holds the connection's lease.
 *
 * <p>Why: a virtual thread's read that finds nothing parks in the JDK's poller, which costs an epoll registration, a
 * wake of the poller thread and a hand-off back to a carrier, plus a timer scheduled and cancelled for the read
 * timeout; when the carriers had nothing else to run they slept meanwhile, and waking one costs more still. A turn
 * ({@link Thread#yield()}) lasts as long as one round of the other runnable virtual threads: under load the response
 * of a nearby server has often arrived by the time the turn ends, and with nothing else to run the carrier stays
 * awake for the few microseconds a loopback or same-rack answer takes.
 *
 * <p>Credit: turns that found the response restore {@link #CREDIT} credits; turns that found nothing cost one (a new
 * connection starts with one). Without credit the exchange blocks at once and tries the turns again every
 * {@link #PROBE_EVERY}th response, so a distant or slow server costs a wasted round of turns only now and then.
 * A platform thread takes no turns: its blocking read waits in the kernel, with no poller to avoid, and a yield
 * there would only spin.
 */
final class ResponseTurns {
    /** How long the turns may go on: about what parking and waking a virtual thread costs, so at worst twice it. */
    static final long BUDGET_NANOS = TimeUnit.MICROSECONDS.toNanos(30);
    /** A bound on the turns for a clock that hardly moves. */
    static final int MAX_TURNS = 64;
    static final int CREDIT = 8;
    static final int PROBE_EVERY = 16;

    /** One turn between two looks; tests stage an arrival or count the turns instead. */
    @FunctionalInterface
    interface Turn {
        /** Lets every other runnable virtual thread of the scheduler run once before this one continues. */
        Turn YIELD = Thread::yield;

        void take();
    }

    private final Turn turn;
    private final LongSupplier clock;
    /** 0 to {@link #CREDIT}. */
    private byte credit = 1;
    /** Looks since the last one that came round to a probe: 0 to {@link #PROBE_EVERY} - 1. */
    private byte looks;

    ResponseTurns(Turn turn, LongSupplier clock) {
        this.turn = turn;
        this.clock = clock;
    }

    /**
     * Takes turns for up to {@link #BUDGET_NANOS}, reading what has arrived into {@code source} after each, when the
     * caller is a virtual thread and this connection has credit for them or it is time to try again.
     *
     * @return the bytes that arrived, 0 when none did (or no turn was taken), -1 when the server closed
     */
    int lookFor(Http1Source source) throws IOException {
        if (!Thread.currentThread().isVirtual()) {
            return 0;
        }
        looks = (byte) ((looks + 1) % PROBE_EVERY);
        if (credit == 0 && looks != 0) {
            return 0;
        }
        long start = clock.getAsLong();
        for (int i = 0; i < MAX_TURNS && (i == 0 || clock.getAsLong() - start < BUDGET_NANOS); i++) {
            turn.take();
            int n = source.fillNow();
            if (n != 0) {
                credit = CREDIT;
                return n;
            }
        }
        credit = (byte) Math.max(0, credit - 1);
        return 0;
    }
}
