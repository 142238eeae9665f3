package dev.shuttle.server.core;

import java.io.IOException;

/**
 * What a connection's thread does when it has nothing to read, before it parks: take a few scheduler turns, looking
 * for the client's next bytes after each, while that pays off for this connection. HTTP/1.1 does it between requests
 * (HTTP/2 does not: see {@code Http2Session}). One per connection, owned by its current thread (a new thread sees the
 * last one's state through the watcher's hand-off).
 *
 * <p>A base class of the HTTP/1.1 session rather than an object of their own: a parked connection keeps its session,
 * and a separate object would add its header and a field to every connection. The counters are bytes for the same
 * reason (credit is at most {@link #CREDIT}, and only the looks modulo {@link #PROBE_EVERY} matter).
 *
 * <p>Why: parking costs a trip through the watcher for every request of a busy client (a request/response client
 * sends the next request only after reading the response, so the socket is empty when the response leaves): two
 * epoll_ctl calls, a selector wakeup and two thread hand-offs. A turn ({@link Thread#yield()}) lasts as long as one
 * round of the server's other runnable work: on a busy server often long enough for a prompt client's next request to
 * arrive, on an idle one very short, so a silent connection still parks almost at once. Not a timed blocking read:
 * every timed wait of a virtual thread schedules and cancels a timer on the JDK's delay scheduler, which wakes that
 * platform thread twice per request.
 *
 * <p>Credit: turns that found the next bytes restore {@link #CREDIT} credits; turns that found nothing cost one (a new
 * connection starts with one). Without credit the connection parks at once and tries the turns again every
 * {@link #PROBE_EVERY}th time. A yield on a server with little else to run can wake an idle carrier thread for
 * nothing, so a client that pauses between requests (a browser, a batch job) would otherwise pay three wasted turns,
 * and up to three context switches, per request.
 *
 * <p>Connections the watcher woke meanwhile are started from the turning connection's thread ({@link WakeHandOff}), so
 * they queue on its carrier beside the turners rather than wait behind them.
 */
public abstract class KeepAliveTurns {
    public static final int TURNS = 3;
    public static final int CREDIT = 8;
    public static final int PROBE_EVERY = 16;

    private final KeepAliveTurn turn;
    /** 0 to {@link #CREDIT}. Owned by the connection's current thread. */
    private byte credit = 1;
    /** Looks since the last one that came round to a probe: 0 to {@link #PROBE_EVERY} - 1. Same owner. */
    private byte looks;

    protected KeepAliveTurns(KeepAliveTurn turn) {
        this.turn = turn;
    }

    /**
     * Takes up to {@link #TURNS} turns, looking for bytes after each, when this connection has credit for them or it
     * is time to try again.
     *
     * @return the bytes that arrived, 0 when none did (or no turn was taken), -1 when the client closed
     */
    protected final int lookForNextBytes(ServerConnection connection) throws IOException {
        looks = (byte) ((looks + 1) % PROBE_EVERY);
        if (credit == 0 && looks != 0) {
            return 0;
        }
        WakeHandOff wakes = connection.context.wakes;
        wakes.enterTurns();
        try {
            for (int i = 0; i < TURNS; i++) {
                wakes.startWoken();
                turn.take(connection);
                int n = connection.input().fillNow();
                if (n != 0) {
                    credit = CREDIT;
                    return n;
                }
            }
        } finally {
            wakes.exitTurns();
        }
        credit = (byte) Math.max(0, credit - 1);
        return 0;
    }
}
