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
import dev.shuttle.wire.http2.Http2Frame;
import dev.shuttle.wire.http2.Http2FrameWriter;
import dev.shuttle.wire.http2.Http2Preface;
import dev.shuttle.wire.http2.Http2Settings;
import dev.shuttle.wire.http2.OpeningFrames;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One HTTP/2 connection (RFC 9113) to an origin, carrying many exchanges at once: what the pool and the exchanges
 * see of it (opening streams, its capacity and health, GOAWAY and failure), over parts with one job each.
 *
 * <p><b>Threads.</b> Callers (one virtual thread per exchange) never touch the socket: they queue frames for the
 * {@link WriterThread} thread and wait on conditions of {@link #lock} for what the {@link Http2Reader} thread delivers
 * (its frames applied by {@link FrameReceiver}). Both of those threads exist only while there is work: the writer
 * while frames are queued, the reader while a stream is open (or a PING or a frame is being handled); with no
 * stream the connection parks ({@link Http2Parking}). The streams and both directions of flow control are
 * {@link Http2Streams}.
 *
 * <p><b>Locking.</b> One {@link ReentrantLock} guards the streams, every {@link Http2Stream}, both flow-control
 * directions, the settings, the writer's queue and the I/O state. No I/O happens under it, and the pool is never
 * called while holding it (the pool calls {@link #streamCapacity()} and {@link #isHealthy()} under its own lock: both
 * read volatiles).
 */
public final class Http2Connection implements ProtocolConnection {
    private static final System.Logger LOG = System.getLogger(Http2Connection.class.getName());

    private final long id;
    private final Origin origin;
    /** {@code origin.authority()}, made once: every request's {@code :authority}. */
    private final String authority;
    final Transport transport;
    final BufferPool buffers;
    final LongSupplier clock;
    final Http2ConnectionConfig options;
    final ReentrantLock lock = new ReentrantLock();
    final WriterThread writer;
    final Http2Streams streams;
    final Http2Parking parking;
    /** The deadlines of callers waiting on streams. */
    final WaitDeadlines deadlines;
    /** Guarded by lock: chunks for received body bytes; emptied and not refilled while parked or closed. */
    final ChunkPool chunks = new ChunkPool();
    /** Owned by whichever thread runs the reader loop; one at a time (see {@link Http2Parking}). */
    private final Http2Reader reader;

    /** Guarded by lock: the server's settings, applied by the reader. */
    Http2Settings peerSettings = Http2Settings.DEFAULTS;
    /** Guarded by lock: false after GOAWAY, a failure or close: no new stream. */
    private boolean accepting = true;
    /** Guarded by lock: from the server's GOAWAY: streams above it were not processed. */
    private int goAwayLastStreamId = Integer.MAX_VALUE;
    /** Guarded by lock: why the connection failed, or null. */
    private IOException failure;

    /** Any thread: streams the pool may put on this connection; 0 once it takes no new ones. */
    private volatile int capacity = INITIAL_CAPACITY;
    private volatile Runnable poolListener = () -> {
    };

    /**
     * Streams assumed before the server's SETTINGS arrive: 100, the smallest limit RFC 9113 recommends servers
     * allow, as Go's transport assumes; a server that allows fewer refuses the rest, which are retried.
     */
    static final int INITIAL_CAPACITY = 100;

    public Http2Connection(long id, Origin origin, Transport transport, BufferPool buffers, ReadinessWatcher watcher,
                           LongSupplier clock, Http2ConnectionConfig options) {
        this.id = id;
        this.origin = origin;
        this.authority = origin.authority();
        this.transport = transport;
        this.buffers = buffers;
        this.clock = clock;
        this.options = options;
        this.writer = new WriterThread(this, lock, transport, buffers);
        this.streams = new Http2Streams(this, lock, writer, options);
        this.deadlines = new WaitDeadlines(lock, clock);
        this.reader = new Http2Reader(this);
        this.parking = new Http2Parking(this, lock, watcher, writer, reader);
        // The writer thread writes while a reader reads. A non-blocking read (a reader woken by readiness) must then
        // not switch the channel's blocking mode: a write starting meanwhile failed with IllegalBlockingModeException
        // and took the connection down.
        transport.shareWithWriters();
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
            parking.startLocked();
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
                if (!accepting || parking.closedLocked()) {
                    stream.unprocessed = true;
                    throw new IOException("HTTP/2 connection to " + origin + " takes no new streams"
                            + (failure != null ? ": " + failure.getMessage() : ""));
                }
                if (parking.takeForStreamLocked()) {
                    streams.queueHeadersLocked(stream, fields, endStream);
                    parking.streamQueuedLocked();
                    return;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Whether new streams may open: no GOAWAY, failure or close yet. */
    boolean acceptingLocked() {
        assert lock.isHeldByCurrentThread();
        return accepting;
    }

    boolean acceptingStreams() {
        lock.lock();
        try {
            return accepting;
        } finally {
            lock.unlock();
        }
    }

    /** Whether the channel is the connection's to use (not parked, not closed) and it has not failed. */
    boolean activeLocked() {
        assert lock.isHeldByCurrentThread();
        return parking.activeLocked() && failure == null;
    }

    boolean closedLocked() {
        assert lock.isHeldByCurrentThread();
        return parking.closedLocked();
    }

    /** Why the connection failed, or null. */
    IOException failureLocked() {
        assert lock.isHeldByCurrentThread();
        return failure;
    }

    int peerMaxFrameSizeLocked() {
        assert lock.isHeldByCurrentThread();
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
            streams.goAwayLocked(goAwayLastStreamId, cause);
            // The reader stops once the streams it still serves are done; then parking closes instead.
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
        ReadinessWatcher.Ticket parked;
        lock.lock();
        try {
            if (failure != null) {
                return;
            }
            failure = cause;
            accepting = false;
            capacity = 0;
            streams.failAllLocked(cause, goAwayLastStreamId);
            // Only an ACTIVE channel is ours to write a GOAWAY on; any other state closes at once.
            closeNow = goAway == null || !parking.activeLocked();
            if (!closeNow) {
                // Last-Stream-ID names the peer's streams we processed: a client accepts none (push is off), so 0
                // (RFC 9113 section 6.8).
                writer.enqueueLocked(new WriterThread.ControlOut(new GoAwayFrame(0, goAway, ""), true));
            }
            parked = parking.closeLocked();
            writer.dismissLocked(); // a writer waiting for frames (a GOAWAY queued above woke it: it writes that)
        } finally {
            lock.unlock();
        }
        if (parked != null) {
            parking.unparkToClose(parked); // its key must leave the watcher; the channel is closed next
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

    // ---- for tests ----

    /** Holds reader threads at the points a race is staged at (null: none). */
    void readerStageHook(Consumer<Http2Reader.Stage> hook) {
        reader.stageHook = hook;
    }

    /** The I/O state. */
    Http2Parking.Io ioState() {
        return parking.ioState();
    }

    /** Whether the reader is in (or about to enter) a blocking read for a stream's frames. */
    boolean readerBlocked() {
        lock.lock();
        try {
            return streams.readerBlockedLocked();
        } finally {
            lock.unlock();
        }
    }

    /** For tests and diagnostics: whether reader or writer threads exist right now. */
    boolean hasThreads() {
        return parking.hasThreads();
    }

    @Override
    public String toString() {
        return "Http2Connection[" + id + " " + localAddress() + " -> " + origin
                + (transport.tls() == null ? " h2c" : " h2") + "]";
    }
}
