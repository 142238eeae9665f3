package dev.shuttle.server.compress;

import dev.shuttle.server.ForwardingResponse;
import dev.shuttle.server.Response;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.util.Arrays;
import java.util.Locale;

/**
 * The response as a handler sees it behind {@link Compression}, for a client that accepts gzip. Holds the first
 * {@code minimumBytes} of the body (and a declared Content-Length) until it can decide: when the body turns out
 * long enough (or is flushed with its length unknown), the head is fixed with {@code Content-Encoding: gzip} and the
 * body streams through a {@link GzipBodyStream}; when it ends short, or the response is not eligible, it goes out as
 * written. Owned by the handler's thread.
 */
final class CompressingResponse extends ForwardingResponse {
    private enum Mode { UNDECIDED, PLAIN, GZIP }

    private final Compression settings;
    private final DecidingStream body = new DecidingStream();
    private Mode mode = Mode.UNDECIDED;
    /** A Content-Length the handler declared, held back until the decision; -1 when none. */
    private long declaredLength = -1;
    private OutputStream target;
    private GzipBodyStream gzip;

    CompressingResponse(Response delegate, Compression settings) {
        super(delegate);
        this.settings = settings;
    }

    @Override
    public Response header(String name, String value) {
        if (name.equalsIgnoreCase("Content-Length")) {
            return contentLength(Long.parseLong(value.strip()));
        }
        super.header(name, value);
        varyIfCompressible(name, value);
        return this;
    }

    @Override
    public Response addHeader(String name, String value) {
        if (name.equalsIgnoreCase("Content-Length")) {
            return contentLength(Long.parseLong(value.strip()));
        }
        super.addHeader(name, value);
        varyIfCompressible(name, value);
        return this;
    }

    private void varyIfCompressible(String name, String value) {
        if (name.equalsIgnoreCase("Content-Type") && settings.compressible(value)) {
            Vary.addAcceptEncoding(delegate());
        }
    }

    @Override
    public Response removeHeader(String name) {
        if (name.equalsIgnoreCase("Content-Length")) {
            declaredLength = -1;
        }
        super.removeHeader(name);
        return this;
    }

    @Override
    public Response contentLength(long length) {
        if (mode != Mode.UNDECIDED) {
            throw new IllegalStateException("response already committed");
        }
        if (length < 0) {
            throw new IllegalArgumentException("negative Content-Length: " + length);
        }
        declaredLength = length;
        return this;
    }

    @Override
    public OutputStream body() {
        return body;
    }

    @Override
    public void flush() throws IOException {
        body.flush();
    }

    /** Once decided, the head is fixed here, whether or not the wrapped response has sent it yet. */
    @Override
    public boolean isCommitted() {
        return mode != Mode.UNDECIDED || super.isCommitted();
    }

    /** Uncompressed, a file still goes to the wrapped response (zero-copy where it can); compressed, through gzip. */
    @Override
    public void writeFile(FileChannel file, long position, long count) throws IOException {
        body.decideBefore(count);
        if (mode == Mode.PLAIN) {
            delegate().writeFile(file, position, count);
        } else {
            super.writeFile(file, position, count);
        }
    }

    /** Called when the handler returned (or failed): ends the body, and always frees the compressor. */
    void finish(boolean handlerDone) throws IOException {
        try {
            if (handlerDone) {
                body.close();
            }
        } finally {
            if (gzip != null) {
                gzip.release();
            }
        }
    }

    /** Whether this response may be compressed at all, whatever its length. */
    private boolean eligible() {
        int status = status();
        if (status == 206 || status == 204 || status == 304 || status < 200) {
            return false;
        }
        var headers = headers();
        if (headers.contains("Content-Range") || headers.contains("Content-Encoding")) {
            return false;
        }
        String cacheControl = headers.first("Cache-Control");
        if (cacheControl != null && cacheControl.toLowerCase(Locale.ROOT).contains("no-transform")) {
            return false;
        }
        return settings.compressible(headers.first("Content-Type"));
    }

    /** Fixes the head: compressed, or as the handler wrote it. */
    private void decide(boolean compress) throws IOException {
        Response delegate = delegate();
        if (compress) {
            mode = Mode.GZIP;
            delegate.removeHeader("Content-Length");
            delegate.header("Content-Encoding", "gzip");
            String etag = delegate.headers().first("ETag");
            if (etag != null && etag.startsWith("\"")) {
                delegate.header("ETag", "W/" + etag); // other bytes than the identity's: a weak validator
            }
            gzip = new GzipBodyStream(delegate.body(), settings.level());
            target = gzip;
        } else {
            mode = Mode.PLAIN;
            if (declaredLength >= 0) {
                delegate.contentLength(declaredLength);
            }
            target = delegate.body();
        }
    }

    /** The body stream: holds the first bytes until the decision, then writes through the chosen target. */
    private final class DecidingStream extends OutputStream {
        private byte[] held = new byte[0];
        private int count;
        private boolean closed;

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (closed) {
                throw new IOException("response body closed");
            }
            if (mode == Mode.UNDECIDED) {
                boolean eligible = eligible();
                if (!eligible || (declaredLength >= 0 && declaredLength < settings.minimumBytes())) {
                    decide(false);
                } else if (declaredLength >= 0 || count + len >= settings.minimumBytes()) {
                    decide(true);
                } else {
                    if (count + len > held.length) {
                        held = Arrays.copyOf(held, Math.max(Math.max(64, held.length * 2), count + len));
                    }
                    System.arraycopy(b, off, held, count, len);
                    count += len;
                    return;
                }
                writeHeld();
            }
            target.write(b, off, len);
        }

        /** Decides, if not yet, knowing that at least {@code more} bytes follow what is held. */
        void decideBefore(long more) throws IOException {
            if (closed) {
                throw new IOException("response body closed");
            }
            if (mode == Mode.UNDECIDED) {
                long known = declaredLength >= 0 ? declaredLength : count + more;
                decide(eligible() && known >= settings.minimumBytes());
                writeHeld();
            }
        }

        /** Flushing with the length unknown decides for compression: streaming bodies are the long ones. */
        @Override
        public void flush() throws IOException {
            if (closed) {
                return;
            }
            if (mode == Mode.UNDECIDED) {
                decide(eligible() && (declaredLength < 0 || declaredLength >= settings.minimumBytes()));
                writeHeld();
            }
            target.flush();
            delegate().flush();
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            if (mode == Mode.UNDECIDED) {
                long length = declaredLength >= 0 ? declaredLength : count;
                boolean compress = eligible() && length >= settings.minimumBytes();
                if (!compress && declaredLength < 0) {
                    declaredLength = count; // the whole body is here: send it with its length
                }
                decide(compress);
                writeHeld();
            }
            target.close();
        }

        private void writeHeld() throws IOException {
            if (count > 0) {
                target.write(held, 0, count);
            }
            held = null;
            count = 0;
        }
    }
}
