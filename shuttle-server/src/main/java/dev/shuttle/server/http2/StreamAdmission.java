package dev.shuttle.server.http2;

import dev.shuttle.server.Http2Options;
import dev.shuttle.server.core.ServerConnection;
import dev.shuttle.server.core.ServerContext;
import dev.shuttle.wire.hpack.HpackDecoder;
import dev.shuttle.wire.http2.HeadersFrame;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Exception;
import dev.shuttle.wire.http2.Http2FieldCollector;
import dev.shuttle.wire.http2.Http2RequestHead;
import dev.shuttle.wire.http2.ReceivedBody;
import java.io.IOException;

/**
 * A client's HEADERS: a new request stream (decoded, admitted or refused, its declared length checked, its handler
 * started) or the trailers of an open one. Every block is decoded, even for a stream that is refused or gone: the
 * HPACK tables must stay in step. Runs on the connection's reading thread, which owns the decoder.
 */
final class StreamAdmission {
    private final ServerConnection connection;
    private final ServerContext context;
    private final Http2Options options;
    private final Http2Streams streams;
    private final StreamSender sender;
    private final HandlerRun handlers;
    private final Goodbye goodbye;
    private final AbuseBudgets budgets;
    private final HpackDecoder decoder;
    /** Told when a stream opens: the idle timeout counts from there. */
    private final Runnable streamActivity;

    StreamAdmission(ServerConnection connection, Http2Options options, Http2Streams streams, StreamSender sender,
                    HandlerRun handlers, Goodbye goodbye, AbuseBudgets budgets, HpackDecoder decoder,
                    Runnable streamActivity) {
        this.connection = connection;
        this.context = connection.context();
        this.options = options;
        this.streams = streams;
        this.sender = sender;
        this.handlers = handlers;
        this.goodbye = goodbye;
        this.budgets = budgets;
        this.decoder = decoder;
        this.streamActivity = streamActivity;
    }

    /** HEADERS from the client, whole (CONTINUATION already joined); {@code read} numbers the read that brought it. */
    void headers(HeadersFrame frame, long read) throws IOException {
        int id = frame.streamId();
        if (id % 2 == 0) {
            throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR, "even stream id " + id
                    + " from a client");
        }
        if (streams.isIdle(id)) {
            open(frame, read);
        } else {
            trailers(frame);
        }
    }

    private void open(HeadersFrame frame, long read) throws IOException {
        int id = frame.streamId();
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
            sender.resetRefused(id);
            return;
        }
        Http2Stream stream = streams.open(id);
        stream.openedInRead = read;
        streamActivity.run();
        if (!fits) {
            budgets.provokedReset(context.now());
            handlers.respondWithError(stream, frame.endStream(), 431, "request header fields too large");
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
        streams.declareLength(stream, declared);
        if (frame.endStream()) {
            streams.remoteEnded(stream);
        }
        connection.requestStarted();
        if (declared > context.limits.maxRequestBodyBytes()) {
            handlers.respondWithError(stream, frame.endStream(), 413, "request body of " + declared
                    + " bytes exceeds the limit of " + context.limits.maxRequestBodyBytes());
            return;
        }
        handlers.start(stream, head);
    }

    /** The request's content-length: the declared one, 0 for a request without a body, -1 when undeclared. */
    private static long declaredLength(int id, Http2RequestHead head, boolean endStream) throws Http2Exception {
        long declared = ReceivedBody.parseDeclaredLength(id, head.headers().first("content-length"));
        if (endStream) {
            if (declared > 0) {
                throw Http2Exception.streamError(id, Http2ErrorCode.PROTOCOL_ERROR,
                        "content-length " + declared + " on a request without a body");
            }
            return 0;
        }
        return declared;
    }

    /** HEADERS on a stream that was opened: its trailers, which must end it. */
    private void trailers(HeadersFrame frame) throws IOException {
        int id = frame.streamId();
        Http2FieldCollector fields = Http2FieldCollector.forTrailers(id);
        boolean fits = decoder.decode(frame.fragment(), fields::field);
        Http2Stream stream = streams.get(id);
        if (stream == null && streams.wasResetByUs(id)) {
            return; // sent before the client saw our reset
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
        if (stream.isClosed()) {
            // Both sides ended it: closed, whatever its handler still does (RFC 9113 5.1).
            throw Http2Exception.connectionError(Http2ErrorCode.STREAM_CLOSED, "HEADERS on closed stream " + id);
        }
        if (stream.remoteEnded()) {
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

    /** A reset the client's frames made us send: it spends the reset budget (MadeYouReset). */
    private void resetProvoked(int streamId, Http2ErrorCode code) throws Http2Exception {
        budgets.provokedReset(context.now());
        sender.reset(streamId, code);
    }
}
