package dev.shuttle.wire.http1;

import dev.shuttle.wire.Headers;
import java.nio.ByteBuffer;

/**
 * A response body that ends when the server closes the connection (RFC 9112 6.3 rule 8). Not thread-safe: owned by
 * the thread reading the body.
 */
final class CloseDelimitedDecoder implements BodyDecoder {
    private long read;
    private boolean closed;

    @Override
    public int decode(ByteBuffer input, ByteBuffer output) {
        int n = Math.min(input.remaining(), output.remaining());
        if (n > 0) {
            output.put(input.slice(input.position(), n));
            input.position(input.position() + n);
            read += n;
        }
        return n;
    }

    @Override
    public long skip(ByteBuffer input, long max) {
        int n = (int) Math.min(input.remaining(), max);
        input.position(input.position() + n);
        read += n;
        return n;
    }

    @Override
    public boolean isComplete() {
        return closed;
    }

    @Override
    public void endOfInput() {
        closed = true;
    }

    @Override
    public long remainingLength() {
        return -1;
    }

    @Override
    public long bodyBytesRead() {
        return read;
    }

    @Override
    public Headers trailers() {
        return Headers.EMPTY;
    }
}
