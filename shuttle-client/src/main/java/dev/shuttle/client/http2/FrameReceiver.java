package dev.shuttle.client.http2;

import dev.shuttle.client.ResponseLimits;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.hpack.HpackDecoder;
import dev.shuttle.wire.http2.DataFrame;
import dev.shuttle.wire.http2.GoAwayFrame;
import dev.shuttle.wire.http2.HeadersFrame;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Exception;
import dev.shuttle.wire.http2.Http2FieldCollector;
import dev.shuttle.wire.http2.Http2Frame;
import dev.shuttle.wire.http2.Http2ResponseHead;
import dev.shuttle.wire.http2.Http2Settings;
import dev.shuttle.wire.http2.PingFrame;
import dev.shuttle.wire.http2.PushPromiseFrame;
import dev.shuttle.wire.http2.ReceivedBody;
import dev.shuttle.wire.http2.RstStreamFrame;
import dev.shuttle.wire.http2.SendWindows;
import dev.shuttle.wire.http2.SettingsFrame;
import dev.shuttle.wire.http2.WindowUpdateFrame;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * What each frame from the server does to a client HTTP/2 connection: response heads, bodies and trailers delivered to
 * their streams (with flow control and content-length checks), SETTINGS and PING answered, WINDOW_UPDATE, RST_STREAM
 * and GOAWAY applied, PUSH_PROMISE refused, PRIORITY and unknown types ignored. A stream error resets that stream; a
 * connection error is thrown. Runs on the connection's reader thread ({@link Http2Reader}), one at a time; stream
 * state is changed under the connection's lock.
 */
final class FrameReceiver {
    private final Http2Connection connection;
    /** Reader thread only: decodes every field block in arrival order, even a reset stream's. */
    private final HpackDecoder decoder;
    private final ResponseLimits limits;

    /** Reader thread only: the server's first frame (its SETTINGS) arrived. */
    private boolean prefaceSeen;
    /**
     * Streams whose callers are woken once the frames read so far are handled ({@link #wakeLocked}). Guarded by the
     * connection's lock, and touched only by the running reader: one that stopped may already have a successor
     * marking streams here.
     */
    private final ArrayList<Http2Stream> toWake = new ArrayList<>();

    FrameReceiver(Http2Connection connection) {
        this.connection = connection;
        this.decoder = new HpackDecoder(connection.options.limits());
        this.limits = connection.options.responseLimits();
    }

    /** Whether the server's SETTINGS, its first frame, arrived: until then an HTTP/1.1 answer is told apart. */
    boolean prefaceSeen() {
        return prefaceSeen;
    }

    /**
     * Marks {@code stream}'s caller to be woken once every frame already read is handled, rather than at once: a
     * response's HEADERS and DATA usually arrive in one read, and a caller woken by the HEADERS would find its body
     * not there yet and wait again, or wake only to wait for the lock the reader takes for the next frame.
     */
    private void wakeLocked(Http2Stream stream) {
        assert connection.lock.isHeldByCurrentThread();
        if (!stream.wakePending) {
            stream.wakePending = true;
            toWake.add(stream);
        }
    }

    /** Wakes the callers of the streams marked since the last read. */
    void wakeAllLocked() {
        assert connection.lock.isHeldByCurrentThread();
        for (int i = 0; i < toWake.size(); i++) {
            Http2Stream stream = toWake.get(i);
            stream.wakePending = false;
            stream.changed.signalAll();
        }
        toWake.clear();
    }

    /** One whole frame from the server (HEADERS with its CONTINUATIONs joined). */
    void receive(Http2Frame frame) throws IOException {
        if (!prefaceSeen) {
            if (!(frame instanceof SettingsFrame settings) || settings.ack()) {
                throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR,
                        "the server's first frame must be SETTINGS, got type " + frame.type());
            }
            prefaceSeen = true;
        }
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
            int paddingCredit;
            try {
                // Unreadable (a stream we reset, or DATA where none may come): the credit comes straight back.
                paddingCredit = connection.streams.receiveWindows.receive(readable ? stream.receive : null, length, n);
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
            connection.streams.streamUpdateLocked(stream, paddingCredit); // padding is consumed on arrival
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
                    stream.body.declaredLength(declaredLength(stream.id, head, stream.noBody));
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
    private static long declaredLength(int streamId, Http2ResponseHead head, boolean noBody) throws Http2Exception {
        if (noBody || head.status() == 204 || head.status() == 304) {
            return -1;
        }
        return ReceivedBody.parseDeclaredLength(streamId, head.headers().first("content-length"));
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
        assert connection.lock.isHeldByCurrentThread();
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
            connection.lock.lock();
            try {
                connection.streams.receiveWindows.settingsAcknowledged();
            } finally {
                connection.lock.unlock();
            }
            return;
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
                connection.writer.enqueueLocked(new WriterThread.TableSizeOut(after.headerTableSize()));
            }
            connection.writer.enqueueLocked(new WriterThread.ControlOut(SettingsFrame.ACK, false));
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
            connection.writer.enqueueLocked(new WriterThread.ControlOut(new PingFrame(frame.opaqueData(), true),
                    false));
        } finally {
            connection.lock.unlock();
        }
    }

    /**
     * Fails the connection when the writer's queue holds {@link WriterThread#MAX_QUEUED_CONTROL} frames already: a
     * server that keeps asking for answers while it reads none would otherwise grow the queue without end.
     */
    private void checkRoomForAnswerLocked(String frame) throws IOException {
        assert connection.lock.isHeldByCurrentThread();
        if (!connection.writer.hasRoomForAnswerLocked()) {
            throw new IOException("the server sent another " + frame + " to answer while "
                    + WriterThread.MAX_QUEUED_CONTROL + " control frames wait for it to read them (a control-frame"
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

    void streamError(int streamId, Http2ErrorCode error, String message) {
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
        assert connection.lock.isHeldByCurrentThread();
        connection.streams.resetLocked(stream, error,
                new IOException("HTTP/2 stream " + stream.id + " failed: " + message));
    }
}
