package dev.shuttle.wire.http1;

import dev.shuttle.wire.Headers;
import java.nio.ByteBuffer;

/**
 * Chunked transfer coding (RFC 9112 7.1): hex chunk sizes (no sign, no overflow), extensions parsed and ignored
 * (bounded by {@link Http1Limits#maxChunkLineBytes()}), CRLF after each chunk's data, trailers kept and bounded by
 * {@link Http1Limits#maxTrailerBytes()}. Incremental: any split of the input gives the same result.
 */
final class ChunkedDecoder implements BodyDecoder {
    private final Http1Limits limits;

    ChunkedDecoder(Http1Limits limits) {
        this.limits = limits;
    }

    @Override
    public int decode(ByteBuffer input, ByteBuffer output) throws Http1Exception {
        throw new UnsupportedOperationException("TODO(wire): chunked decoding");
    }

    @Override
    public long skip(ByteBuffer input, long max) throws Http1Exception {
        throw new UnsupportedOperationException("TODO(wire): chunked decoding");
    }

    @Override
    public boolean isComplete() {
        throw new UnsupportedOperationException("TODO(wire): chunked decoding");
    }

    @Override
    public void endOfInput() throws Http1Exception {
        throw new UnsupportedOperationException("TODO(wire): chunked decoding");
    }

    @Override
    public long remainingLength() {
        return -1;
    }

    @Override
    public long bodyBytesRead() {
        throw new UnsupportedOperationException("TODO(wire): chunked decoding");
    }

    @Override
    public Headers trailers() {
        throw new UnsupportedOperationException("TODO(wire): chunked decoding");
    }
}
