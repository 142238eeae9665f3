package dev.shuttle.server.http2;

import dev.shuttle.server.Http2Options;
import dev.shuttle.server.core.KeepAliveTurn;
import dev.shuttle.server.core.KeepAliveTurns;
import dev.shuttle.server.core.LogText;
import dev.shuttle.server.core.ProtocolSession;
import dev.shuttle.server.core.ServerConnection;
import dev.shuttle.server.core.ServerContext;
import dev.shuttle.server.io.ConnectionInput;
import dev.shuttle.wire.hpack.HpackDecoder;
import dev.shuttle.wire.HttpVersion;
import dev.shuttle.wire.http2.DataFrame;
import dev.shuttle.wire.http2.GoAwayFrame;
import dev.shuttle.wire.http2.HeaderBlockAssembler;
import dev.shuttle.wire.http2.HeadersFrame;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Exception;
import dev.shuttle.wire.http2.Http2FieldCollector;
import dev.shuttle.wire.http2.Http2Frame;
import dev.shuttle.wire.http2.Http2FrameReader;
import dev.shuttle.wire.http2.Http2Limits;
import dev.shuttle.wire.http2.Http2Preface;
import dev.shuttle.wire.http2.Http2RequestHead;
import dev.shuttle.wire.http2.Http2Settings;
import dev.shuttle.wire.http2.PingFrame;
import dev.shuttle.wire.http2.PriorityFrame;
import dev.shuttle.wire.http2.PushPromiseFrame;
import dev.shuttle.wire.http2.RstStreamFrame;
import dev.shuttle.wire.http2.SettingsFrame;
import dev.shuttle.wire.http2.WindowUpdateFrame;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * HTTP/2 on one server connection (RFC 9113): the reader, which runs on the connection's thread, checks and dispatches
 * every frame, and starts a virtual thread per request stream, which runs the handler and writes its response through
 * the {@link Http2Writer}.
 *
 * <p>Parking: when the reader finds nothing to read, even after a few scheduler turns, it moves the connection to
 * IDLE and returns {@link Next#PARK}: the connection gives back its buffers and waits in the watcher without a thread,
 * whatever its open streams do. Handler threads are their own; their writes go through the connection's park gate, so
 * a write to a parked connection takes it back and parks it again after (see {@link ServerConnection#beginWrite}).
 * Client frames wake it through readiness. While the server shuts down it cannot park: with streams open, the reader
 * then blocks in reads until they end.
 *
 * <p>Threads: the fields marked "reader" belong to the connection's current reading thread; the streams, the writer
 * and the GOAWAY flags are shared and guard themselves.
 */
public final class Http2Session extends KeepAliveTurns implements ProtocolSession {
    private static final System.Logger LOG = System.getLogger(Http2Session.class.getName());
    private static final long NONE = Long.MIN_VALUE;

    private final ServerConnection connection;
    private final ServerContext context;
    private final Http2Options options;
    private final Http2Limits limits = Http2Limits.serverDefaults();
    private final Http2Writer writer;
    private final Http2Streams streams;
    private final HandlerSlots handlerSlots;
    private final Goodbye goodbye;
    private final long writeTimeoutNanos;
    private final long bodyReadNanos;

    // reader
    private final Http2FrameReader reader;
    private final HeaderBlockAssembler blocks;
    private final HpackDecoder decoder;
    private Http2Settings peerSettings = Http2Settings.DEFAULTS;
    private boolean prefaceRead;
    private boolean settingsSent;
    private final AbuseBudgets budgets;
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
        this(connection, options, KeepAliveTurn.YIELD);
    }

    public Http2Session(ServerConnection connection, Http2Options options, KeepAliveTurn turn) {
        super(turn);
        this.connection = connection;
        this.context = connection.context();
        this.options = options;
        this.writer = new Http2Writer(connection, context.buffers);
        this.streams = new Http2Streams(options.initialWindowSize(), options.connectionWindowSize(),
                context::streams);
        this.handlerSlots = new HandlerSlots(options.maxConcurrentStreams());
        this.goodbye = new Goodbye(writer, streams, context::now, connection);
        this.writeTimeoutNanos = context.timeouts.write().toNanos();
        this.bodyReadNanos = context.timeouts.bodyRead().toNanos();
        this.reader = new Http2FrameReader(limits.maxFrameSize());
        this.blocks = new HeaderBlockAssembler(limits);
        this.decoder = new HpackDecoder(limits);
        this.lastStreamActivityNanos = context.now();
        this.budgets = new AbuseBudgets(options);
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
        peerSettings = clientSettings;
        writer.peerSettings(clientSettings);
        sendSettings();
        Http2Stream stream = streams.open(1);
        streams.peerInitialWindow(clientSettings.initialWindowSize());
        stream.declaredLength = 0;
        streams.remoteEnded(stream);
        try {
            startHandler(stream, request);
        } catch (Http2Exception e) {
            throw new IllegalStateException("the first stream found no handler slot", e);
        }
    }

    // ---- reader ----

    @Override
    public Next serve(long headDeadline) throws IOException {
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
                        dispatch(frame);
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
                        resetProvoked(e.streamId(), e.error());
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
            // Parking off (or impossible while the server shuts down): wait in a read, as thread-per-connection
            // servers do; the idle timeout applies only to a connection without open streams.
            return awaitInRead(input);
        }
        n = lookForNextBytes(connection);
        if (n != 0) {
            return n < 0 ? Next.CLOSE : null;
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
        List<SettingsFrame.Setting> settings = new ArrayList<>(4);
        settings.add(new SettingsFrame.Setting(Http2Settings.MAX_CONCURRENT_STREAMS, options.maxConcurrentStreams()));
        settings.add(new SettingsFrame.Setting(Http2Settings.INITIAL_WINDOW_SIZE, options.initialWindowSize()));
        settings.add(new SettingsFrame.Setting(Http2Settings.MAX_HEADER_LIST_SIZE, limits.maxHeaderListSize()));
        settings.add(new SettingsFrame.Setting(Http2Settings.ENABLE_PUSH, 0));
        List<Http2Frame> frames = new ArrayList<>(2);
        frames.add(SettingsFrame.of(settings));
        int extra = options.connectionWindowSize() - Http2Settings.DEFAULT_INITIAL_WINDOW_SIZE;
        if (extra > 0) {
            frames.add(new WindowUpdateFrame(0, extra));
        }
        writer.frames(frames);
    }

    private void dispatch(Http2Frame frame) throws IOException {
        switch (frame) {
            case DataFrame data -> data(data);
            case HeadersFrame headers -> headers(headers);
            case SettingsFrame settings -> settings(settings);
            case PingFrame ping -> {
                if (ping.ack()) {
                    goodbye.pingAcknowledged(ping.opaqueData());
                } else {
                    if (!writer.takeResponseActivity()) {
                        budgets.controlFrame(context.now()); // a PING beside responses checks on them: free
                    }
                    writer.frame(new PingFrame(ping.opaqueData(), true));
                }
            }
            case WindowUpdateFrame update -> {
                if (!streams.windowUpdate(update.streamId(), update.increment())) {
                    budgets.controlFrame(context.now()); // grows a window past what we sent: rare, unless a flood
                }
            }
            case RstStreamFrame reset -> {
                if (streams.isIdle(reset.streamId())) {
                    throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR,
                            "RST_STREAM on idle stream " + reset.streamId());
                }
                // A client cancels what it no longer wants: free, unless the reset came in the very read that opened
                // the stream (the rapid-reset pattern, CVE-2023-44487: no client waits for nothing). Either way its
                // handler keeps its slot until it returns, which is what bounds the work (HandlerSlots).
                Http2Stream target = streams.get(reset.streamId());
                if (target != null && target.openedInRead == reads) {
                    budgets.rapidReset(context.now());
                }
                creditConnection(streams.reset(reset.streamId(), reset.error(), true));
            }
            case GoAwayFrame goAway -> {
                goodbye.clientGoAway();
                goodbye.lingerIfDone();
            }
            case PushPromiseFrame push -> throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR,
                    "a client must not send PUSH_PROMISE");
            case PriorityFrame priority -> {
                // parsed and checked by the reader; ignored, as RFC 9113 deprecates the scheme, but not free
                budgets.controlFrame(context.now());
            }
            default -> {
                // unknown frame types (and extensions) are ignored
            }
        }
    }

    private void settings(SettingsFrame frame) throws IOException {
        if (frame.ack()) {
            return;
        }
        budgets.controlFrame(context.now());
        Http2Settings previous = peerSettings;
        Http2Settings next = previous.apply(frame);
        peerSettings = next;
        writer.acknowledgeSettings(next, () -> {
            if (next.initialWindowSize() != previous.initialWindowSize()) {
                streams.peerInitialWindow(next.initialWindowSize());
            }
        });
    }

    private void data(DataFrame frame) throws IOException {
        int streamId = frame.streamId();
        if (!frame.endStream() && frame.data().remaining() == 0) {
            budgets.controlFrame(context.now()); // carries nothing, ends nothing (CVE-2019-9518)
        }
        try {
            creditConnection(streams.dataReceived(streamId, frame.data(), frame.flowControlledLength(),
                    frame.endStream()));
        } catch (Http2Exception e) {
            if (e.isConnectionError()) {
                throw e;
            }
            resetProvoked(streamId, e.error());
        }
    }

    private void headers(HeadersFrame frame) throws IOException {
        int id = frame.streamId();
        if (id % 2 == 0) {
            throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR, "even stream id " + id
                    + " from a client");
        }
        if (!streams.isIdle(id)) {
            trailers(frame);
            return;
        }
        // The block is decoded even for a stream that is refused: the HPACK tables must stay in step.
        Http2FieldCollector fields = Http2FieldCollector.forRequest(id);
        boolean fits = decoder.decode(frame.fragment(), fields::field);
        boolean goingAway = goodbye.refusesNewStreams();
        if (goingAway || streams.open() >= options.maxConcurrentStreams()) {
            streams.refuse(id);
            if (!goingAway) {
                // A client past the limit it was told (our SETTINGS may not have reached it yet): refusing it must
                // not become a free loop.
                budgets.provokedReset(context.now());
            }
            writer.frame(new RstStreamFrame(id, Http2ErrorCode.REFUSED_STREAM));
            return;
        }
        Http2Stream stream = streams.open(id);
        stream.openedInRead = reads;
        lastStreamActivityNanos = context.now();
        if (!fits) {
            budgets.provokedReset(context.now());
            respondWithError(stream, frame.endStream(), 431, "request header fields too large");
            return;
        }
        Http2RequestHead head;
        long declared;
        try {
            head = fields.request();
            declared = declaredLength(id, head, frame.endStream());
        } catch (Http2Exception e) {
            streams.handlerDone(stream);
            resetProvoked(id, e.error());
            return;
        }
        stream.declaredLength = declared;
        if (frame.endStream()) {
            streams.remoteEnded(stream);
        }
        connection.requestStarted();
        if (declared > context.limits.maxRequestBodyBytes()) {
            respondWithError(stream, frame.endStream(), 413, "request body of " + declared
                    + " bytes exceeds the limit of " + context.limits.maxRequestBodyBytes());
            return;
        }
        startHandler(stream, head);
    }

    /** Runs the stream's handler on a virtual thread of its own, now or once a handler slot is free. */
    private void startHandler(Http2Stream stream, Http2RequestHead head) throws Http2Exception {
        handlerSlots.admit(() -> Thread.ofVirtual().name("shuttle-h2-" + connection.id() + "-" + stream.id)
                .start(() -> runHandler(stream, head)));
    }

    private static long declaredLength(int id, Http2RequestHead head, boolean endStream) throws Http2Exception {
        String value = head.headers().first("content-length");
        long declared = -1;
        if (value != null) {
            try {
                declared = Long.parseLong(value.strip());
            } catch (NumberFormatException e) {
                declared = -2;
            }
            if (declared < 0) {
                throw Http2Exception.streamError(id, Http2ErrorCode.PROTOCOL_ERROR, "invalid content-length " + value);
            }
        }
        if (endStream) {
            if (declared > 0) {
                throw Http2Exception.streamError(id, Http2ErrorCode.PROTOCOL_ERROR,
                        "content-length " + declared + " on a request without a body");
            }
            return 0;
        }
        return declared;
    }

    /** HEADERS on an open stream: its trailers, which must end it. */
    private void trailers(HeadersFrame frame) throws IOException {
        int id = frame.streamId();
        Http2FieldCollector fields = Http2FieldCollector.forTrailers(id);
        boolean fits = decoder.decode(frame.fragment(), fields::field);
        Http2Stream stream = streams.get(id);
        if (stream == null && streams.wasResetByUs(id)) {
            return; // sent before the client saw our reset (decoded above: the HPACK tables stay in step)
        }
        if (stream == null && streams.wasSkipped(id)) {
            throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR, "HEADERS on stream " + id
                    + ", lower than one the client opened after it");
        }
        if (stream == null) {
            throw Http2Exception.connectionError(Http2ErrorCode.STREAM_CLOSED, "HEADERS on closed stream " + id);
        }
        if (stream.reset != null) {
            if (stream.resetByPeer) {
                resetProvoked(id, Http2ErrorCode.STREAM_CLOSED);
            }
            return;
        }
        if (streams.isClosed(stream)) {
            // Both sides ended it: closed, whatever its handler still does (RFC 9113 5.1).
            throw Http2Exception.connectionError(Http2ErrorCode.STREAM_CLOSED, "HEADERS on closed stream " + id);
        }
        if (streams.remoteHasEnded(stream)) {
            resetProvoked(id, Http2ErrorCode.STREAM_CLOSED); // half-closed (remote)
            return;
        }
        if (!frame.endStream() || !fits) {
            resetProvoked(id, Http2ErrorCode.PROTOCOL_ERROR);
            return;
        }
        try {
            streams.trailersReceived(stream, fields.trailers());
        } catch (Http2Exception e) {
            resetProvoked(id, e.error());
        }
    }

    // ---- handler threads ----

    private void runHandler(Http2Stream stream, Http2RequestHead head) {
        Http2RequestBody body = new Http2RequestBody(this, stream, context.limits.maxRequestBodyBytes(),
                bodyReadNanos);
        Http2Request request = new Http2Request(head, body, connection);
        Http2Response response = new Http2Response(this, stream, "HEAD".equals(head.method()));
        try {
            if (stream.reset == null) { // a stream reset while it waited for a slot is not served
                context.handler.handle(request, response);
                response.finish();
            }
        } catch (Throwable t) {
            handlerFailed(stream, request, response, body, t);
        } finally {
            Thread.interrupted(); // an interrupt left behind must not reach the next blocking call of this thread
            boolean unfinished = streams.handlerDone(stream);
            lastStreamActivityNanos = context.now();
            handlerSlots.release();
            handled(stream, unfinished);
            // No re-park here when this was the last stream: a park with streams open lasts one idle timeout and
            // then looks again (parkedEnd), which costs nothing per request, where taking the channel back from the
            // watcher after every last stream would cost a wake-up each.
        }
    }

    private void handlerFailed(Http2Stream stream, Http2Request request, Http2Response response,
                               Http2RequestBody body, Throwable failure) {
        IOException bodyFailure = body.failure();
        if (stream.reset != null) {
            LOG.log(Level.DEBUG, "stream {0} of connection {1} reset while its handler ran: {2}", stream.id,
                    connection.id(), failure.toString());
            return;
        }
        if (response.isCommitted()) {
            Level level = failure instanceof IOException ? Level.DEBUG : Level.WARNING;
            LOG.log(level, "connection " + connection.id() + " stream " + stream.id + ": handler failed after"
                    + " committing the response to " + request + "; resetting the stream", failure);
            resetStream(stream.id, Http2ErrorCode.INTERNAL_ERROR);
            return;
        }
        int status = 500;
        if (bodyFailure != null && causedBy(failure, bodyFailure)) {
            status = bodyFailure instanceof dev.shuttle.wire.http1.Http1Exception http1 ? http1.status()
                    : bodyFailure instanceof SocketTimeoutException ? 408 : 400;
        } else {
            LOG.log(Level.WARNING, "handler failed on " + request, failure);
        }
        respondWithError(stream, streams.remoteHasEnded(stream), status, null);
    }

    private static boolean causedBy(Throwable failure, Throwable cause) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t == cause) {
                return true;
            }
        }
        return false;
    }

    /** Answers a stream with an error status and a short text, without (or instead of) its handler. */
    private void respondWithError(Http2Stream stream, boolean remoteEnded, int status, String detail) {
        Http2Response error = new Http2Response(this, stream, false);
        try {
            error.status(status);
            error.send(status + " " + dev.shuttle.server.core.StatusText.reason(status)
                    + (detail == null ? "" : ": " + detail) + "\n");
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.DEBUG, "stream {0}: error response not sent: {1}", stream.id, e.toString());
        }
        handled(stream, !stream.handlerDone && streams.handlerDone(stream) && !remoteEnded);
    }

    /**
     * The stream's handler (or error response) is done: an upload it left unfinished is reset with NO_ERROR (which
     * also returns what was buffered), else the connection window credit of a body it left unread goes back
     * ({@link Http2Streams#handlerDone}); then the connection may close.
     */
    private void handled(Http2Stream stream, boolean unfinished) {
        if (unfinished) {
            resetStream(stream.id, Http2ErrorCode.NO_ERROR);
        } else {
            try {
                creditConnection(streams.takeOwedCredit());
            } catch (IOException e) {
                LOG.log(Level.DEBUG, "connection {0}: WINDOW_UPDATE not sent: {1}", connection.id(), e.toString());
            }
        }
        closeIfFinished();
    }

    /**
     * After a GOAWAY (ours or the client's), the last stream to finish half-closes the connection, and a reader comes
     * to read until the client closes ({@link Goodbye}).
     */
    private void closeIfFinished() {
        if (goodbye.lingerIfDone()) {
            connection.requestReader();
        }
    }

    // ---- for responses and request bodies, on handler threads ----

    void sendHeaders(Http2Stream stream, List<String> fields, boolean endStream) throws IOException {
        checkNotReset(stream);
        if (endStream) {
            // Recorded before the frame goes out: a client that answers END_STREAM at once (h2spec 5.1.12 sends
            // HEADERS again) must find the stream closed, not half-closed, when the reader gets there.
            streams.localEnded(stream);
        }
        writer.headers(stream.id, fields, endStream);
    }

    /**
     * A whole small response: head and body in one write when the flow-control windows hold the body now, else head,
     * then body as {@link #sendData} sends it.
     */
    void sendHeadersAndData(Http2Stream stream, List<String> fields, byte[] bytes, int offset, int length)
            throws IOException {
        checkNotReset(stream);
        if (length <= Http2Writer.MAX_DATA_FRAME && streams.tryTakeSendWindow(stream, length) == length) {
                streams.localEnded(stream); // before the frames, as in sendHeaders
            writer.headersAndData(stream.id, fields, bytes, offset, length);
            return;
        }
        sendHeaders(stream, fields, false);
        sendData(stream, bytes, offset, length, true);
    }

    void sendTrailers(Http2Stream stream, List<String> fields) throws IOException {
        sendHeaders(stream, fields, true);
    }

    /** Body bytes as DATA frames within the flow-control windows; END_STREAM on the last frame when {@code end}. */
    void sendData(Http2Stream stream, byte[] bytes, int offset, int length, boolean end) throws IOException {
        checkNotReset(stream);
        if (length == 0) {
            if (end) {
                streams.localEnded(stream); // before the frame, as in sendHeaders
                writer.data(stream.id, bytes, offset, 0, true);
            }
            return;
        }
        while (length > 0) {
            int granted = streams.takeSendWindow(stream, Math.min(length, Http2Writer.MAX_DATA_FRAME),
                    writeTimeoutNanos);
            boolean last = end && granted == length;
            if (last) {
                streams.localEnded(stream); // before the frame, as in sendHeaders
            }
            writer.data(stream.id, bytes, offset, granted, last);
            offset += granted;
            length -= granted;
        }
    }

    boolean localEnded(Http2Stream stream) {
        return streams.localHasEnded(stream);
    }

    private void checkNotReset(Http2Stream stream) throws IOException {
        if (stream.reset != null) {
            throw new IOException("stream " + stream.id + " was reset: " + stream.reset);
        }
    }

    /**
     * A reset the client's frames made us send (a stream error): it counts against the same budget as the client's
     * own RST_STREAM, or the client could reset streams for free by making us do it (MadeYouReset).
     */
    private void resetProvoked(int streamId, Http2ErrorCode code) throws Http2Exception {
        budgets.provokedReset(context.now());
        resetStream(streamId, code);
    }

    /** Resets the stream from our side with INTERNAL_ERROR (a response that broke its own length). */
    void resetStream(Http2Stream stream) {
        resetStream(stream.id, Http2ErrorCode.INTERNAL_ERROR);
    }

    void resetStream(int streamId, Http2ErrorCode code) {
        int credit = streams.reset(streamId, code, false) + streams.takeOwedCredit();
        try {
            writer.frame(new RstStreamFrame(streamId, code));
            creditConnection(credit);
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "connection {0}: RST_STREAM not sent: {1}", connection.id(), e.toString());
        }
    }

    void sendWindowUpdates(int streamId, int streamIncrement, int connectionIncrement) throws IOException {
        if (streamIncrement > 0 && connectionIncrement > 0) {
            writer.frames(List.of(new WindowUpdateFrame(streamId, streamIncrement),
                    new WindowUpdateFrame(0, connectionIncrement)));
        } else if (streamIncrement > 0) {
            writer.frame(new WindowUpdateFrame(streamId, streamIncrement));
        } else if (connectionIncrement > 0) {
            writer.frame(new WindowUpdateFrame(0, connectionIncrement));
        }
    }

    private void creditConnection(int increment) throws IOException {
        if (increment > 0) {
            writer.frame(new WindowUpdateFrame(0, increment));
        }
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
