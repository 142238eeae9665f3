package dev.shuttle.client.http2;

import dev.shuttle.client.Origin;
import dev.shuttle.client.Request;
import dev.shuttle.client.exchange.ExchangeCodec;
import dev.shuttle.client.exchange.ExchangeContext;
import dev.shuttle.client.exchange.ProtocolConnection;
import dev.shuttle.client.pool.Lease;
import dev.shuttle.transport.BufferPool;
import dev.shuttle.transport.ReadinessWatcher;
import dev.shuttle.transport.Transport;
import dev.shuttle.transport.tls.TlsInfo;
import dev.shuttle.wire.HttpVersion;
import dev.shuttle.wire.http2.ChunkPool;
import dev.shuttle.wire.http2.GoAwayFrame;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Exception;
import dev.shuttle.wire.http2.Http2Frame;
import dev.shuttle.wire.http2.Http2FrameWriter;
import dev.shuttle.wire.http2.Http2Preface;
import dev.shuttle.wire.http2.Http2Settings;
import dev.shuttle.wire.http2.OpeningFrames;
import dev.shuttle.wire.http2.OwnStreamIds;
import dev.shuttle.wire.http2.PingFrame;
import dev.shuttle.wire.http2.ReceiveWindows;
import dev.shuttle.wire.http2.SendWindows;
import dev.shuttle.wire.http2.StreamTable;
import dev.shuttle.wire.http2.WindowUpdateFrame;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One HTTP/2 connection (RFC 9113) to an origin, carrying many exchanges at once.
 *
 * <p><b>Threads.</b> Callers (one virtual thread per exchange) never touch the socket: they queue frames for the
 * {@link Http2Writer} thread and wait on conditions of {@link #lock} for what the {@link Http2Reader} thread delivers.
 * Both of those threads exist only while there is work: the writer while frames are queued, the reader while a
 * stream is open (or a PING or a frame is being handled). With no stream, the reader gives its buffers back and the
 * connection <em>parks</em>: its channel waits in the client-wide {@link ReadinessWatcher}, holding no thread and no
 * buffer. A new stream takes it back ({@link ReadinessWatcher#unpark}) and starts a reader; bytes that arrive while
 * parked (PING, SETTINGS, GOAWAY, the server closing) wake it through readiness, a reader handles them and it parks
 * again; with PINGs configured, the park's deadline wakes it to send one.
 *
 * <p><b>I/O state</b> ({@link Io}, guarded by {@link #lock}):
 * <pre>
 *   ACTIVE --no stream, reader and writer stopped--> PARKING --watcher took it--> PARKED
 *   PARKED --a new stream: unpark--> UNPARKING --back--> ACTIVE
 *   PARKED --readiness or deadline (watcher)--> ACTIVE (a reader runs)
 *   any --failure or close--> CLOSED
 * </pre>
 * While PARKING or PARKED nobody else may use the channel (it is non-blocking and registered with the selector), so
 * a stream is only queued while ACTIVE, and the thread that parks is the last of reader and writer to stop.
 *
 * <p><b>Locking.</b> One {@link ReentrantLock} guards the stream map, every {@link Http2Stream}, both flow-control
 * directions, the settings, the writer's queue and the I/O state. No I/O happens under it, and the pool is never
 * called while holding it (the pool calls {@link #streamCapacity()} and {@link #isHealthy()} under its own lock: both
 * read volatiles).
 */
public final class Http2Connection implements ProtocolConnection, ReadinessWatcher.Parkable {
    private static final System.Logger LOG = System.getLogger(Http2Connection.class.getName());

    enum Io { ACTIVE, PARKING, PARKED, UNPARKING, CLOSED }

    private final long id;
    private final Origin origin;
    /** {@code origin.authority()}, made once: every request's {@code :authority}. */
    private final String authority;
    final Transport transport;
    final BufferPool buffers;
    private final ReadinessWatcher watcher;
    final LongSupplier clock;
    final Http2Options options;
    final ReentrantLock lock = new ReentrantLock();
    private final Condition ioChanged = lock.newCondition();
    final Http2Writer writer;
    /** Owned by whichever thread runs the reader loop; one at a time, by {@link #readerRunning}. */
    private final Http2Reader reader;

    // ---- guarded by lock ----
    private Io io = Io.ACTIVE;
    private boolean readerRunning;
    private ReadinessWatcher.Ticket ticket;
    private final StreamTable<Http2Stream> streams = new StreamTable<>();
    /** Streams queued but not yet given an id by the writer. */
    private int queuedStreams;
    /** Open streams still waiting for END_STREAM (or a reset) from the server: the reader must keep reading. */
    private int awaitingServer;
    /** The reader is in (or about to enter) a blocking read. */
    private boolean readerBlocked;
    /** A PING was queued to wake a reader blocked in a read on a connection that went quiet. */
    private boolean wakePingQueued;
    /** The ids of our streams: handed out as HEADERS leave. */
    private final OwnStreamIds ownIds = new OwnStreamIds(true);
    /** False after GOAWAY, a failure or close: no new stream. */
    private boolean accepting = true;
    /** From the server's GOAWAY: streams above it were not processed. */
    private int goAwayLastStreamId = Integer.MAX_VALUE;
    private IOException failure;
    Http2Settings peerSettings = Http2Settings.DEFAULTS;
    /** What the server lets us send, on the connection and each stream. */
    final SendWindows sendWindows = new SendWindows();
    /** The deadlines of callers waiting on streams. */
    final WaitDeadlines deadlines;
    /** Chunks for received body bytes; emptied and not refilled while parked or closed. */
    final ChunkPool chunks = new ChunkPool();
    /** What we let the server send, on the connection and each stream, and when to hand the credit back. */
    final ReceiveWindows receiveWindows;

    // ---- any thread ----
    /** Streams the pool may put on this connection; 0 once it takes no new ones. */
    private volatile int capacity = INITIAL_CAPACITY;
    private volatile Runnable poolListener = () -> {
    };
    /** Runs while a new stream takes the parked connection back, outside the lock: where tests stage a failure. */
    volatile Runnable beforeUnpark = () -> {
    };

    /**
     * Streams assumed before the server's SETTINGS arrive: 100, the smallest limit RFC 9113 recommends servers
     * allow, as Go's transport assumes; a server that allows fewer refuses the rest, which are retried.
     */
    static final int INITIAL_CAPACITY = 100;
    /** Payload of the PING that wakes a blocked reader; the reader ignores its ACK. */
    static final long WAKE_PING = 0x5368_7574_746c_6521L;

    public Http2Connection(long id, Origin origin, Transport transport, BufferPool buffers, ReadinessWatcher watcher,
                           LongSupplier clock, Http2Options options) {
        this.id = id;
        this.origin = origin;
        this.authority = origin.authority();
        this.transport = transport;
        this.buffers = buffers;
        this.watcher = watcher;
        this.clock = clock;
        this.options = options;
        this.writer = new Http2Writer(this, lock, transport, buffers);
        this.deadlines = new WaitDeadlines(lock, clock);
        this.reader = new Http2Reader(this);
        // The writer thread writes while a reader reads. A non-blocking read (a reader woken by readiness) must then
        // not switch the channel's blocking mode: a write starting meanwhile failed with IllegalBlockingModeException
        // and took the connection down.
        transport.shareWithWriters();
        this.receiveWindows = new ReceiveWindows(options.connectionWindow(), options.streamWindow());
    }

    /**
     * Sends the preface, our SETTINGS and the connection window on the dialing thread (no other thread knows the
     * connection yet), then starts the reader, which takes the server's SETTINGS and parks the connection until the
     * first stream.
     */
    public void start() throws IOException {
        List<Http2Frame> opening = OpeningFrames.of(options.localSettings(), options.connectionWindow());
        ByteBuffer out = ByteBuffer.allocate(Http2Preface.LENGTH + OpeningFrames.length(opening));
        Http2Preface.write(out);
        for (Http2Frame frame : opening) {
            Http2FrameWriter.write(out, frame);
        }
        out.flip();
        transport.write(out.array(), 0, out.limit());
        lock.lock();
        try {
            startReaderLocked(null);
        } finally {
            lock.unlock();
        }
    }

    // ---- ProtocolConnection ----

    @Override
    public long id() {
        return id;
    }

    @Override
    public Origin origin() {
        return origin;
    }

    /** The {@code :authority} of requests to {@link #origin()}. */
    String authority() {
        return authority;
    }

    @Override
    public InetSocketAddress localAddress() {
        return transport.localAddress();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return transport.remoteAddress();
    }

    @Override
    public HttpVersion protocol() {
        return HttpVersion.HTTP_2;
    }

    @Override
    public TlsInfo tls() {
        return transport.tls();
    }

    @Override
    public ExchangeCodec newExchange(Lease lease, Request request, ExchangeContext context) {
        return new Http2Exchange(lease, this, request, context);
    }

    @Override
    public boolean isMultiplexed() {
        return true;
    }

    @Override
    public int streamCapacity() {
        return capacity;
    }

    @Override
    public void onChange(Runnable listener) {
        this.poolListener = listener;
    }

    /** Open and taking new streams. Lock-free. */
    @Override
    public boolean isHealthy() {
        return capacity > 0 && transport.isOpen();
    }

    @Override
    public boolean isOpen() {
        return transport.isOpen();
    }

    /** Nothing to give back: the connection parks itself, buffers included, when its last stream ends. */
    @Override
    public void onIdle() {
    }

    /** Refused: an HTTP/2 connection watches itself while idle (it parks when its last stream ends). */
    @Override
    public boolean watch(Runnable onWake) {
        return false;
    }

    @Override
    public boolean unwatch() {
        return true;
    }

    /** The whole connection must go (the pool's abort): every stream fails. */
    @Override
    public void abort(IOException reason) {
        failed(reason);
    }

    /** Closes politely: GOAWAY, then the socket, once the writer sent it. Streams still open fail. */
    @Override
    public void close() {
        failed(new IOException("connection closed by the client"), Http2ErrorCode.NO_ERROR);
    }

    // ---- streams, for the exchange and the body (callers' threads) ----

    /** A new stream for an exchange; its id comes when its HEADERS are written. */
    Http2Stream newStream() {
        return new Http2Stream(lock.newCondition());
    }

    /**
     * Queues the HEADERS that open {@code stream}, waking the connection from the watcher first if it is parked.
     *
     * @throws IOException (unprocessed) when the connection takes no new streams
     */
    void open(Http2Stream stream, List<String> fields, boolean endStream) throws IOException {
        lock.lock();
        try {
            while (true) {
                if (!accepting || io == Io.CLOSED) {
                    stream.unprocessed = true;
                    throw new IOException("HTTP/2 connection to " + origin + " takes no new streams"
                            + (failure != null ? ": " + failure.getMessage() : ""));
                }
                if (io == Io.PARKING || io == Io.UNPARKING) {
                    ioChanged.awaitUninterruptibly(); // microseconds: the watcher hands the channel over
                } else if (io == Io.PARKED) {
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
                        continue; // failed meanwhile (closed, or the pool's idle timeout): the check above reports it
                    }
                    if (back) {
                        io = Io.ACTIVE; // ours again: no reader runs; one is started below
                        chunks.retain();
                        ioChanged.signalAll();
                        writer.resumeLocked(); // credit queued while parked leaves before the HEADERS
                    } // else the watcher handed it to onWake, which makes it ACTIVE with a reader
                } else {
                    queuedStreams++;
                    stream.localEnd = endStream;
                    writer.enqueueLocked(new Http2Writer.HeadersOut(stream, fields, endStream));
                    if (!readerRunning) {
                        startReaderLocked(null);
                    }
                    return;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** The writer is about to write {@code stream}'s HEADERS: give it an id, or refuse (reset meanwhile, GOAWAY). */
    boolean assignIdLocked(Http2Stream stream) {
        assert lock.isHeldByCurrentThread();
        queuedStreams--;
        if (stream.isClosed()) {
            wakeQuietReaderLocked(); // reset before it left: it may have been all the reader waited for
            return false;
        }
        if (!accepting || ownIds.exhausted()) {
            failStreamLocked(stream, new IOException("HTTP/2 connection to " + origin + " stopped taking streams"),
                    true);
            return false;
        }
        stream.id = ownIds.next();
        stream.state = Http2Stream.State.OPEN;
        stream.send = sendWindows.open(stream.id);
        stream.receive = receiveWindows.open(stream.id);
        streams.put(stream.id, stream);
        awaitingServer++;
        stream.sendSideChanged(); // a body waits for the id
        return true;
    }

    /** The writer stopped with these HEADERS still queued (the connection failed): their stream fails, unprocessed. */
    void headersDroppedLocked(Http2Stream stream) {
        assert lock.isHeldByCurrentThread();
        queuedStreams--;
        failStreamLocked(stream, failure != null ? failure
                : new IOException("HTTP/2 connection to " + origin + " closed before the request was sent"), true);
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

    /** Whether the writer may use the channel: only while ACTIVE (else the watcher holds it, or it is closed). */
    boolean channelWritableLocked() {
        assert lock.isHeldByCurrentThread();
        return io == Io.ACTIVE;
    }

    /**
     * Takes up to {@code wanted} bytes of send credit for {@code stream} (stream and connection windows, at most a
     * frame); returns how many, or -1 when there is none yet (the stream has no id, or a window is spent): its
     * caller then waits on the stream's condition with {@link Http2Stream#sendWaiting} set.
     *
     * @throws IOException when the stream failed or closed
     */
    int takeSendWindowLocked(Http2Stream stream, int wanted) throws IOException {
        assert lock.isHeldByCurrentThread();
        checkSendableLocked(stream);
        if (stream.state != Http2Stream.State.OPEN) {
            return -1;
        }
        if (wanted == 0) {
            return 0;
        }
        int n = sendWindows.take(stream.send, wanted, peerSettings.maxFrameSize());
        return n > 0 ? n : -1;
    }

    /** Queues body bytes whose credit was taken; the caller saw room ({@link Http2Writer#hasRoomForDataLocked}). */
    void queueDataLocked(Http2Stream stream, ByteBuffer payload, boolean endStream) throws IOException {
        assert lock.isHeldByCurrentThread();
        checkSendableLocked(stream);
        if (endStream) {
            stream.localEnd = true;
        }
        writer.enqueueLocked(new Http2Writer.DataOut(stream, payload, endStream));
    }

    /** Throws when {@code stream} may no longer send: it failed (a reset either way, an abort) or closed. */
    void checkSendableLocked(Http2Stream stream) throws IOException {
        if (stream.failure != null) {
            throw stream.failure;
        }
        if (stream.isClosed()) {
            throw new IOException("stream closed by the server before the request body was sent");
        }
    }

    /** The writer found DATA of {@code stream}: false (and the credit back) when the stream was reset meanwhile. */
    boolean dataStillWantedLocked(Http2Stream stream, int length) {
        assert lock.isHeldByCurrentThread();
        if (stream.state == Http2Stream.State.OPEN && stream.failure == null) {
            return true;
        }
        sendWindows.refund(stream.send, length);
        return false;
    }

    /** The writer handed END_STREAM of these streams to the socket. */
    void endsWritten(List<Http2Stream> ended) {
        lock.lock();
        try {
            for (Http2Stream stream : ended) {
                stream.endWritten = true;
                closeIfDoneLocked(stream);
                stream.sendSideChanged();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * The caller read {@code n} body bytes (or dropped them): hands the credit back to the server, per the update
     * policy, on the connection and (while the server may still send) the stream.
     */
    void consumedLocked(Http2Stream stream, long n) {
        assert lock.isHeldByCurrentThread();
        if (n <= 0 || io == Io.CLOSED) {
            return;
        }
        receiveWindows.connectionConsumed(n);
        connectionCreditLocked();
        streamCreditLocked(stream, n);
    }

    /** Queues the connection's WINDOW_UPDATE if the update policy has one due. */
    void connectionCreditLocked() {
        assert lock.isHeldByCurrentThread();
        int increment = receiveWindows.takeConnectionUpdate();
        if (increment > 0 && io != Io.CLOSED) {
            writer.enqueueLocked(new Http2Writer.ControlOut(new WindowUpdateFrame(0, increment), false));
        }
    }

    /**
     * {@code n} octets of {@code stream} were consumed: queues its WINDOW_UPDATE if one is due and the server may
     * still send on it.
     */
    void streamCreditLocked(Http2Stream stream, long n) {
        assert lock.isHeldByCurrentThread();
        if (n <= 0 || stream == null || stream.receive == null || stream.remoteEnd || stream.isClosed()
                || io == Io.CLOSED) {
            return;
        }
        int increment = receiveWindows.streamConsumed(stream.receive, n);
        if (increment > 0) {
            writer.enqueueLocked(new Http2Writer.ControlOut(new WindowUpdateFrame(stream.id, increment), false));
        }
    }

    /**
     * Resets {@code stream} (RST_STREAM with {@code error}, if its HEADERS left), fails it with {@code cause}, and
     * gives back the credit of what it buffered. Only this stream is touched; a no-op once it is closed.
     */
    void resetLocked(Http2Stream stream, Http2ErrorCode error, IOException cause) {
        assert lock.isHeldByCurrentThread();
        if (stream.isClosed()) {
            return;
        }
        boolean sent = stream.state == Http2Stream.State.OPEN;
        if (sent) {
            writer.enqueueLocked(new Http2Writer.ResetOut(stream, error));
        }
        failStreamLocked(stream, cause, !sent);
    }

    /** Marks {@code stream} failed and closed; its buffered bytes' credit goes back to the connection. */
    void failStreamLocked(Http2Stream stream, IOException cause, boolean unprocessed) {
        assert lock.isHeldByCurrentThread();
        if (stream.failure == null) {
            stream.failure = cause;
            stream.unprocessed = unprocessed;
        }
        long dropped = stream.body.discard(chunks);
        consumedLocked(null, dropped);
        closeLocked(stream);
    }

    /**
     * The response is complete but the request is not: stop sending it (with RST_STREAM(NO_ERROR) when
     * {@code sendReset}), keeping what was received for the body to read.
     */
    void stopSendingLocked(Http2Stream stream, boolean sendReset) {
        assert lock.isHeldByCurrentThread();
        if (sendReset && stream.state == Http2Stream.State.OPEN) {
            writer.enqueueLocked(new Http2Writer.ResetOut(stream, Http2ErrorCode.NO_ERROR));
        }
        closeLocked(stream);
    }

    /**
     * Removes a stream whose both ends are done. Does not signal it: whoever completed it signals what its caller
     * waits for (the reader the end of the response, the writer END_STREAM written).
     */
    void closeIfDoneLocked(Http2Stream stream) {
        if (stream.remoteEnd && stream.endWritten && !stream.isClosed()) {
            closeLocked(stream, false);
        }
    }

    private void closeLocked(Http2Stream stream) {
        closeLocked(stream, true);
    }

    private void closeLocked(Http2Stream stream, boolean signal) {
        if (stream.state == Http2Stream.State.OPEN && !stream.remoteEnd) {
            awaitingServer--;
        }
        stream.state = Http2Stream.State.CLOSED;
        if (stream.id != 0) {
            streams.remove(stream.id);
        }
        if (signal) {
            stream.changed.signalAll();
        }
        wakeQuietReaderLocked();
    }

    /**
     * When the reader is blocked in a read but nothing is left for it to wait for (we reset the last stream it
     * served), it would sit there until the server sends something, holding a thread and a buffer on an idle
     * connection: a PING makes the server send something, and its ACK wakes the reader, which then stops.
     */
    private void wakeQuietReaderLocked() {
        if (readerBlocked && !wakePingQueued && quietLocked() && io == Io.ACTIVE && failure == null) {
            wakePingQueued = true;
            writer.enqueueLocked(new Http2Writer.ControlOut(new PingFrame(WAKE_PING, false), false));
        }
    }

    /** END_STREAM arrived on {@code stream} (reader). */
    void remoteEndLocked(Http2Stream stream) {
        assert lock.isHeldByCurrentThread();
        if (!stream.remoteEnd) {
            stream.remoteEnd = true;
            if (stream.state == Http2Stream.State.OPEN) {
                awaitingServer--;
            }
        }
    }

    /** The reader goes into a blocking read (true) or came out of one (false). */
    void readerBlockedLocked(boolean blocked) {
        assert lock.isHeldByCurrentThread();
        readerBlocked = blocked;
        if (!blocked) {
            wakePingQueued = false;
        }
    }

    Http2Stream streamLocked(int streamId) {
        return streams.get(streamId);
    }

    /**
     * Whether the server may refer to {@code streamId}: one of ours that was opened (maybe closed since); any frame
     * but PRIORITY on another is a connection error (RFC 9113 section 5.1).
     */
    boolean wasOpenedLocked(int streamId) {
        assert lock.isHeldByCurrentThread();
        return ownIds.wasOpened(streamId);
    }

    List<Http2Stream> streamsLocked() {
        return streams.snapshot();
    }

    /** The connection's send window grew: wakes the callers waiting for credit (lock held). */
    void sendSideChangedLocked() {
        assert lock.isHeldByCurrentThread();
        streams.forEach(Http2Stream::sendSideChanged);
    }

    int peerMaxFrameSizeLocked() {
        return peerSettings.maxFrameSize();
    }

    // ---- from the reader ----

    /** The server's SETTINGS changed its stream limit: tell the pool (outside every lock of ours). */
    void capacityChanged(long maxConcurrentStreams) {
        lock.lock();
        try {
            if (!accepting) {
                return;
            }
            capacity = (int) Math.min(Integer.MAX_VALUE, maxConcurrentStreams);
        } finally {
            lock.unlock();
        }
        notifyPool();
    }

    /** GOAWAY: no new streams; those above {@code lastStreamId} were not processed and fail as retryable. */
    void goAway(int lastStreamId, IOException cause) {
        lock.lock();
        try {
            accepting = false;
            capacity = 0;
            goAwayLastStreamId = Math.min(goAwayLastStreamId, lastStreamId);
            for (Http2Stream stream : streamsLocked()) {
                if (stream.id > goAwayLastStreamId) {
                    failStreamLocked(stream, cause, true);
                }
            }
            // The reader stops once the streams it still serves are done; then park() closes instead.
        } finally {
            lock.unlock();
        }
        notifyPool();
    }

    /** The connection failed or is being closed: every stream fails, the socket closes. */
    void failed(IOException cause) {
        failed(cause, null);
    }

    /**
     * As {@link #failed(IOException)}, sending GOAWAY with {@code goAway} first when not null (a protocol error we
     * detected, or a polite close).
     */
    void failed(IOException cause, Http2ErrorCode goAway) {
        boolean closeNow;
        ReadinessWatcher.Ticket parked = null;
        lock.lock();
        try {
            if (failure != null) {
                return;
            }
            failure = cause;
            accepting = false;
            capacity = 0;
            for (Http2Stream stream : streamsLocked()) {
                failStreamLocked(stream, cause, stream.id > goAwayLastStreamId);
            }
            streams.clear();
            if (io == Io.PARKED) {
                parked = ticket;
                ticket = null;
            }
            // Only an ACTIVE channel is ours to write a GOAWAY on; any other state closes at once.
            closeNow = goAway == null || io != Io.ACTIVE;
            if (!closeNow) {
                // Last-Stream-ID names the peer's streams we processed: a client accepts none (push is off), so 0
                // (RFC 9113 section 6.8).
                writer.enqueueLocked(new Http2Writer.ControlOut(new GoAwayFrame(0, goAway, ""), true));
            }
            io = Io.CLOSED;
            chunks.release();
            ioChanged.signalAll();
            writer.dismissLocked(); // a writer waiting for frames (a GOAWAY queued above woke it: it writes that)
        } finally {
            lock.unlock();
        }
        if (parked != null) {
            watcher.unpark(parked); // its key must leave the watcher; true or false, the channel is closed next
        }
        if (closeNow) {
            transport.close();
        }
        notifyPool();
    }

    private void notifyPool() {
        try {
            poolListener.run();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "pool callback failed", e);
        }
    }

    // ---- reader and parking ----

    /** Starts a reader thread; the caller holds the lock and made sure none runs. */
    private void startReaderLocked(ReadinessWatcher.Wake wake) {
        assert lock.isHeldByCurrentThread();
        readerRunning = true;
        Thread.ofVirtual().name("shuttle-h2-reader-" + id).start(() -> reader.run(wake));
    }

    /**
     * Whether the reader may stop: no stream waits for anything from the server (those in the map have their
     * END_STREAM and wait only for the writer to send theirs) and none is queued to open.
     */
    boolean quietLocked() {
        assert lock.isHeldByCurrentThread();
        return awaitingServer == 0 && queuedStreams == 0;
    }

    /**
     * The reader stopped (its buffers are back): park unless the writer still runs (it parks when done) or a
     * stream came meanwhile (then the reader goes on: returns false).
     */
    boolean readerStopping() {
        boolean park;
        lock.lock();
        try {
            if (io == Io.ACTIVE && !quietLocked()) {
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

    /** The writer thread ends (lock held). It parks the connection if the reader stopped already. */
    void writerStoppedLocked() {
        assert lock.isHeldByCurrentThread();
        if (parkableLocked()) {
            Thread.ofVirtual().name("shuttle-h2-park-" + id).start(this::park);
        }
    }

    /** Decides to park: moves to PARKING when nothing runs and nothing is open. */
    private boolean parkableLocked() {
        if (io == Io.ACTIVE && !readerRunning && !writer.isRunningLocked() && quietLocked() && streams.isEmpty()) {
            io = Io.PARKING;
            chunks.release(); // an idle connection holds no buffer
            return true;
        }
        return false;
    }

    /** PARKING → PARKED: the channel goes to the watcher, with a deadline for the next PING if configured. */
    private void park() {
        if (!acceptingStreams()) {
            failed(new IOException("HTTP/2 connection to " + origin + " closed after its last stream (GOAWAY)"));
            return;
        }
        ReadinessWatcher.Ticket parked = null;
        try {
            transport.channel().configureBlocking(false);
            long deadline = options.pingIntervalMillis() == 0 ? Long.MAX_VALUE
                    : clock.getAsLong() + options.pingIntervalMillis() * 1_000_000;
            parked = watcher.park(this, deadline);
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "parking failed", e);
        }
        if (parked == null) {
            failed(new IOException("HTTP/2 connection could not be parked (client watcher closed)"));
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

    private boolean acceptingStreams() {
        lock.lock();
        try {
            return accepting;
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
        Thread.ofVirtual().name("shuttle-h2-wake-" + id).start(() -> woke(reason));
    }

    private void woke(ReadinessWatcher.Wake reason) {
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
            chunks.retain();
            ioChanged.signalAll();
            if (reason == ReadinessWatcher.Wake.SHUTDOWN || reason == ReadinessWatcher.Wake.FAILED) {
                readerRunning = false;
            } else {
                readerRunning = true;
                writer.resumeLocked(); // frames queued while parked (returned credit)
            }
        } finally {
            lock.unlock();
        }
        if (reason == ReadinessWatcher.Wake.SHUTDOWN || reason == ReadinessWatcher.Wake.FAILED) {
            failed(new IOException("client watcher handed the connection back: " + reason));
            return;
        }
        reader.run(reason);
    }

    /**
     * The reader loop ended with a failure (its thread ends, still holding the reader's buffer). The connection is
     * failed first, so no new reader can start on the same {@link Http2Reader} before this thread let go of it.
     */
    void readerFailed(IOException cause, Http2ErrorCode goAway) {
        failed(cause, goAway);
        lock.lock();
        try {
            readerRunning = false;
        } finally {
            lock.unlock();
        }
    }

    /** For tests: holds reader threads at the points a race is staged at (null: none). */
    void readerStageHook(Consumer<Http2Reader.Stage> hook) {
        reader.stageHook = hook;
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

    /** For tests: whether the reader is in (or about to enter) a blocking read for a stream's frames. */
    boolean readerBlocked() {
        lock.lock();
        try {
            return readerBlocked;
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

    @Override
    public String toString() {
        return "Http2Connection[" + id + " " + localAddress() + " -> " + origin
                + (transport.tls() == null ? " h2c" : " h2") + "]";
    }
}
