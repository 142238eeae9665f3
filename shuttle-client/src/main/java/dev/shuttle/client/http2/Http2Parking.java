package dev.shuttle.client.http2;

import dev.shuttle.transport.ReadinessWatcher;
import dev.shuttle.transport.Transport;
import dev.shuttle.wire.http2.Http2ErrorCode;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Parks an idle client HTTP/2 connection in the client-wide {@link ReadinessWatcher} and takes it back: the I/O state
 * that says who may use the channel, and the start and stop of the reader thread around it.
 *
 * <p>With no stream, the reader gives its buffers back and the connection <em>parks</em>: its channel waits in the
 * watcher, holding no thread and no buffer. A new stream takes it back ({@link ReadinessWatcher#unpark}) and starts
 * a reader; bytes that arrive while parked (PING, SETTINGS, GOAWAY, the server closing) wake it through readiness, a
 * reader handles them and it parks again; with PINGs configured, the park's deadline wakes it to send one.
 *
 * <p><b>I/O state</b> ({@link Io}):
 * <pre>
 *   ACTIVE --no stream, reader and writer stopped--> PARKING --watcher took it--> PARKED
 *   PARKED --a new stream: unpark--> UNPARKING --back--> ACTIVE
 *   PARKED --readiness or deadline (watcher)--> ACTIVE (a reader runs)
 *   any --failure or close--> CLOSED
 * </pre>
 * While PARKING or PARKED nobody else may use the channel (it is non-blocking and registered with the selector), so
 * a stream is only queued while ACTIVE, and the thread that parks is the last of reader and writer to stop.
 *
 * <p>Every field is guarded by the connection's lock; {@link #park} and the watcher's calls run without it.
 */
final class Http2Parking implements ReadinessWatcher.Parkable {
    private static final System.Logger LOG = System.getLogger(Http2Parking.class.getName());

    enum Io { ACTIVE, PARKING, PARKED, UNPARKING, CLOSED }

    private final Http2Connection connection;
    private final ReentrantLock lock;
    private final Transport transport;
    private final ReadinessWatcher watcher;
    private final LongSupplier clock;
    private final long pingIntervalMillis;
    private final WriterThread writer;
    /** Owned by whichever thread runs the reader loop; one at a time, by {@link #readerRunning}. */
    private final Http2Reader reader;
    /** Guarded by lock: signalled when {@link #io} leaves PARKING or UNPARKING. */
    private final Condition ioChanged;

    /** Guarded by lock. */
    private Io io = Io.ACTIVE;
    /** Guarded by lock: a reader thread runs (or is about to). */
    private boolean readerRunning;
    /** Guarded by lock: the watcher's ticket while PARKED. */
    private ReadinessWatcher.Ticket ticket;

    /** Runs while a new stream takes the parked connection back, outside the lock: where tests stage a failure. */
    volatile Runnable beforeUnpark = () -> {
    };

    Http2Parking(Http2Connection connection, ReentrantLock lock, ReadinessWatcher watcher, WriterThread writer,
                 Http2Reader reader) {
        this.connection = connection;
        this.lock = lock;
        this.transport = connection.transport;
        this.watcher = watcher;
        this.clock = connection.clock;
        this.pingIntervalMillis = connection.options.pingIntervalMillis();
        this.writer = writer;
        this.reader = reader;
        this.ioChanged = lock.newCondition();
    }

    boolean activeLocked() {
        assert lock.isHeldByCurrentThread();
        return io == Io.ACTIVE;
    }

    boolean closedLocked() {
        assert lock.isHeldByCurrentThread();
        return io == Io.CLOSED;
    }

    /**
     * A new stream wants the connection: true once it is ACTIVE. Otherwise waits for the watcher
     * to hand a PARKING or UNPARKING channel over, or takes a PARKED one back; then false, and the caller checks the
     * connection again (it may have failed meanwhile).
     */
    boolean takeForStreamLocked() {
        assert lock.isHeldByCurrentThread();
        switch (io) {
            case ACTIVE -> {
                return true;
            }
            case PARKING, UNPARKING -> ioChanged.awaitUninterruptibly(); // microseconds: the watcher hands it over
            case PARKED -> unparkLocked();
            case CLOSED -> {
                // the caller's check reports it
            }
        }
        return false;
    }

    private void unparkLocked() {
        assert lock.isHeldByCurrentThread();
        ReadinessWatcher.Ticket parked = ticket;
        ticket = null;
        io = Io.UNPARKING;
        boolean back;
        lock.unlock();
        try {
            beforeUnpark.run();
            back = watcher.unpark(parked);
        } finally {
            lock.lock();
        }
        if (io == Io.CLOSED) {
            return; // failed meanwhile (closed, or the pool's idle timeout)
        }
        if (back) {
            io = Io.ACTIVE; // ours again: no reader runs; the caller starts one
            connection.chunks.retain();
            ioChanged.signalAll();
            writer.resumeLocked(); // credit queued while parked leaves before the HEADERS
        } // else the watcher handed it to onWake, which makes it ACTIVE with a reader
    }

    /** Starts the first reader, which takes the server's SETTINGS and parks the connection until the first stream. */
    void startLocked() {
        assert lock.isHeldByCurrentThread();
        startReaderLocked(null);
    }

    /** A stream was queued on the ACTIVE connection: a reader must run to read its response. */
    void streamQueuedLocked() {
        assert lock.isHeldByCurrentThread();
        if (!readerRunning) {
            startReaderLocked(null);
        }
    }

    /** Starts a reader thread; the caller made sure none runs. */
    private void startReaderLocked(ReadinessWatcher.Wake wake) {
        assert lock.isHeldByCurrentThread();
        readerRunning = true;
        Thread.ofVirtual().name("shuttle-h2-reader-" + connection.id()).start(() -> reader.run(wake));
    }

    /**
     * Whether the writer thread, its queue empty, may wait for more frames rather than end: while the reader runs
     * (streams are open, or it lingers before parking). It is dismissed when the reader stops or the connection
     * fails.
     */
    boolean writerMayWaitLocked() {
        assert lock.isHeldByCurrentThread();
        return io == Io.ACTIVE && readerRunning;
    }

    /**
     * The connection failed: CLOSED from now on, its chunks dropped. Returns the watcher's ticket when it was parked
     * (the caller unparks it outside the lock, so its key leaves the watcher), else null.
     */
    ReadinessWatcher.Ticket closeLocked() {
        assert lock.isHeldByCurrentThread();
        ReadinessWatcher.Ticket parked = io == Io.PARKED ? ticket : null;
        ticket = null;
        io = Io.CLOSED;
        connection.chunks.release();
        ioChanged.signalAll();
        return parked;
    }

    /** The connection closed while parked: the watcher lets go of the channel (true or false, it is closed next). */
    void unparkToClose(ReadinessWatcher.Ticket parked) {
        watcher.unpark(parked);
    }

    /**
     * The reader stopped (its buffers are back): park unless the writer still runs (it parks when done) or a
     * stream came meanwhile (then the reader goes on: returns false).
     */
    boolean readerStopping() {
        boolean park;
        lock.lock();
        try {
            if (io == Io.ACTIVE && !connection.streams.quietLocked()) {
                return false;
            }
            readerRunning = false;
            writer.dismissLocked(); // it waited for frames while the reader ran
            park = parkableLocked();
        } finally {
            lock.unlock();
        }
        if (park) {
            park();
        }
        return true;
    }

    /** The writer thread ends. It parks the connection if the reader stopped already. */
    void writerStoppedLocked() {
        assert lock.isHeldByCurrentThread();
        if (parkableLocked()) {
            Thread.ofVirtual().name("shuttle-h2-park-" + connection.id()).start(this::park);
        }
    }

    /**
     * The reader loop ended with a failure (its thread ends, still holding the reader's buffer). The connection is
     * failed first, so no new reader can start on the same {@link Http2Reader} before this thread let go of it.
     */
    void readerFailed(IOException cause, Http2ErrorCode goAway) {
        connection.failed(cause, goAway);
        lock.lock();
        try {
            readerRunning = false;
        } finally {
            lock.unlock();
        }
    }

    /** Decides to park: moves to PARKING when nothing runs and nothing is open. */
    private boolean parkableLocked() {
        assert lock.isHeldByCurrentThread();
        if (io == Io.ACTIVE && !readerRunning && !writer.isRunningLocked() && connection.streams.quietLocked()
                && connection.streams.isEmptyLocked()) {
            io = Io.PARKING;
            connection.chunks.release(); // an idle connection holds no buffer
            return true;
        }
        return false;
    }

    /** PARKING → PARKED: the channel goes to the watcher, with a deadline for the next PING if configured. */
    private void park() {
        if (!connection.acceptingStreams()) {
            connection.failed(new IOException("HTTP/2 connection to " + connection.origin()
                    + " closed after its last stream (GOAWAY)"));
            return;
        }
        ReadinessWatcher.Ticket parked = null;
        try {
            transport.channel().configureBlocking(false);
            long deadline = pingIntervalMillis == 0 ? Long.MAX_VALUE
                    : clock.getAsLong() + pingIntervalMillis * 1_000_000;
            parked = watcher.park(this, deadline);
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "parking failed", e);
        }
        if (parked == null) {
            connection.failed(new IOException("HTTP/2 connection could not be parked (client watcher closed)"));
            return;
        }
        lock.lock();
        try {
            if (io == Io.PARKING) {
                ticket = parked;
                io = Io.PARKED;
            } // else failed meanwhile, or woken already (onWake waits for PARKING to end)
            ioChanged.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public SocketChannel channel() {
        return transport.channel();
    }

    /** Watcher thread: readiness, the PING deadline, shutdown. A fresh thread takes it from here. */
    @Override
    public void onWake(ReadinessWatcher.Wake reason) {
        Thread.ofVirtual().name("shuttle-h2-wake-" + connection.id()).start(() -> woke(reason));
    }

    private void woke(ReadinessWatcher.Wake reason) {
        boolean handBack = reason == ReadinessWatcher.Wake.SHUTDOWN || reason == ReadinessWatcher.Wake.FAILED;
        lock.lock();
        try {
            while (io == Io.PARKING) {
                ioChanged.awaitUninterruptibly();
            }
            ticket = null;
            if (io == Io.CLOSED) {
                return; // closed meanwhile: whoever closed it closes the channel
            }
            io = Io.ACTIVE;
            connection.chunks.retain();
            ioChanged.signalAll();
            readerRunning = !handBack;
            if (!handBack) {
                writer.resumeLocked(); // frames queued while parked (returned credit)
            }
        } finally {
            lock.unlock();
        }
        if (handBack) {
            connection.failed(new IOException("client watcher handed the connection back: " + reason));
            return;
        }
        reader.run(reason);
    }

    /** For tests: the I/O state. */
    Io ioState() {
        lock.lock();
        try {
            return io;
        } finally {
            lock.unlock();
        }
    }

    /** For tests and diagnostics: whether reader or writer threads exist right now. */
    boolean hasThreads() {
        lock.lock();
        try {
            return readerRunning || writer.isRunningLocked();
        } finally {
            lock.unlock();
        }
    }
}
