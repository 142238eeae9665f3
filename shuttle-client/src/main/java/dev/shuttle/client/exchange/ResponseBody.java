package dev.shuttle.client.exchange;

import dev.shuttle.wire.Headers;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.Objects;

/**
 * The response body stream handed to callers, for every protocol. A thin face over a {@link BodySource}, kept apart
 * so that the leak guard can refer to the body's state without keeping the response (which this stream refers to)
 * reachable.
 */
public final class ResponseBody extends InputStream {
    private final BodySource body;
    /** The response that owns this stream: held so that a caller keeping only the stream keeps its response alive. */
    @SuppressWarnings("unused")
    private Object owner;
    /** For {@link #read()}, created on its first call; owned by the reading thread, as the stream is. */
    private byte[] single;

    public ResponseBody(BodySource body) {
        this.body = body;
    }

    /** The protocol's body behind this stream. */
    public BodySource source() {
        return body;
    }

    public void keepReachable(Object owner) {
        this.owner = owner;
    }

    /**
     * The leak guard's action: refers to the body's state, the method and the URI only, never to the response or this
     * stream. The request's name is put together only when a leak is reported, so a response that is closed costs no
     * string.
     */
    public Runnable leakAction(String method, URI uri) {
        BodySource state = body;
        return () -> state.leaked(method, uri);
    }

    @Override
    public int read() throws IOException {
        if (single == null) {
            single = new byte[1];
        }
        int n;
        do {
            n = body.read(single, 0, 1);
        } while (n == 0);
        return n < 0 ? -1 : single[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        return body.read(b, off, len);
    }

    @Override
    public int available() {
        return body.available();
    }

    /** Reads to the end, discarding; blocking and without cap. */
    public void skipToEnd() throws IOException {
        body.skipToEnd();
    }

    public boolean isComplete() {
        return body.isComplete();
    }

    public Headers trailers() {
        return body.trailers();
    }

    /** Body bytes still to come per the Content-Length; 0 at the end; -1 when unknown or the body is closed. */
    public long remainingLength() {
        return body.remainingLength();
    }

    /** The Content-Length, or -1 when the framing does not declare one. */
    public long declaredLength() {
        return body.declaredLength();
    }

    /** Cancels the call from any thread: see {@link BodySource#cancel}. Never blocks. */
    public void cancel(IOException reason) {
        body.cancel(reason);
    }

    /** Never blocks; see {@link BodySource}. */
    @Override
    public void close() {
        body.close();
    }
}
