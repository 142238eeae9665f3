package dev.shuttle.server.http2;

import dev.shuttle.server.Http2Options;
import dev.shuttle.server.core.LogText;
import dev.shuttle.server.core.ProtocolSession;
import dev.shuttle.server.core.ServerConnection;
import dev.shuttle.server.core.ServerContext;
import dev.shuttle.server.io.ConnectionInput;
import dev.shuttle.wire.hpack.HpackDecoder;
import dev.shuttle.wire.HttpVersion;
import dev.shuttle.wire.http2.HeaderBlockAssembler;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Exception;
import dev.shuttle.wire.http2.Http2Frame;
import dev.shuttle.wire.http2.Http2FrameReader;
import dev.shuttle.wire.http2.Http2Limits;
import dev.shuttle.wire.http2.Http2Preface;
import dev.shuttle.wire.http2.Http2RequestHead;
import dev.shuttle.wire.http2.Http2Settings;
import dev.shuttle.wire.http2.OpeningFrames;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * HTTP/2 on one server connection (RFC 9113): the reader, which runs on the connection's thread, checks and dispatches
 * every frame, and starts a virtual thread per request stream, which runs the handler and writes its response through
 * the {@link Http2Writer}; on a plaintext connection it runs the last handler of a read itself, once the connection
 * is parked ({@link HandlerRun}).
 *
 * <p>Parking: when the reader finds nothing to read, it moves the connection to IDLE and returns {@link Next#PARK}
 * (no scheduler turns first, as HTTP/1.1 takes: the client's next frames answer responses that the handlers' threads
 * are still sending, and turns that look for them cost more than the parks they save): the connection gives back its
 * buffers and waits in the watcher without a thread, whatever its open streams do. Handler threads are their own;
 * their writes go through the connection's park gate, so a write to a parked connection takes it back and parks it
 * again after (see {@link ServerConnection#beginWrite}). Client frames wake it through readiness. While the server
 * shuts down it cannot park: with streams open, the reader then blocks in reads until they end.
 *
 * <p>Threads: the fields marked "reader" belong to the connection's current reading thread; the streams, the writer
 * and the GOAWAY flags are shared and guard themselves.
 */
public final class Http2Session implements ProtocolSession {
    private static final System.Logger LOG = System.getLogger(Http2Session.class.getName());
    private static final long NONE = Long.MIN_VALUE;

    private final ServerConnection connection;
    private final ServerContext context;
    private final Http2Options options;
    private final Http2Limits limits = Http2Limits.serverDefaults();
    private final Http2Writer writer;
    private final Http2Streams streams;
    private final Goodbye goodbye;
    private final StreamSender sender;
    private final HandlerRun handlers;

    // reader
    private final Http2FrameReader reader;
    private final HeaderBlockAssembler blocks;
    private final FrameReceiver receiver;
    private final AbuseBudgets budgets;
    private boolean prefaceRead;
    private boolean settingsSent;
    /** Counts the reads that brought bytes: a stream reset in the read that opened it was never waited for. */
    private long reads;
    /** Bytes read and dropped while lingering. */
    private long lingerDiscarded;
    /**
     * Since when a frame or a field block is incomplete ({@link #NONE} when none is): it must be complete within the
     * body-read timeout (a frame) or the header-read timeout (a field block), however slowly its bytes trickle in.
     */
    private long partialSince = NONE;

    /** When a stream last opened or a handler last finished (context clock): the idle timeout runs from there. */
    private volatile long lastStreamActivityNanos;

    public Http2Session(ServerConnection connection, Http2Options options) {
        this(connection, options, Thread::yield);
    }

    /**
     * @param gatherTurn what a flusher ending a stream does while other handlers run, before it writes
     *                   ({@link Http2Writer}): a yield, or a staged step in tests
     */
    Http2Session(ServerConnection connection, Http2Options options, Runnable gatherTurn) {
        this.connection = connection;
        this.context = connection.context();
        this.options = options;
        this.writer = new Http2Writer(connection, context.buffers, gatherTurn);
        this.streams = new Http2Streams(options.initialWindowSize(), options.connectionWindowSize(),
                context::streams);
        this.goodbye = new Goodbye(writer, streams, context::now, connection);
        this.sender = new StreamSender(writer, streams, context.timeouts.write().toNanos(), connection.id());
        this.handlers = new HandlerRun(connection, streams, sender, writer,
                new HandlerSlots(options.maxConcurrentStreams()), goodbye, this::streamActivity);
        this.budgets = new AbuseBudgets(options);
        StreamAdmission admission = new StreamAdmission(connection, options, streams, sender, handlers, goodbye,
                budgets, new HpackDecoder(limits), this::streamActivity);
        this.receiver = new FrameReceiver(streams, writer, sender, admission, goodbye, budgets, context::now);
        this.reader = new Http2FrameReader(limits.maxFrameSize());
        this.blocks = new HeaderBlockAssembler(limits);
        this.lastStreamActivityNanos = context.now();
        connection.transport().shareWithWriters(); // handlers write while the reader reads
    }

    Http2Streams streams() {
        return streams;
    }

    /**
     * The connection was upgraded from HTTP/1.1 ({@link H2cUpgrade}): the client's settings came in its
     * HTTP2-Settings header, and its request is stream 1, half-closed (its body, if any, was refused), already counted.
     */
    void upgraded(Http2Settings clientSettings, Http2RequestHead request) throws IOException {
        receiver.peerSettings(clientSettings);
        writer.peerSettings(clientSettings);
        sendSettings();
        Http2Stream stream = streams.open(1);
        streams.peerInitialWindow(clientSettings.initialWindowSize());
        streams.declareLength(stream, 0);
        streams.remoteEnded(stream);
        try {
            handlers.start(stream, request);
        } catch (Http2Exception e) {
            throw new IllegalStateException("the first stream found no handler slot", e);
        }
    }

    /** A stream opened or a handler finished: the idle timeout counts from the last of these. */
    private void streamActivity() {
        lastStreamActivityNanos = context.now();
    }

    // ---- reader ----

    @Override
    public Next serve(long headDeadline) throws IOException {
        if (context.parking && connection.transport().writesWhileParked()) {
            handlers.keepOnThisThread(); // see HandlerRun: the last handler of a read may run here once parked
        }
        Next next = null;
        try {
            next = serveFrames(headDeadline);
            return next;
        } finally {
            if (next != Next.PARK) {
                handlers.stopKeeping();
            }
        }
    }

    @Override
    public Runnable takeKeptHandler() {
        return handlers.takeKept();
    }

    private Next serveFrames(long headDeadline) throws IOException {
        ConnectionInput input = connection.input();
        reads++;
        if (goodbye.phase() == Goodbye.Phase.LINGERING) {
            return linger(input);
        }
        if (!settingsSent) {
            sendSettings();
        }
        if (!prefaceRead && !readPreface(input, headDeadline)) {
            goodbye.goAway(Http2ErrorCode.PROTOCOL_ERROR, "invalid connection preface");
            goodbye.linger();
            return linger(input);
        }
        input.usePerReadTimeout(context.bodyReadMillis); // a frame that started must finish within this
        while (true) {
            try {
                Http2Frame read = reader.read(input.buffer());
                if (read != null) {
                    Http2Frame frame = blocks.accept(read);
                    if (frame != null) {
                        receiver.receive(frame, reads);
                    }
                    if (!blocks.inProgress()) {
                        partialSince = NONE;
                    } else if (partialSince == NONE) {
                        partialSince = context.now();
                    }
                    continue;
                }
            } catch (Http2Exception e) {
                Http2Exception failure = e;
                if (!e.isConnectionError()) {
                    LOG.log(Level.DEBUG, "connection {0}: stream error {1}", connection.id(),
                            LogText.excerpt(e.getMessage()));
                    try {
                        budgets.provokedReset(context.now()); // the client's frame made us reset (MadeYouReset)
                        sender.reset(e.streamId(), e.error());
                        continue;
                    } catch (Http2Exception calm) {
                        failure = calm;
                    }
                }
                LOG.log(Level.DEBUG, "connection {0}: connection error {1}: {2}", connection.id(), failure.error(),
                        LogText.excerpt(failure.getMessage()));
                goodbye.goAway(failure.error(), failure.getMessage());
                goodbye.linger();
                return linger(input);
            }
            Next next = awaitBytes(input);
            if (next != null) {
                return next;
            }
            reads++;
        }
    }

    /**
     * No whole frame is buffered: read more. Returns null when bytes arrived, else what the connection does: PARK
     * (nothing to read now), CLOSE (the client closed, or the connection finished its last stream after a GOAWAY).
     */
    private Next awaitBytes(ConnectionInput input) throws IOException {
        if (input.buffer().hasRemaining() || blocks.inProgress()) {
            // Part of a frame, or of a field block: the rest is on its way. Wait for it holding the buffer (a block
            // cannot park: its HPACK state is half-read), until a deadline from its start, so a trickle of bytes
            // cannot keep it open.
            if (partialSince == NONE) {
                partialSince = context.now();
            }
            handlers.startKept(); // the reader blocks below
            long within = blocks.inProgress() ? context.headerReadNanos
                    : TimeUnit.MILLISECONDS.toNanos(context.bodyReadMillis);
            input.useDeadline(partialSince + within);
            try {
                return input.fill() < 0 ? Next.CLOSE : null;
            } catch (SocketTimeoutException e) {
                LOG.log(Level.DEBUG, "connection {0}: {1} not completed in time", connection.id(),
                        blocks.inProgress() ? "field block" : "frame");
                goodbye.goAway(Http2ErrorCode.NO_ERROR, "timeout");
                goodbye.linger();
                return linger(input);
            } finally {
                input.usePerReadTimeout(context.bodyReadMillis);
            }
        }
        int n = input.fillNow();
        if (n != 0) {
            return n < 0 ? Next.CLOSE : null;
        }
        goodbye.drainWaitOver();
        goodbye.lingerIfDone();
        if (goodbye.phase() == Goodbye.Phase.LINGERING) {
            return linger(input);
        }
        if (!context.parking || context.draining()) {
            handlers.startKept();
            // Parking off (or impossible while the server shuts down): wait in a read, as thread-per-connection
            // servers do; the idle timeout applies only to a connection without open streams.
            return awaitInRead(input);
        }
        return connection.toIdle() ? Next.PARK : Next.CLOSE;
    }

    /**
     * Waits in a blocking read until bytes come, the goodbye needs a step, or no stream has run for an idle timeout
     * (then GOAWAY, and the connection lingers).
     */
    private Next awaitInRead(ConnectionInput input) throws IOException {
        while (true) {
            input.usePerReadTimeout(Math.max(1, TimeUnit.NANOSECONDS.toMillis(idleTimeoutNanos())));
            try {
                return input.fill() < 0 ? Next.CLOSE : null;
            } catch (SocketTimeoutException e) {
                if (idleTimedOut()) {
                    goodbye.goAway(Http2ErrorCode.NO_ERROR, "idle");
                }
                goodbye.drainWaitOver();
                goodbye.lingerIfDone();
                if (goodbye.phase() == Goodbye.Phase.LINGERING) {
                    return linger(input);
                }
                // streams still run, or one ended lately: read on
            } finally {
                input.usePerReadTimeout(context.bodyReadMillis);
            }
        }
    }

    /**
     * After the half-close: reads and drops what the client still sends until it closes, the linger's time is up or
     * it sent too much; parked meanwhile when the connection can park.
     */
    private Next linger(ConnectionInput input) throws IOException {
        handlers.startKept();
        while (true) {
            ByteBuffer buffer = input.buffer();
            lingerDiscarded += buffer.remaining();
            buffer.position(buffer.limit());
            if (lingerDiscarded > Goodbye.LINGER_MAX_BYTES || goodbye.lingerOver()) {
                return Next.CLOSE;
            }
            int n = input.fillNow();
            if (n < 0) {
                return Next.CLOSE;
            }
            if (n > 0) {
                continue;
            }
            if (context.parking && !context.draining()) {
                return connection.toIdle() ? Next.PARK : Next.CLOSE; // parked until the client closes, at most the rest
            }
            input.usePerReadTimeout(Math.max(1, TimeUnit.NANOSECONDS.toMillis(goodbye.nanosUntilNextStep())));
            try {
                if (input.fill() < 0) {
                    return Next.CLOSE;
                }
            } catch (SocketTimeoutException | java.net.SocketException e) {
                return Next.CLOSE;
            } finally {
                input.usePerReadTimeout(context.bodyReadMillis);
            }
        }
    }

    private boolean readPreface(ConnectionInput input, long deadline) throws IOException {
        input.useDeadline(deadline);
        while (true) {
            switch (Http2Preface.read(input.buffer())) {
                case COMPLETE -> {
                    prefaceRead = true;
                    return true;
                }
                case MISMATCH -> {
                    return false;
                }
                case PARTIAL -> {
                    try {
                        if (input.fill() < 0) {
                            return false;
                        }
                    } catch (SocketTimeoutException e) {
                        return false;
                    }
                }
            }
        }
    }

    /** Our SETTINGS (the first frame we send), and the connection window above the RFC's 65 535. */
    private void sendSettings() throws IOException {
        settingsSent = true;
        Http2Settings local = limits.announceIn(Http2Settings.DEFAULTS)
                .with(Http2Settings.MAX_CONCURRENT_STREAMS, options.maxConcurrentStreams())
                .with(Http2Settings.INITIAL_WINDOW_SIZE, options.initialWindowSize())
                .with(Http2Settings.ENABLE_PUSH, 0);
        writer.frames(OpeningFrames.of(local, options.connectionWindowSize()));
    }

    // ---- lifecycle ----

    /**
     * How long a park may last: until the goodbye's next step (the rest of the linger or of a drain's PING wait; 0
     * when the connection must now close), else, with streams open, one idle timeout, after which the connection
     * looks again ({@link #parkedEnd}): their handlers may end without a read, and the last one's write re-parks
     * with the reader's deadline, so no park can be allowed to last for ever. Without streams, what is left of the
     * idle timeout since the last stream ended.
     */
    @Override
    public long idleTimeoutNanos() {
        long goodbyeStep = goodbye.nanosUntilNextStep();
        if (goodbyeStep >= 0) {
            return goodbyeStep;
        }
        if (streams.active() > 0) {
            return context.idleNanos;
        }
        return Math.max(0, lastStreamActivityNanos + context.idleNanos - context.now());
    }

    /**
     * A parked connection was handed back at its deadline or for shutdown: take the goodbye's next step. The reader
     * then serves on (to read the client's last frames, or to linger), unless the linger is over.
     */
    @Override
    public boolean parkedEnd(ServerConnection.End reason) {
        if (reason == ServerConnection.End.SHUTDOWN) {
            goodbye.drain(); // normally sent already by shutdown(); a connection parked since then lands here
            return true;
        }
        if (goodbye.phase() == Goodbye.Phase.LINGERING) {
            return !goodbye.lingerOver();
        }
        if (idleTimedOut()) {
            goodbye.goAway(Http2ErrorCode.NO_ERROR, "idle");
        }
        goodbye.drainWaitOver();
        goodbye.lingerIfDone();
        return true;
    }

    /** Idle timeout (Go's and Jetty's meaning for HTTP/2): no stream for a whole idle timeout. */
    private boolean idleTimedOut() {
        return streams.active() == 0 && context.now() - lastStreamActivityNanos >= context.idleNanos;
    }

    /** Graceful shutdown: the first GOAWAY and its PING; the reader takes the next steps. */
    @Override
    public void shutdown() {
        goodbye.drain();
    }

    @Override
    public HttpVersion version() {
        return HttpVersion.HTTP_2;
    }

    /** The writer's lock or the goodbye's: the connection's listener events wait until the thread lets go. */
    @Override
    public boolean lockedByCurrentThread() {
        return writer.lockedByCurrentThread() || goodbye.lockedByCurrentThread();
    }

    /** Streams whose handlers still run or wait, or a goodbye under way: the session closes the connection itself. */
    @Override
    public boolean hasUnfinishedWork() {
        return streams.active() > 0 || goodbye.inProgress();
    }

    @Override
    public void closed() {
        streams.endAll();
    }
}
