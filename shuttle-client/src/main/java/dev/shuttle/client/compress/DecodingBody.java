package dev.shuttle.client.compress;

import dev.shuttle.client.ResponseLimits;
import dev.shuttle.client.exchange.BodySource;
import dev.shuttle.client.exchange.ResponseBody;
import dev.shuttle.wire.Headers;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.net.URI;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import java.util.zip.ZipException;

/**
 * A compressed response body decoded as it is read, bounded against decompression bombs ({@link ResponseLimits}).
 * The compressed body underneath keeps its connection's rules: {@link #close()} closes it, so what is left unread goes
 * to the drain policy compressed, and the drain's trace counts those bytes; {@link #skipToEnd()} skips the compressed
 * rest without decoding it.
 *
 * <p>Threads: one reading thread at a time (under {@link #readLock}); {@code close()} from any thread. The inflater's
 * native memory is given back when the body ends, fails or is closed (by the reader, if one is reading then).
 */
public final class DecodingBody implements BodySource {
    private final ResponseBody raw;
    private final ContentCoding coding;
    private final long maxDecoded;
    private final long maxRatio;
    private final CountingStream compressed;
    private final ReentrantLock readLock = new ReentrantLock();
    /** Guarded by readLock: made by the first read (a gzip header is read then, not when the response arrives). */
    private InflaterInputStream decoder;
    /** Guarded by readLock. */
    private long decoded;
    /** Written under readLock; read by isComplete and remainingLength. */
    private volatile boolean ended;
    private volatile boolean closed;

    public DecodingBody(ResponseBody raw, ContentCoding coding, ResponseLimits limits) {
        this.raw = raw;
        this.coding = coding;
        this.maxDecoded = limits.maxDecodedBytes();
        this.maxRatio = limits.maxDecompressionRatio();
        this.compressed = new CountingStream(raw);
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        readLock.lock();
        try {
            if (closed) {
                throw new IOException("response body closed");
            }
            if (ended) {
                return -1;
            }
            int n;
            try {
                if (decoder == null) {
                    decoder = open();
                }
                n = decoder.read(b, off, len);
            } catch (ZipException e) {
                throw fail(new IOException("invalid " + coding.token() + " response body: " + e.getMessage(), e));
            } catch (EOFException e) {
                throw fail(new IOException("truncated " + coding.token() + " response body: the compressed stream"
                        + " ended after " + compressed.count + " bytes, before its end", e));
            } catch (IOException | RuntimeException e) {
                throw fail(e instanceof IOException io ? io : new IOException(e.getMessage(), e));
            }
            if (n < 0) {
                ended = true;
                endDecoder();
                finishRaw();
                return -1;
            }
            decoded += n;
            checkBounds();
            return n;
        } finally {
            readLock.unlock();
        }
    }

    private InflaterInputStream open() throws IOException {
        if (coding == ContentCoding.GZIP) {
            return new GZIPInputStream(compressed, 8192);
        }
        // "deflate" should be zlib-wrapped; some servers send raw deflate. A zlib header's first two bytes, read as a
        // big-endian number, are a multiple of 31 with compression method 8.
        PushbackInputStream peek = new PushbackInputStream(compressed, 2);
        int first = peek.read();
        int second = first < 0 ? -1 : peek.read();
        if (second >= 0) {
            peek.unread(second);
        }
        if (first >= 0) {
            peek.unread(first);
        }
        boolean zlib = first >= 0 && second >= 0 && (first & 0x0f) == 8 && ((first << 8) | second) % 31 == 0;
        return new InflaterInputStream(peek, new Inflater(!zlib), 8192) {
            @Override
            public void close() throws IOException {
                inf.end(); // an inflater passed in is not ended by InflaterInputStream itself
                super.close();
            }
        };
    }

    /**
     * The compressed stream ended; what the framing still holds (a chunked body's last chunk, trailers) is read now,
     * up to {@link #AFTER_END_BYTES}, so the connection is released and trailers known when the caller sees the end.
     * More than that is not the body the server meant: closing the response deals with it.
     */
    private void finishRaw() throws IOException {
        byte[] sink = new byte[256];
        long left = AFTER_END_BYTES;
        while (left > 0) {
            int n = raw.read(sink, 0, (int) Math.min(sink.length, left));
            if (n < 0) {
                return;
            }
            left -= n;
        }
    }

    /** Bytes read past the end of a compressed stream to reach the end of its framing. */
    private static final long AFTER_END_BYTES = 8 * 1024;

    private void checkBounds() throws IOException {
        if (decoded > maxDecoded) {
            throw fail(new IOException("decoded " + coding.token() + " response body exceeds "
                    + "ResponseLimits.maxDecodedBytes (" + maxDecoded + " bytes) after " + compressed.count
                    + " compressed bytes"));
        }
        if (decoded > ResponseLimits.RATIO_FREE_BYTES && decoded / Math.max(1, compressed.count) > maxRatio) {
            throw fail(new IOException("decoded " + coding.token() + " response body is more than "
                    + "ResponseLimits.maxDecompressionRatio (" + maxRatio + ") times its " + compressed.count
                    + " compressed bytes (" + decoded + " decoded): a decompression bomb?"));
        }
    }

    /** The body failed: the compressed rest goes to the drain policy, and the inflater is let go. */
    private IOException fail(IOException e) {
        endDecoder();
        raw.close();
        closed = true;
        return e;
    }

    private void endDecoder() {
        InflaterInputStream d = decoder;
        if (d != null) {
            try {
                d.close(); // ends the inflater; the compressed body under it stays as it is
            } catch (IOException ignored) {
                // the compressed body's close does not throw
            }
        }
    }

    @Override
    public int available() {
        return 0;
    }

    /** Skips the compressed rest without decoding it: what a caller discarding the body wants. */
    @Override
    public void skipToEnd() throws IOException {
        readLock.lock();
        try {
            raw.skipToEnd();
            ended = true;
            endDecoder();
        } finally {
            readLock.unlock();
        }
    }

    @Override
    public void close() {
        closed = true;
        raw.close(); // never blocks; a blocked reader fails and ends the inflater itself
        if (readLock.tryLock()) {
            try {
                endDecoder();
            } finally {
                readLock.unlock();
            }
        }
    }

    /** The compressed body takes the cancellation: its reads fail with {@code reason}, and so do these. */
    @Override
    public void cancel(IOException reason) {
        raw.cancel(reason);
        close();
    }

    @Override
    public boolean isComplete() {
        return ended && raw.isComplete();
    }

    @Override
    public Headers trailers() {
        return raw.trailers();
    }

    @Override
    public long remainingLength() {
        return ended ? 0 : -1;
    }

    @Override
    public long declaredLength() {
        return -1;
    }

    @Override
    public void leaked(String method, URI uri) {
        raw.source().leaked(method, uri);
    }

    /** Bytes of the compressed body read so far (the decoder reads ahead by its buffer). */
    public long compressedBytesRead() {
        return compressed.count;
    }

    /**
     * Counts compressed bytes for the ratio bound; read and written by the reading thread only. Closing the decoder
     * (to end its inflater) leaves the compressed body open: it is closed only by the response's close, for its
     * connection's sake.
     */
    private static final class CountingStream extends FilterInputStream {
        long count;

        CountingStream(InputStream in) {
            super(in);
        }

        @Override
        public void close() {
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }
    }
}
