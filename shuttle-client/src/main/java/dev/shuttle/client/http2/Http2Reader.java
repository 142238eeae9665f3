package dev.shuttle.client.http2;

import dev.shuttle.client.ResponseLimits;
import dev.shuttle.transport.ReadinessWatcher;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.hpack.HpackDecoder;
import dev.shuttle.wire.http2.DataFrame;
import dev.shuttle.wire.http2.GoAwayFrame;
import dev.shuttle.wire.http2.HeaderBlockAssembler;
import dev.shuttle.wire.http2.HeadersFrame;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Exception;
import dev.shuttle.wire.http2.Http2FieldCollector;
import dev.shuttle.wire.http2.Http2Frame;
import dev.shuttle.wire.http2.Http2FrameReader;
import dev.shuttle.wire.http2.Http2ResponseHead;
import dev.shuttle.wire.http2.Http2Settings;
import dev.shuttle.wire.http2.PingFrame;
import dev.shuttle.wire.http2.PushPromiseFrame;
import dev.shuttle.wire.http2.RstStreamFrame;
import dev.shuttle.wire.http2.SendWindows;
import dev.shuttle.wire.http2.SettingsFrame;
import dev.shuttle.wire.http2.WindowUpdateFrame;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The read side of an {@link Http2Connection}: reads frames and delivers them to streams, answers SETTINGS and PING,
 * applies WINDOW_UPDATE and GOAWAY. {@link #run} is the body of the connection's reader thread, which exists only
 * while the connection has work; everything here is owned by that thread (one at a time: the connection starts a
 * reader only when none runs). Stream state is changed under the connection's lock.
 *
 * <p>Buffers: a pooled 17 KiB read buffer while running (a whole frame of the default maximum size fits); when it
 * stops, a partial frame is kept in {@link #carry}, an array of its exact size, and the buffer goes back, as the
 * TLS layer does with a partial record.
 *
 * <p>Lingering: when nothing is left to wait for, the reader does not stop at once but reads for {@link #LINGER_NANOS}
 * more. A connection whose callers keep coming back (a closed loop of requests, where every stream may be answered
 * before the next one opens) then never parks between them: parking costs a watcher registration and a selector
 * wake-up, taking it back another wake-up and a new reader thread, tens of microseconds each time, and all of it
 * on the path of the next request.
 */
final class Http2Reader {
    /**
     * How long a reader with nothing to wait for reads on before the connection parks: 50 ms. A park and the unpark
     * after it cost some tens of microseconds, so a connection used less often than this pays under 0.1% for
     * parking; one used in a loop never parks, even when its callers are starved of CPU for a while. Measured with
     * 32 connections of 4 streams each in a closed loop on a loaded 2-core machine, over 6 s: 6 400 parks with
     * 10 ms, 1 600 with 50 ms, 850 with 100 ms (23 000 without lingering). Its price: a connection holds a thread
     * and its read buffer for 50 ms after its last stream, so a client whose connections each serve a request every
     * few seconds still has nearly all of them parked.
     */
    static final long LINGER_NANOS = 50_000_000;

    private final Http2Connection connection;
    private final Http2FrameReader frames;
    private final HeaderBlockAssembler blocks;
    private final HpackDecoder decoder;
    private final ResponseLimits limits;

    /** Reader thread only. Null while stopped. */
    private ByteBuffer buffer;
    /** A partial frame kept while stopped, or null. */
    private byte[] carry;
    /** The server's first frame (its SETTINGS) arrived. */
    private boolean prefaceSeen;
    /** A PING of ours waits for its ACK. */
    private boolean pingOutstanding;
    private long pingPayload;
    /** When the reader, having nothing to wait for, stops lingering ({@link #LINGER_NANOS}); 0 when not lingering. */
    private long lingerEnd;
    /** The linger ran out without anything to read: the next quiet moment stops the reader. */
    private boolean lingered;
    /**
     * Streams whose callers are woken once the frames read so far are handled ({@link #wakeLocked}). Guarded by the
     * connection's lock, and touched only by the running reader: one that stopped may already have a successor
     * marking streams here.
     */
    private final ArrayList<Http2Stream> toWake = new ArrayList<>();

    /** Points where a test holds a reader thread ({@link #stageHook}). */
    enum Stage {
        /** A frame was handled: its stream may be marked to wake, not woken yet. */
        FRAME_HANDLED,
        /** The reader stopped and its buffers went back: a new reader may run on this object already. */
        STOPPED,
        /** A failed reader woke the callers of the streams its last frames changed, and let go of the lock. */
        WOKEN
    }

    /** Tests only, null otherwise: runs on the reader thread at each {@link Stage}. */
    volatile Consumer<Stage> stageHook;

    Http2Reader(Http2Connection connection) {
        this.connection = connection;
        this.frames = new Http2FrameReader(connection.options.limits().maxFrameSize());
        this.blocks = new HeaderBlockAssembler(connection.options.limits());
        this.decoder = new HpackDecoder(connection.options.limits());
        this.limits = connection.options.responseLimits();
    }

    /** The reader thread's body: {@code wake} is why it starts (null: a stream opened, or the connection is new). */
    void run(ReadinessWatcher.Wake wake) {
        take();
        boolean stopped = false;
        try {
            if (wake == ReadinessWatcher.Wake.DEADLINE) {
                ping();
            } else if (wake == ReadinessWatcher.Wake.READABLE) {
                fillNow(); // what woke us, read before anything decides to park again (readiness is level-triggered)
            }
            loop();
            // Stopped: the buffers went back before the connection learned it, so a reader started right after
            // may own them (and this object) already; this thread must not touch them again.
            stopped = true;
            stage(Stage.STOPPED);
        } catch (Http2Exception e) {
            connection.parking.readerFailed(e, e.error());
        } catch (EOFException e) {
            connection.parking.readerFailed(e, null);
        } catch (IOException e) {
            connection.parking.readerFailed(new IOException("reading from " + connection.origin() + " failed: "
                    + e.getMessage(), e), null);
        } catch (RuntimeException e) {
            connection.parking.readerFailed(new IOException("HTTP/2 reader failed", e), Http2ErrorCode.INTERNAL_ERROR);
        } finally {
            if (!stopped) {
                // Failed: the connection is closed, no other reader can start, so this one still owns its state.
                wakeAll(); // streams completed by frames handled before the failure: their callers must not miss it
                give();
            }
        }
    }

    private void stage(Stage stage) {
        Consumer<Stage> hook = stageHook;
        if (hook != null) {
            hook.accept(stage);
        }
    }

    private void loop() throws IOException {
        while (true) {
            Http2Frame frame;
            if (!prefaceSeen) {
                Http1Answer.check(buffer);
            }
            try {
                frame = frames.read(buffer);
            } catch (Http2Exception e) {
                if (e.isConnectionError()) {
                    throw e;
                }
                streamError(e.streamId(), e.error(), e.getMessage());
                continue;
            }
            if (frame != null) {
                Http2Frame whole = blocks.accept(frame);
                if (whole != null) {
                    handle(whole);
                    stage(Stage.FRAME_HANDLED);
                }
                continue;
            }
            switch (next()) { // wakes the callers of what was handled first
                case STOP -> {
                    return;
                }
                case LINGER -> linger();
                case READ -> fill();
            }
        }
    }

    /**
     * Marks {@code stream}'s caller to be woken once every frame already read is handled, rather than at once: a
     * response's HEADERS and DATA usually arrive in one read, and a caller woken by the HEADERS would find its body
     * not there yet and wait again, or wake only to wait for the lock the reader takes for the next frame.
     */
    private void wakeLocked(Http2Stream stream) {
        if (!stream.wakePending) {
            stream.wakePending = true;
            toWake.add(stream);
        }
    }

    /** Wakes the callers of the streams marked since the last read. */
    private void wakeAllLocked() {
        assert connection.lock.isHeldByCurrentThread();
        for (int i = 0; i < toWake.size(); i++) {
            Http2Stream stream = toWake.get(i);
            stream.wakePending = false;
            stream.changed.signalAll();
        }
        toWake.clear();
    }

    private void wakeAll() {
        connection.lock.lock();
        try {
            wakeAllLocked();
        } finally {
            connection.lock.unlock();
        }
        stage(Stage.WOKEN);
    }

    /** What the loop does when no complete frame is buffered. */
    private enum Next { READ, LINGER, STOP }

    /**
     * Wakes the callers of the streams marked (in the same hold of the lock as the decision); then stops when nothing
     * is open or half-read and the linger ran out (see {@link #mayStop}); lingers when nothing is open or half-read;
     * reads otherwise.
     */
    private Next next() {
        connection.lock.lock();
        try {
            wakeAllLocked();
            if (!quietLocked()) {
                lingerEnd = 0;
                lingered = false;
                // Read on. Marked under the lock that closes streams, so a reset of the last stream sees it and
                // wakes this read with a PING (see Http2Connection.closeLocked).
                connection.streams.readerBlockedLocked(true);
                return Next.READ;
            }
            if (!lingered) {
                return Next.LINGER; // not marked blocked: the linger's read ends by itself, no PING needed
            }
        } finally {
            connection.lock.unlock();
        }
        lingered = false;
        lingerEnd = 0;
        return mayStop() ? Next.STOP : Next.READ;
    }

    /** Nothing open, nothing half-read, no PING outstanding, no input held by the transport. */
    private boolean quietLocked() {
        return connection.streams.quietLocked() && !pingOutstanding && !blocks.inProgress() && prefaceSeen
                && !connection.transport.hasBufferedInput();
    }

    /** Reads for what is left of the linger; when it runs out with nothing read, the next quiet moment stops. */
    private void linger() throws IOException {
        long now = connection.clock.getAsLong();
        if (lingerEnd == 0) {
            lingerEnd = now + LINGER_NANOS;
        }
        long left = lingerEnd - now;
        if (left <= 0) {
            lingered = true;
            return;
        }
        buffer.compact();
        int n;
        try {
            n = connection.transport.read(buffer, (int) ((left + 999_999) / 1_000_000));
        } catch (SocketTimeoutException e) {
            lingered = true;
            return;
        } finally {
            buffer.flip();
        }
        if (n < 0) {
            throw new EOFException("the server closed the HTTP/2 connection");
        }
    }

    /** Reads more bytes, waiting at most until a PING is due (or its ACK overdue). */
    private void fill() throws IOException {
        long timeout = pingOutstanding ? connection.options.pingTimeoutMillis()
                : connection.options.pingIntervalMillis();
        buffer.compact();
        int n;
        try {
            n = connection.transport.read(buffer, (int) Math.min(Integer.MAX_VALUE, timeout));
        } catch (SocketTimeoutException e) {
            if (pingOutstanding) {
                throw new IOException("the server did not answer a PING within " + timeout + " ms");
            }
            ping();
            return;
        } finally {
            buffer.flip();
            connection.lock.lock();
            try {
                connection.streams.readerBlockedLocked(false);
            } finally {
                connection.lock.unlock();
            }
        }
        if (n < 0) {
            throw new EOFException("the server closed the HTTP/2 connection");
        }
    }

    /**
     * One read without waiting: readiness may have been a TLS record without application bytes, and a blocking read
     * would then hold this thread on an idle connection.
     */
    private void fillNow() throws IOException {
        buffer.compact();
        int n;
        try {
            n = connection.transport.readNow(buffer);
            if (n == 0 && connection.transport.isSharedWithWriters()) {
                n = tellEndFromNothing();
            }
        } finally {
            buffer.flip();
        }
        if (n < 0) {
            throw new EOFException("the server closed the HTTP/2 connection");
        }
    }

    /**
     * Readiness, yet nothing to read: the transport's non-blocking read cannot see the end of the stream while
     * writers share the channel ({@code Transport.shareWithWriters}), so a 1 ms blocking read tells a server that
     * closed (-1) from a wake-up without application bytes (0), as the server does. Otherwise a closed connection
     * would be woken, find nothing and park again, for ever. Only this rare path pays for it.
     */
    private int tellEndFromNothing() throws IOException {
        try {
            return connection.transport.read(buffer, 1);
        } catch (SocketTimeoutException e) {
            return 0;
        }
    }

    /**
     * Stops when nothing is open or half-read: saves a partial frame, gives the buffers back and lets the connection
     * park. Returns false (buffers taken again) when a stream opened meanwhile.
     */
    private boolean mayStop() {
        connection.lock.lock();
        try {
            if (!quietLocked()) {
                connection.streams.readerBlockedLocked(true); // as in next()
                return false;
            }
        } finally {
            connection.lock.unlock();
        }
        give();
        connection.transport.releaseBuffers();
        if (connection.parking.readerStopping()) {
            return true;
        }
        take();
        return false;
    }

    private void take() {
        buffer = connection.buffers.acquireEmpty();
        if (carry != null) {
            buffer.clear();
            buffer.put(carry).flip();
            carry = null;
        }
    }

    private void give() {
        if (buffer != null) {
            if (buffer.hasRemaining()) {
                carry = new byte[buffer.remaining()];
                buffer.get(carry);
            }
            connection.buffers.release(buffer);
            buffer = null;
        }
    }

    private void ping() {
        pingOutstanding = true;
        pingPayload = connection.clock.getAsLong();
        connection.lock.lock();
        try {
            connection.writer.enqueueLocked(new Http2Writer.ControlOut(new PingFrame(pingPayload, false), false));
        } finally {
            connection.lock.unlock();
        }
    }

    private void handle(Http2Frame frame) throws IOException {
        if (!prefaceSeen) {
            if (!(frame instanceof SettingsFrame settings) || settings.ack()) {
                throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR,
                        "the server's first frame must be SETTINGS, got type " + frame.type());
            }
            prefaceSeen = true;
        }
        pingOutstanding &= !(frame instanceof PingFrame ping && ping.ack() && ping.opaqueData() == pingPayload);
        switch (frame) {
            case DataFrame data -> onData(data);
            case HeadersFrame headers -> onHeaders(headers);
            case RstStreamFrame reset -> onReset(reset);
            case SettingsFrame settings -> onSettings(settings);
            case PingFrame ping -> onPing(ping);
            case GoAwayFrame goAway -> connection.goAway(goAway.lastStreamId(), new IOException(
                    "server sent GOAWAY (" + goAway.error() + ") before processing this request"
                            + (goAway.debugText().isEmpty() ? "" : ": " + goAway.debugText())));
            case WindowUpdateFrame update -> onWindowUpdate(update);
            case PushPromiseFrame push -> throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR,
                    "PUSH_PROMISE on stream " + push.streamId() + ", but push is disabled");
            default -> {
                // PRIORITY and unknown frame types are ignored (RFC 9113 sections 5.3.2 and 5.5)
            }
        }
    }

    private void onData(DataFrame frame) throws IOException {
        int length = frame.flowControlledLength();
        ByteBuffer data = frame.data(); // a heap slice of the read buffer
        int n = data.remaining();
        connection.lock.lock();
        try {
            Http2Stream stream = connection.streams.getLocked(frame.streamId());
            boolean readable = stream != null && stream.head != null && !stream.remoteEnd;
            try {
                // Unreadable (a stream we reset, or DATA where none may come): the credit comes straight back.
                connection.streams.receiveWindows.receive(readable ? stream.receive : null, length, n);
            } catch (Http2Exception e) {
                if (e.isConnectionError()) {
                    throw e;
                }
                connection.streams.connectionCreditLocked();
                streamErrorLocked(stream, e.error(), e.getMessage()); // its window overrun
                return;
            }
            connection.streams.connectionCreditLocked();
            if (stream == null) {
                if (!connection.streams.wasOpenedLocked(frame.streamId())) {
                    throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR,
                            "DATA on stream " + frame.streamId() + ", which was never opened");
                }
                return;
            }
            if (!readable) {
                streamErrorLocked(stream, Http2ErrorCode.PROTOCOL_ERROR,
                        stream.head == null ? "DATA before the response head" : "DATA after END_STREAM");
                return;
            }
            connection.streams.streamCreditLocked(stream, length - n); // padding is consumed on arrival
            if (n > 0) {
                try {
                    stream.body.append(stream.id, data.array(), data.arrayOffset() + data.position(), n,
                            connection.chunks);
                } catch (Http2Exception e) {
                    streamErrorLocked(stream, e.error(), e.getMessage()); // longer than its content-length
                    return;
                }
            }
            if (frame.endStream()) {
                endLocked(stream);
            }
            wakeLocked(stream);
        } finally {
            connection.lock.unlock();
        }
    }

    private void onHeaders(HeadersFrame frame) throws IOException {
        int streamId = frame.streamId();
        Http2Stream stream;
        boolean trailers;
        connection.lock.lock();
        try {
            stream = connection.streams.getLocked(streamId);
            if (stream == null && !connection.streams.wasOpenedLocked(streamId)) {
                throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR,
                        "HEADERS on stream " + streamId + ", which was never opened");
            }
            trailers = stream != null && stream.head != null;
        } finally {
            connection.lock.unlock();
        }
        // Decoded even for a stream we reset: the HPACK table must follow every block.
        Http2FieldCollector fields = trailers ? Http2FieldCollector.forTrailers(streamId)
                : Http2FieldCollector.forResponse(streamId);
        boolean fits = decoder.decode(frame.fragment(), fields::field);
        if (stream == null) {
            return;
        }
        connection.lock.lock();
        try {
            if (stream.isClosed()) {
                return;
            }
            if (!fits) {
                streamErrorLocked(stream, Http2ErrorCode.CANCEL, (trailers ? "trailers" : "response head")
                        + " larger than the limit of " + limits.maxHeaderBytes() + " bytes");
                return;
            }
            if (trailers) {
                if (!frame.endStream()) {
                    streamErrorLocked(stream, Http2ErrorCode.PROTOCOL_ERROR, "trailers without END_STREAM");
                    return;
                }
                Headers fieldsOut = fields.trailers();
                if (listSize(fieldsOut) > limits.maxTrailerBytes()) {
                    streamErrorLocked(stream, Http2ErrorCode.CANCEL, "trailers larger than the limit of "
                            + limits.maxTrailerBytes() + " bytes");
                    return;
                }
                stream.trailers = fieldsOut;
                endLocked(stream);
            } else {
                Http2ResponseHead head = fields.response();
                if (head.headers().size() > limits.maxHeaderCount()) {
                    streamErrorLocked(stream, Http2ErrorCode.CANCEL, "response head with more than "
                            + limits.maxHeaderCount() + " fields");
                    return;
                }
                if (head.isInterim()) {
                    stream.interimHeads++;
                    if (frame.endStream()) {
                        streamErrorLocked(stream, Http2ErrorCode.PROTOCOL_ERROR, "interim response ends the stream");
                    }
                } else {
                    stream.head = head;
                    stream.body.declaredLength(declaredLength(head, stream.noBody));
                    if (frame.endStream()) {
                        endLocked(stream);
                    }
                }
            }
            wakeLocked(stream);
        } catch (Http2Exception e) {
            streamErrorLocked(stream, e.error(), e.getMessage()); // a malformed head: this stream only
        } finally {
            connection.lock.unlock();
        }
    }

    /** The content-length the body must match, or -1 (none, or a response that has no body whatever it says). */
    private static long declaredLength(Http2ResponseHead head, boolean noBody) throws Http2Exception {
        String value = head.headers().first("content-length");
        if (value == null || noBody || head.status() == 204 || head.status() == 304) {
            return -1;
        }
        try {
            long length = Long.parseLong(value.trim());
            if (length >= 0) {
                return length;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw Http2Exception.streamError(1, Http2ErrorCode.PROTOCOL_ERROR, "invalid content-length " + value);
    }

    private static long listSize(Headers headers) {
        long size = 0;
        for (int i = 0; i < headers.size(); i++) {
            size += headers.name(i).length() + headers.value(i).length() + 32;
        }
        return size;
    }

    /** END_STREAM arrived on {@code stream}. */
    private void endLocked(Http2Stream stream) {
        try {
            stream.body.end(stream.id);
        } catch (Http2Exception e) {
            streamErrorLocked(stream, e.error(), e.getMessage()); // shorter than its content-length
            return;
        }
        connection.streams.remoteEndLocked(stream);
        if (!stream.localEnd) {
            // The server answered before reading the whole request: stop sending it (RFC 9113 section 8.1).
            connection.streams.stopSendingLocked(stream, true);
        } else {
            connection.streams.closeIfDoneLocked(stream);
        }
        wakeLocked(stream);
    }

    private void onReset(RstStreamFrame frame) throws IOException {
        connection.lock.lock();
        try {
            Http2Stream stream = connection.streams.getLocked(frame.streamId());
            if (stream == null) {
                if (!connection.streams.wasOpenedLocked(frame.streamId())) {
                    throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR,
                            "RST_STREAM on stream " + frame.streamId() + ", which was never opened");
                }
                return;
            }
            Http2ErrorCode error = frame.error();
            if (stream.remoteEnd && error == Http2ErrorCode.NO_ERROR) {
                connection.streams.stopSendingLocked(stream, false); // response complete; it just stops our sending
                return;
            }
            boolean refused = error == Http2ErrorCode.REFUSED_STREAM;
            connection.streams.failLocked(stream, new IOException("server reset the stream ("
                    + Http2ErrorCode.describe(frame.errorCode()) + ")"
                    + (refused ? ": refused before processing the request" : "")), refused);
        } finally {
            connection.lock.unlock();
        }
    }

    private void onSettings(SettingsFrame frame) throws IOException {
        if (frame.ack()) {
            return; // our settings need nothing on acknowledgement: we never lower a limit later
        }
        long maxStreams;
        boolean streamsChanged;
        connection.lock.lock();
        try {
            checkRoomForAnswerLocked("SETTINGS");
            for (SettingsFrame.Setting setting : frame.settings()) {
                if (setting.id() == Http2Settings.ENABLE_PUSH && setting.value() != 0) {
                    throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR,
                            "a server must not enable push");
                }
            }
            Http2Settings before = connection.peerSettings;
            Http2Settings after = before.apply(frame);
            connection.peerSettings = after;
            if (after.initialWindowSize() != before.initialWindowSize()) {
                List<Http2Stream> open = connection.streams.snapshotLocked();
                List<SendWindows.Stream> windows = new ArrayList<>(open.size());
                for (Http2Stream stream : open) {
                    windows.add(stream.send);
                }
                connection.streams.sendWindows.initialWindowSize(after.initialWindowSize(), windows);
                open.forEach(Http2Stream::sendSideChanged);
            }
            if (after.headerTableSize() != before.headerTableSize()) {
                connection.writer.enqueueLocked(new Http2Writer.TableSizeOut(after.headerTableSize()));
            }
            connection.writer.enqueueLocked(new Http2Writer.ControlOut(SettingsFrame.ACK, false));
            maxStreams = after.maxConcurrentStreams();
            streamsChanged = maxStreams != before.maxConcurrentStreams() || before == Http2Settings.DEFAULTS;
        } finally {
            connection.lock.unlock();
        }
        if (streamsChanged) {
            connection.capacityChanged(maxStreams == Http2Settings.UNLIMITED
                    ? Integer.MAX_VALUE : maxStreams);
        }
    }

    private void onPing(PingFrame frame) throws IOException {
        if (frame.ack()) {
            return;
        }
        connection.lock.lock();
        try {
            checkRoomForAnswerLocked("PING");
            connection.writer.enqueueLocked(new Http2Writer.ControlOut(new PingFrame(frame.opaqueData(), true),
                    false));
        } finally {
            connection.lock.unlock();
        }
    }

    /**
     * Fails the connection when the writer's queue holds {@link Http2Writer#MAX_QUEUED_CONTROL} frames already: a
     * server that keeps asking for answers while it reads none would otherwise grow the queue without end.
     */
    private void checkRoomForAnswerLocked(String frame) throws IOException {
        if (!connection.writer.hasRoomForAnswerLocked()) {
            throw new IOException("the server sent another " + frame + " to answer while "
                    + Http2Writer.MAX_QUEUED_CONTROL + " control frames wait for it to read them (a control-frame"
                    + " flood from a server that does not read): connection closed");
        }
    }

    private void onWindowUpdate(WindowUpdateFrame frame) throws IOException {
        connection.lock.lock();
        try {
            if (frame.streamId() == 0) {
                connection.streams.sendWindows.update(null, frame.increment());
                connection.streams.sendSideChangedLocked();
                return;
            }
            Http2Stream stream = connection.streams.getLocked(frame.streamId());
            if (stream == null) {
                if (!connection.streams.wasOpenedLocked(frame.streamId())) {
                    throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR,
                            "WINDOW_UPDATE on stream " + frame.streamId() + ", which was never opened");
                }
                return; // closed meanwhile
            }
            try {
                connection.streams.sendWindows.update(stream.send, frame.increment());
            } catch (Http2Exception e) {
                streamErrorLocked(stream, e.error(), e.getMessage());
                return;
            }
            stream.sendSideChanged();
        } finally {
            connection.lock.unlock();
        }
    }

    private void streamError(int streamId, Http2ErrorCode error, String message) {
        connection.lock.lock();
        try {
            Http2Stream stream = connection.streams.getLocked(streamId);
            if (stream != null) {
                streamErrorLocked(stream, error, message);
            }
        } finally {
            connection.lock.unlock();
        }
    }

    private void streamErrorLocked(Http2Stream stream, Http2ErrorCode error, String message) {
        connection.streams.resetLocked(stream, error, new IOException("HTTP/2 stream " + stream.id + " failed: " + message));
    }
}
