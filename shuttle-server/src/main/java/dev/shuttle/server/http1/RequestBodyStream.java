package dev.shuttle.server.http1;

import dev.shuttle.server.ClientGoneException;
import dev.shuttle.wire.http1.BodyDecoder;
import dev.shuttle.wire.http1.BodyInputStream;
import dev.shuttle.wire.http1.Http1Exception;
import dev.shuttle.wire.http1.Http1Source;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The request body as the handler reads it: sends {@code 100 Continue} on the first read, enforces the body-size
 * limit on chunked bodies (a Content-Length over the limit never gets this far), and remembers the first failure so
 * the server knows the connection's input can no longer be trusted. {@code close()} only stops the handler from
 * reading further; what is left is the server's business after the handler returns. Owned by the connection thread.
 */
final class RequestBodyStream extends InputStream {
    private final Http1Exchange exchange;
    private final Http1Source source;
    private final BodyInputStream body;
    private final long maxBytes;

    private boolean started;
    private boolean closed;
    private IOException failure;
    /** The connection's input ended while the body was read. */
    private boolean endOfStream;

    RequestBodyStream(Http1Exchange exchange, Http1Source source, BodyDecoder decoder, long maxBytes) {
        this.exchange = exchange;
        this.source = source;
        this.body = new BodyInputStream(new EndAware(source), decoder);
        this.maxBytes = maxBytes;
    }

    /** The source as the body reads it, noting the end of the stream: a body cut short by it is the client leaving. */
    private final class EndAware implements Http1Source {
        private final Http1Source source;

        EndAware(Http1Source source) {
            this.source = source;
        }

        @Override
        public ByteBuffer buffer() {
            return source.buffer();
        }

        @Override
        public int fill() throws IOException {
            int n = source.fill();
            if (n < 0) {
                endOfStream = true;
            }
            return n;
        }

        @Override
        public int fillNow() throws IOException {
            int n = source.fillNow();
            if (n < 0) {
                endOfStream = true;
            }
            return n;
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        beforeRead();
        if (len == 0) {
            return 0;
        }
        try {
            int n = body.read(b, off, len);
            checkLimit();
            if (n < 0) {
                exchange.requestBodyEnded();
            }
            return n;
        } catch (IOException e) {
            throw failed(e);
        }
    }

    @Override
    public long skip(long n) throws IOException {
        beforeRead();
        if (n <= 0) {
            return 0;
        }
        try {
            long skipped = body.skipBlocking(n);
            checkLimit();
            return skipped;
        } catch (IOException e) {
            throw failed(e);
        }
    }

    @Override
    public int available() throws IOException {
        return closed || failure != null ? 0 : body.available();
    }

    @Override
    public void close() {
        closed = true;
    }

    /** The first exception reading the body threw, or null. */
    IOException failure() {
        return failure;
    }

    /**
     * After the handler: discards up to {@code max} more body bytes, blocking (each read bounded by the body-read
     * timeout). The allowance counts body bytes only. When it runs out where a chunked body's data ends, the framing
     * that follows (the CRLF after the data, the last-chunk line, trailers) is still read, so a body of exactly the
     * allowance keeps the connection even when its terminator arrives late; a body byte beyond the allowance ends the
     * discarding instead (the connection closes anyway). The caller checks whether the body is now complete.
     */
    void discardRest(long max) throws IOException {
        try {
            body.skipBlocking(max);
            BodyDecoder decoder = body.decoder();
            while (!decoder.isComplete()) {
                // With no allowance left the decoder still consumes framing; it stops with input left over only where
                // a body byte is due, which means the body goes on past the allowance.
                ByteBuffer input = source.buffer();
                decoder.skip(input, 0);
                if (decoder.isComplete() || input.hasRemaining()) {
                    return;
                }
                if (source.fill() < 0) {
                    decoder.endOfInput(); // throws: the body was cut short
                    return;
                }
            }
        } catch (IOException e) {
            throw failed(e);
        }
    }

    private void beforeRead() throws IOException {
        if (closed) {
            throw new IOException("request body closed");
        }
        if (failure != null) {
            throw new IOException("request body failed earlier", failure);
        }
        if (!started) {
            started = true;
            exchange.beforeFirstBodyRead();
        }
    }

    private void checkLimit() throws Http1Exception {
        long read = body.decoder().bodyBytesRead();
        if (read > maxBytes) {
            throw new Http1Exception(413, "request body exceeds the limit of " + maxBytes + " bytes");
        }
    }

    /**
     * Records the first failure. The connection's end or a transport failure (a reset) is the client going away, and
     * says so in the exception's type; framing errors and timeouts keep theirs (they choose the status).
     */
    private IOException failed(IOException e) {
        IOException thrown = e;
        boolean transport = !(e instanceof Http1Exception) && !(e instanceof SocketTimeoutException);
        if ((endOfStream || transport) && !(e instanceof ClientGoneException)) {
            ClientGoneException gone = new ClientGoneException("the client went away after "
                    + body.decoder().bodyBytesRead() + " request body bytes: " + e.getMessage(), e);
            exchange.clientWentAway(gone);
            thrown = gone;
        }
        if (failure == null) {
            failure = thrown;
        }
        return thrown;
    }
}
