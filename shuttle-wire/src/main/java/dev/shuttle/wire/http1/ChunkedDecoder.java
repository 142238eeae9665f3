package dev.shuttle.wire.http1;

import dev.shuttle.wire.Headers;
import java.nio.ByteBuffer;

/**
 * Chunked transfer coding (RFC 9112 7.1): hex chunk sizes (no sign, no overflow), extensions parsed and ignored
 * (bounded by {@link Http1Limits#maxChunkLineBytes()}), CRLF after each chunk's data, trailers kept and bounded by
 * {@link Http1Limits#maxTrailerBytes()}. Incremental: any split of the input gives the same result.
 *
 * <p>States, in wire order: SIZE_START → SIZE → (SIZE_WS → EXTENSION)? → SIZE_LF → DATA → DATA_CR → DATA_LF → SIZE_START
 * ...; after the size line of the last (zero-size) chunk, SIZE_LF → TRAILERS → DONE. Framing bytes are consumed even
 * when the output is full or the skip allowance is spent, so a reader that took exactly the body's bytes sees
 * {@link #isComplete()} as soon as the terminator has arrived. Not thread-safe: owned by the thread reading the body.
 */
final class ChunkedDecoder implements BodyDecoder {
    /** Chunk sizes above this (2^60 - 1, ~1 EiB) are rejected: no real chunk is that large, and size math stays safe. */
    static final long MAX_CHUNK_SIZE = (1L << 60) - 1;

    private enum State { SIZE_START, SIZE, SIZE_WS, EXTENSION, SIZE_LF, DATA, DATA_CR, DATA_LF, TRAILERS, DONE }

    private final Http1Limits limits;

    // All fields below are owned by the thread reading the body.
    private State state = State.SIZE_START;
    private long chunkSize;
    private long chunkRemaining;
    private int chunkLineBytes;
    private long bodyBytes;
    private int trailerBytes;
    private LineReader trailerLines; // created only when a body has trailers
    private Headers.Builder trailerFields;
    private Headers trailers = Headers.EMPTY;
    /**
     * Malformed framing found after body bytes were produced by the same call: those bytes were valid, so the call
     * returns them and the next call throws this. A reader gets every valid byte, then the error, never a silent end.
     */
    private Http1Exception deferred;

    ChunkedDecoder(Http1Limits limits) {
        this.limits = limits;
    }

    @Override
    public int decode(ByteBuffer input, ByteBuffer output) throws Http1Exception {
        throwDeferred();
        int written = 0;
        while (state != State.DONE && input.hasRemaining()) {
            if (state == State.DATA) {
                int n = (int) Math.min(chunkRemaining, Math.min(input.remaining(), output.remaining()));
                if (n == 0) {
                    break;
                }
                output.put(input.slice(input.position(), n));
                input.position(input.position() + n);
                consumed(n);
                written += n;
            } else if (!framingAfter(input, written)) {
                break;
            }
        }
        return written;
    }

    @Override
    public long skip(ByteBuffer input, long max) throws Http1Exception {
        throwDeferred();
        long skipped = 0;
        while (state != State.DONE && input.hasRemaining()) {
            if (state == State.DATA) {
                int n = (int) Math.min(chunkRemaining, Math.min(input.remaining(), max - skipped));
                if (n == 0) {
                    break;
                }
                input.position(input.position() + n);
                consumed(n);
                skipped += n;
            } else if (!framingAfter(input, skipped)) {
                break;
            }
        }
        return skipped;
    }

    /**
     * Consumes framing; on malformed framing after {@code produced} body bytes of this call, keeps the error for the
     * next call and returns false, so the valid bytes reach the reader first.
     */
    private boolean framingAfter(ByteBuffer input, long produced) throws Http1Exception {
        try {
            framing(input);
            return true;
        } catch (Http1Exception e) {
            if (produced == 0) {
                throw e;
            }
            deferred = e;
            return false;
        }
    }

    private void throwDeferred() throws Http1Exception {
        if (deferred != null) {
            throw deferred;
        }
    }

    private void consumed(int n) {
        chunkRemaining -= n;
        bodyBytes += n;
        if (chunkRemaining == 0) {
            state = State.DATA_CR;
        }
    }

    /** Consumes framing bytes until data is due, the body is done, or input runs out. */
    private void framing(ByteBuffer input) throws Http1Exception {
        while (input.hasRemaining()) {
            switch (state) {
                case SIZE_START, SIZE, SIZE_WS, EXTENSION, SIZE_LF -> sizeLineByte(input.get());
                case DATA_CR -> {
                    if (input.get() != '\r') {
                        throw Http1Exception.badRequest("chunk data not followed by CRLF");
                    }
                    state = State.DATA_LF;
                }
                case DATA_LF -> {
                    if (input.get() != '\n') {
                        throw Http1Exception.badRequest("chunk data not followed by CRLF");
                    }
                    state = State.SIZE_START;
                }
                case TRAILERS -> trailers(input);
                case DATA, DONE -> {
                    return;
                }
            }
            if (state == State.DATA || state == State.DONE) {
                return;
            }
        }
    }

    private void sizeLineByte(byte b) throws Http1Exception {
        if (state == State.SIZE_LF) {
            if (b != '\n') {
                throw Http1Exception.badRequest("bare CR in chunk size line");
            }
            chunkLineBytes = 0;
            if (chunkSize == 0) {
                state = State.TRAILERS;
            } else {
                chunkRemaining = chunkSize;
                state = State.DATA;
            }
            return;
        }
        // The bound covers the size and its extensions; the CR ending the line is not counted.
        if (b != '\r' && ++chunkLineBytes > limits.maxChunkLineBytes()) {
            throw Http1Exception.badRequest("chunk size line longer than " + limits.maxChunkLineBytes() + " bytes");
        }
        int digit = hexDigit(b);
        switch (state) {
            case SIZE_START -> {
                if (digit < 0) {
                    throw Http1Exception.badRequest("invalid chunk size: expected a hex digit, got "
                            + FieldLines.hex(b));
                }
                chunkSize = digit;
                state = State.SIZE;
            }
            case SIZE -> {
                if (digit >= 0) {
                    if (chunkSize > (MAX_CHUNK_SIZE >>> 4)) {
                        throw Http1Exception.badRequest("chunk size too large (over " + MAX_CHUNK_SIZE + " bytes)");
                    }
                    chunkSize = (chunkSize << 4) | digit;
                } else {
                    afterSize(b);
                }
            }
            case SIZE_WS -> afterSize(b);
            case EXTENSION -> {
                // chunk-ext = *( BWS ";" BWS name [ BWS "=" BWS ( token / quoted-string ) ] ): ignored, but only
                // characters that can appear in it are let through.
                if (b == '\r') {
                    state = State.SIZE_LF;
                } else if (!isExtensionByte(b)) {
                    throw Http1Exception.badRequest("invalid character " + FieldLines.hex(b) + " in chunk extension");
                }
            }
            default -> throw new IllegalStateException("state: " + state);
        }
    }

    /** After the size digits: optional whitespace (BWS), then an extension or the end of the line. */
    private void afterSize(byte b) throws Http1Exception {
        if (b == ' ' || b == '\t') {
            state = State.SIZE_WS;
        } else if (b == ';') {
            state = State.EXTENSION;
        } else if (b == '\r') {
            state = State.SIZE_LF;
        } else {
            throw Http1Exception.badRequest("invalid character " + FieldLines.hex(b) + " in chunk size");
        }
    }

    /** Bytes of tokens, quoted strings (obs-text included), BWS, ';' and '=': never a control character. */
    private static boolean isExtensionByte(byte b) {
        return b == '\t' || (b >= 0x20 && b != 0x7f) || b < 0;
    }

    private static int hexDigit(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        return -1;
    }

    private void trailers(ByteBuffer input) throws Http1Exception {
        if (trailerLines == null) {
            trailerLines = new LineReader();
        }
        while (true) {
            // The final empty line is not counted against maxTrailerBytes, so a limit of 0 means "no trailers".
            int budget = limits.maxTrailerBytes() - trailerBytes + 2;
            LineReader.Result result = trailerLines.read(input, budget);
            if (result == LineReader.Result.NEED_MORE) {
                return;
            }
            if (result == LineReader.Result.TOO_LONG) {
                throw Http1Exception.badRequest("trailers larger than " + limits.maxTrailerBytes() + " bytes");
            }
            byte[] line = trailerLines.array();
            int start = trailerLines.start();
            int end = FieldLines.contentEnd(line, start, trailerLines.end(), false, "trailer line");
            if (end == start) {
                if (trailerFields != null) {
                    trailers = trailerFields.build();
                    trailerFields = null;
                }
                trailerLines = null;
                state = State.DONE;
                return;
            }
            trailerBytes += trailerLines.lineBytes();
            if (trailerFields == null) {
                trailerFields = Headers.builder();
            }
            FieldLines.parse(line, start, end, trailerFields, "trailer");
        }
    }

    @Override
    public boolean isComplete() {
        return state == State.DONE;
    }

    @Override
    public void endOfInput() throws Http1Exception {
        throwDeferred();
        if (state != State.DONE) {
            throw Http1Exception.badRequest("chunked body truncated: connection closed after " + bodyBytes
                    + " body bytes, before the last chunk" + (state == State.TRAILERS ? "'s trailers ended" : ""));
        }
    }

    @Override
    public long remainingLength() {
        return -1;
    }

    @Override
    public long bodyBytesRead() {
        return bodyBytes;
    }

    @Override
    public Headers trailers() {
        return trailers;
    }
}
