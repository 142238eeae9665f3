package dev.shuttle.wire.http1;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A blocking {@link InputStream} over one body: pulls bytes from a {@link Http1Source} through a {@link BodyDecoder}
 * and returns -1 exactly at the end of the body, leaving any bytes of the next message in the source's buffer.
 * A truncated body (peer closed early) throws. Used by the server for request bodies and the client for responses.
 * Not thread-safe: owned by the thread reading the body, as the source is.
 */
public class BodyInputStream extends InputStream {
    protected final Http1Source source;
    protected final BodyDecoder decoder;
    private ByteBuffer single; // for read(); created on first use, owned by the reading thread

    public BodyInputStream(Http1Source source, BodyDecoder decoder) {
        this.source = source;
        this.decoder = decoder;
    }

    public BodyDecoder decoder() {
        return decoder;
    }

    @Override
    public int read() throws IOException {
        if (single == null) {
            single = ByteBuffer.allocate(1);
        }
        single.clear();
        int n = read(single);
        return n < 0 ? -1 : single.get(0) & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        return read(ByteBuffer.wrap(b, off, len));
    }

    /** Reads at least one byte into {@code output} (which has room), blocking as needed; -1 at the end. */
    private int read(ByteBuffer output) throws IOException {
        while (true) {
            if (decoder.isComplete()) {
                return -1;
            }
            ByteBuffer input = source.buffer();
            int n = decoder.decode(input, output);
            if (n > 0) {
                return n;
            }
            if (decoder.isComplete()) {
                return -1;
            }
            if (source.fill() < 0) {
                decoder.endOfInput(); // throws unless the body is close-delimited
                return -1;
            }
        }
    }

    /**
     * Discards body bytes that can be had without blocking (buffered, or already arrived), up to {@code max}.
     *
     * @return the number of body bytes discarded; check {@link BodyDecoder#isComplete()} for whether the end was reached
     */
    public long skipAvailable(long max) throws IOException {
        long skipped = 0;
        while (!decoder.isComplete()) {
            ByteBuffer input = source.buffer();
            skipped += decoder.skip(input, max - skipped);
            if (decoder.isComplete() || input.hasRemaining()) {
                break; // done, or the allowance is spent with body bytes still buffered
            }
            int added = source.fillNow();
            if (added < 0) {
                decoder.endOfInput();
                break;
            }
            if (added == 0) {
                break;
            }
        }
        return skipped;
    }

    /** Discards up to {@code max} body bytes, blocking as needed; returns how many were discarded. */
    public long skipBlocking(long max) throws IOException {
        long skipped = 0;
        while (!decoder.isComplete()) {
            ByteBuffer input = source.buffer();
            skipped += decoder.skip(input, max - skipped);
            if (decoder.isComplete() || skipped >= max) {
                break;
            }
            if (source.fill() < 0) {
                decoder.endOfInput();
                break;
            }
        }
        return skipped;
    }

    /** Skips like {@link #skipBlocking}, as {@link InputStream#skip} promises: never negative, 0 at the end. */
    @Override
    public long skip(long n) throws IOException {
        return n <= 0 ? 0 : skipBlocking(n);
    }

    /** Body bytes that can be read without blocking, as far as the buffer shows (framing may make it less). */
    @Override
    public int available() {
        if (decoder.isComplete()) {
            return 0;
        }
        long buffered = source.buffer().remaining();
        long remaining = decoder.remainingLength();
        return (int) Math.min(Integer.MAX_VALUE, remaining >= 0 ? Math.min(remaining, buffered) : 0);
    }
}
