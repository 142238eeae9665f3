package dev.shuttle.server.http2;

import dev.shuttle.server.GoAwayEvent;
import dev.shuttle.server.core.LogText;
import dev.shuttle.server.core.ServerConnection;
import dev.shuttle.wire.http2.GoAwayFrame;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Frame;
import dev.shuttle.wire.http2.PingFrame;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * How an HTTP/2 connection ends without losing a request or a byte of a response: GOAWAY, the last streams, a
 * half-close, and reading until the client closes.
 *
 * <pre>
 *   OPEN --shutdown--------------------> DRAINING    GOAWAY(2^31-1) and a PING: requests in flight are still taken
 *   DRAINING --PING ACK, or 1 s--------> GOING_AWAY  GOAWAY(last stream id): later streams are refused
 *   OPEN --idle, error, client GOAWAY--> GOING_AWAY
 *   GOING_AWAY --no stream left--------> LINGERING   FIN after the last frame; the client's bytes are read and dropped
 *   LINGERING --client's FIN, 1 s or 256 KiB--> the reader closes the connection
 * </pre>
 * The two GOAWAYs of a shutdown are gRPC's: a client that sent a request just before the first one learns from the
 * second whether it was taken, so no request is lost. Closing while the client's bytes sit unread in the kernel would
 * send a TCP reset, which makes the client's kernel drop the tail of our responses before it reads them: hence the
 * half-close and the linger, which Go's server does too. After a connection error the connection lingers at once;
 * handlers still writing then fail.
 *
 * <p>Thread-safe: the reader, handler threads and the shutting-down thread all move it. Each step writes its frames
 * under {@link #lock}, so a GOAWAY is always out before the half-close; nothing else takes this lock. The
 * connection's listener events wait while it is held ({@link #lockedByCurrentThread}), and the thread that lets go of
 * it last delivers them.
 */
final class Goodbye {
    enum Phase { OPEN, DRAINING, GOING_AWAY, LINGERING }

    /** How long a shutdown waits for the PING that follows its first GOAWAY: far above any round trip. */
    static final long DRAIN_PING_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Go's server waits 1 s for a client to close after its GOAWAY. */
    static final long LINGER_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** What a lingering connection reads and drops at most before it closes anyway. */
    static final long LINGER_MAX_BYTES = 256 * 1024;
    /** The opaque data of the shutdown's PING, told apart from a client's own PINGs' answers. */
    static final long DRAIN_PING_DATA = 0x73687574746c6521L; // "shuttle!"

    private static final System.Logger LOG = System.getLogger(Goodbye.class.getName());

    private final Http2Writer writer;
    private final Http2Streams streams;
    private final LongSupplier clock;
    private final long connectionId;
    /** Where each GOAWAY's listener event is queued, in order with the connection's others, and delivered. */
    private final ServerConnection connection;

    private final ReentrantLock lock = new ReentrantLock();
    /** Written under lock; volatile so the reader and the park gate can look without it. */
    private volatile Phase phase = Phase.OPEN;
    /** The client sent GOAWAY: it opens no more streams, and we close once its streams are done. */
    private volatile boolean clientGoAway;
    /** Written under lock before the phase that uses it. */
    private volatile long drainDeadline;
    private volatile long lingerDeadline;
    Goodbye(Http2Writer writer, Http2Streams streams, LongSupplier clock, ServerConnection connection) {
        this.writer = writer;
        this.streams = streams;
        this.clock = clock;
        this.connectionId = connection.id();
        this.connection = connection;
    }

    /** Whether the calling thread is inside a step: the connection's listener events wait until it lets go. */
    boolean lockedByCurrentThread() {
        return lock.isHeldByCurrentThread();
    }

    Phase phase() {
        return phase;
    }

    /** New streams are refused: our final GOAWAY is out (requests in flight during a drain are still taken). */
    boolean refusesNewStreams() {
        Phase now = phase;
        return now == Phase.GOING_AWAY || now == Phase.LINGERING;
    }

    /** A goodbye has begun and the connection must not just be dropped. */
    boolean inProgress() {
        return phase != Phase.OPEN || clientGoAway;
    }

    /** Shutdown begins: the first GOAWAY and its PING (from the shutting-down thread). */
    void drain() {
        lock.lock();
        try {
            if (phase != Phase.OPEN) {
                return;
            }
            drainDeadline = clock.getAsLong() + DRAIN_PING_WAIT_NANOS;
            phase = Phase.DRAINING;
            queueEvent(Integer.MAX_VALUE, Http2ErrorCode.NO_ERROR, "shutdown");
            send(List.of(new GoAwayFrame(Integer.MAX_VALUE, Http2ErrorCode.NO_ERROR, ""),
                    new PingFrame(DRAIN_PING_DATA, false)));
        } finally {
            unlock();
        }
    }

    /** A PING ACK arrived: when it answers the drain's PING, every request sent before it has been seen. */
    void pingAcknowledged(long data) {
        if (data == DRAIN_PING_DATA && phase == Phase.DRAINING) {
            goAway(Http2ErrorCode.NO_ERROR, "shutdown");
        }
    }

    /** The drain's PING was not answered in time: the final GOAWAY goes anyway. */
    void drainWaitOver() {
        if (phase == Phase.DRAINING && clock.getAsLong() - drainDeadline >= 0) {
            goAway(Http2ErrorCode.NO_ERROR, "shutdown");
        }
    }

    void clientGoAway() {
        clientGoAway = true;
    }

    /**
     * Sends the final GOAWAY once, naming the last stream this connection processes; the debug data names the rule,
     * never more than an excerpt of what the client sent.
     */
    void goAway(Http2ErrorCode code, String reason) {
        lock.lock();
        try {
            if (refusesNewStreams()) {
                return;
            }
            phase = Phase.GOING_AWAY;
            int lastStreamId = streams.highestStreamId();
            String debug = code == Http2ErrorCode.NO_ERROR ? "" : LogText.excerpt(reason);
            queueEvent(lastStreamId, code, code == Http2ErrorCode.NO_ERROR ? reason : debug);
            send(List.of(new GoAwayFrame(lastStreamId, code, debug)));
        } finally {
            unlock();
        }
    }

    /** Whether the connection is done: a GOAWAY either way and no stream left to finish. */
    boolean closingDue() {
        Phase now = phase;
        return (now == Phase.GOING_AWAY || (clientGoAway && now != Phase.LINGERING)) && streams.active() == 0;
    }

    /**
     * Half-closes the connection when it is done ({@link #closingDue}), after our own GOAWAY.
     *
     * @return true when this call began the linger (a parked reader must then come and read the client's last bytes)
     */
    boolean lingerIfDone() {
        return closingDue() && linger();
    }

    /**
     * Half-closes now, streams or not (after a connection error, whose GOAWAY went out first).
     *
     * @return true when this call began the linger, false when it had begun before
     */
    boolean linger() {
        lock.lock();
        try {
            if (phase == Phase.LINGERING) {
                return false;
            }
            goAway(Http2ErrorCode.NO_ERROR, "client GOAWAY"); // a client's GOAWAY gets ours too before we close
            lingerDeadline = clock.getAsLong() + LINGER_NANOS;
            phase = Phase.LINGERING;
            try {
                writer.shutdownOutput();
            } catch (IOException e) {
                LOG.log(Level.DEBUG, "connection {0}: half-close failed: {1}", connectionId, e.toString());
            }
            return true;
        } finally {
            unlock();
        }
    }

    /**
     * How long from now the connection may wait for the client's next bytes before the goodbye needs a step: the
     * rest of the linger or of the drain's PING wait; 0 when closing is due; while going away with streams left, one
     * linger's time, after which the reader looks again (a reader blocked in a read does not see the last stream
     * end); -1 when no goodbye has begun.
     */
    long nanosUntilNextStep() {
        long now = clock.getAsLong();
        switch (phase) {
            case LINGERING -> {
                return Math.max(0, lingerDeadline - now);
            }
            case DRAINING -> {
                return Math.max(0, drainDeadline - now);
            }
            case GOING_AWAY -> {
                return closingDue() ? 0 : LINGER_NANOS;
            }
            default -> {
                return !clientGoAway ? -1 : closingDue() ? 0 : LINGER_NANOS;
            }
        }
    }

    /** The linger's time is up. */
    boolean lingerOver() {
        return phase == Phase.LINGERING && clock.getAsLong() - lingerDeadline >= 0;
    }

    /**
     * Queued before the frame leaves: a client that closes on reading it makes the connection CLOSED, and the event
     * must come before that one. Delivered once this lock is let go, so usually after the frame left.
     */
    private void queueEvent(int lastStreamId, Http2ErrorCode code, String reason) {
        assert lock.isHeldByCurrentThread();
        connection.queueGoAway(new GoAwayEvent(lastStreamId, code.code(), code.name(), reason, clientGoAway));
    }

    /** Lets go of the lock, then delivers the listener events queued meanwhile, once no hold is left. */
    private void unlock() {
        boolean outermost = lock.getHoldCount() == 1;
        lock.unlock();
        if (outermost) {
            connection.deliverQueuedEvents();
        }
    }

    private void send(List<Http2Frame> frames) {
        assert lock.isHeldByCurrentThread();
        try {
            writer.frames(frames);
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "connection {0}: GOAWAY not sent: {1}", connectionId, e.toString());
        }
    }
}
