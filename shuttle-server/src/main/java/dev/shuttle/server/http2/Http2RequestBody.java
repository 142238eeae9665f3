package dev.shuttle.server.http2;

import dev.shuttle.server.Cancellation;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.http1.Http1Exception;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * The request body of one HTTP/2 stream as the handler reads it: bytes from the stream's queue, with WINDOW_UPDATEs
 * sent as the handler consumes them (so the client sends more only as fast as the handler reads), the body-size limit
 * enforced as it goes (413), and reads bounded by the body-read timeout. Owned by the handler's thread.
 */
final class Http2RequestBody extends InputStream {
    private final Http2Streams streams;
    private final StreamSender sender;
    private final Http2Stream stream;
    private final long maxBytes;
    private final long readTimeoutNanos;
    private final int[] credits = new int[2];
    private long read;
    private boolean closed;
    private IOException failure;
    private byte[] single;

    Http2RequestBody(Http2Streams streams, StreamSender sender, Http2Stream stream, long maxBytes,
                     long readTimeoutNanos) {
        this.streams = streams;
        this.sender = sender;
        this.stream = stream;
        this.maxBytes = maxBytes;
        this.readTimeoutNanos = readTimeoutNanos;
    }

    @Override
    public int read() throws IOException {
        if (single == null) {
            single = new byte[1];
        }
        int n = read(single, 0, 1);
        return n < 0 ? -1 : single[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (closed) {
            throw new IOException("request body closed");
        }
        if (failure != null) {
            throw new IOException("request body failed earlier", failure);
        }
        if (len == 0) {
            return 0;
        }
        try {
            int n = streams.read(stream, b, off, len, readTimeoutNanos, credits);
            if (n > 0) {
                read += n;
                sender.sendWindowUpdates(stream.id, credits[0], credits[1]);
                if (read > maxBytes) {
                    throw new Http1Exception(413, "request body exceeds the limit of " + maxBytes + " bytes");
                }
            }
            return n;
        } catch (IOException e) {
            if (failure == null) {
                failure = e;
            }
            throw e;
        }
    }

    @Override
    public int available() {
        return closed || failure != null ? 0 : streams.available(stream);
    }

    /** Stops the handler from reading further; the rest is the server's business after the handler returns. */
    @Override
    public void close() {
        closed = true;
    }

    /** The first read failure, or null. */
    IOException failure() {
        return failure;
    }

    Cancellation cancellation() {
        return streams.cancellation(stream);
    }

    long declaredLength() {
        return streams.declaredLength(stream); // content-length, 0 without a body, or -1
    }

    Headers trailers() {
        return streams.trailers(stream);
    }
}
