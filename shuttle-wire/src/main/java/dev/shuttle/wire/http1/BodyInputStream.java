package dev.shuttle.wire.http1;

import java.io.IOException;
import java.io.InputStream;

/**
 * A blocking {@link InputStream} over one body: pulls bytes from a {@link Http1Source} through a {@link BodyDecoder}
 * and returns -1 exactly at the end of the body, leaving any bytes of the next message in the source's buffer.
 * A truncated body (peer closed early) throws. Used by the server for request bodies and the client for responses.
 */
public class BodyInputStream extends InputStream {
    protected final Http1Source source;
    protected final BodyDecoder decoder;

    public BodyInputStream(Http1Source source, BodyDecoder decoder) {
        this.source = source;
        this.decoder = decoder;
    }

    public BodyDecoder decoder() {
        return decoder;
    }

    @Override
    public int read() throws IOException {
        throw new UnsupportedOperationException("TODO(wire)");
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        throw new UnsupportedOperationException("TODO(wire)");
    }

    /**
     * Discards body bytes that can be had without blocking (buffered, or already arrived), up to {@code max}.
     *
     * @return the number of body bytes discarded; check {@link BodyDecoder#isComplete()} for whether the end was reached
     */
    public long skipAvailable(long max) throws IOException {
        throw new UnsupportedOperationException("TODO(wire)");
    }

    /** Discards up to {@code max} body bytes, blocking as needed; returns how many were discarded. */
    public long skipBlocking(long max) throws IOException {
        throw new UnsupportedOperationException("TODO(wire)");
    }
}
