package dev.shuttle.wire.http1;

import dev.shuttle.wire.Headers;
import java.nio.ByteBuffer;

/** A body of a declared length; also the empty body (length 0). Owned by the thread reading the body. */
final class ContentLengthDecoder implements BodyDecoder {
    private final long length;
    private long read;

    ContentLengthDecoder(long length) {
        this.length = length;
    }

    @Override
    public int decode(ByteBuffer input, ByteBuffer output) {
        int n = (int) Math.min(Math.min(input.remaining(), output.remaining()), length - read);
        if (n > 0) {
            ByteBuffer slice = input.slice(input.position(), n);
            output.put(slice);
            input.position(input.position() + n);
            read += n;
        }
        return n;
    }

    @Override
    public long skip(ByteBuffer input, long max) {
        int n = (int) Math.min(Math.min(input.remaining(), max), length - read);
        input.position(input.position() + n);
        read += n;
        return n;
    }

    @Override
    public boolean isComplete() {
        return read == length;
    }

    @Override
    public void endOfInput() throws Http1Exception {
        if (read < length) {
            throw Http1Exception.badRequest("body truncated: connection closed after " + read + " of " + length
                    + " bytes declared by Content-Length");
        }
    }

    @Override
    public long remainingLength() {
        return length - read;
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
