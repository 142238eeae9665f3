package dev.shuttle.server.http2;

import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.RstStreamFrame;
import dev.shuttle.wire.http2.WindowUpdateFrame;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.List;

/**
 * What a stream sends, from whichever thread: a response's HEADERS and DATA within the flow-control windows (handler
 * threads), RST_STREAM, and the WINDOW_UPDATEs that give back what a handler read or the server dropped (handlers and
 * the reader). A stream's END_STREAM is recorded before its frame goes out: a client that answers END_STREAM at once
 * (h2spec 5.1.12 sends HEADERS again) must find the stream closed, not half-closed, when the reader gets there.
 * Thread-safe: the streams and the writer guard themselves.
 */
final class StreamSender {
    private static final System.Logger LOG = System.getLogger(StreamSender.class.getName());

    private final Http2Writer writer;
    private final Http2Streams streams;
    private final long writeTimeoutNanos;
    private final long connectionId;

    StreamSender(Http2Writer writer, Http2Streams streams, long writeTimeoutNanos, long connectionId) {
        this.writer = writer;
        this.streams = streams;
        this.writeTimeoutNanos = writeTimeoutNanos;
        this.connectionId = connectionId;
    }

    void sendHeaders(Http2Stream stream, List<String> fields, boolean endStream) throws IOException {
        checkSendable(stream);
        if (endStream) {
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
        checkSendable(stream);
        if (length <= Http2Writer.MAX_DATA_FRAME && streams.send.tryTake(stream, length) == length) {
            streams.localEnded(stream);
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
        checkSendable(stream);
        if (length == 0) {
            if (end) {
                streams.localEnded(stream);
                writer.data(stream.id, bytes, offset, 0, true);
            }
            return;
        }
        while (length > 0) {
            int granted = streams.send.take(stream, Math.min(length, Http2Writer.MAX_DATA_FRAME), writeTimeoutNanos);
            boolean last = end && granted == length;
            if (last) {
                streams.localEnded(stream);
            }
            writer.data(stream.id, bytes, offset, granted, last);
            offset += granted;
            length -= granted;
        }
    }

    boolean localEnded(Http2Stream stream) {
        return stream.localEnded();
    }

    /** Before a response frame changes any state: the stream must not be reset, nor the thread interrupted. */
    private void checkSendable(Http2Stream stream) throws IOException {
        Http2Writer.refuseIfInterrupted();
        if (stream.reset != null) {
            throw stream.resetFailure(); // its reasons are written before the volatile reset
        }
    }

    /** Refuses a stream the client opened (REFUSED_STREAM): it never entered the registry. */
    void resetRefused(int streamId) throws IOException {
        writer.frame(new RstStreamFrame(streamId, Http2ErrorCode.REFUSED_STREAM));
    }

    /** Resets the stream from our side with INTERNAL_ERROR (a response that broke its own length). */
    void reset(Http2Stream stream) {
        reset(stream.id, Http2ErrorCode.INTERNAL_ERROR);
    }

    /** Resets a stream from our side; what it had buffered goes back to the connection's window. */
    void reset(int streamId, Http2ErrorCode code) {
        streams.reset(streamId, code, false);
        try {
            writer.frame(new RstStreamFrame(streamId, code));
            sendConnectionUpdate();
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "connection {0}: RST_STREAM not sent: {1}", connectionId, e.toString());
        }
    }

    /** Credit given back to a stream and the connection (body bytes a handler read, or padding), in one write. */
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

    /** The connection's window credit that came due (read, dropped or padding octets), if any. */
    void sendConnectionUpdate() throws IOException {
        int increment = streams.takeConnectionUpdate();
        if (increment > 0) {
            writer.frame(new WindowUpdateFrame(0, increment));
        }
    }
}
