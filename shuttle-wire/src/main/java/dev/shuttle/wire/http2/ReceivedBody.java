package dev.shuttle.wire.http2;

import java.util.ArrayDeque;

/**
 * The body bytes one stream received and its reader has not taken yet, in chunks of the connection's
 * {@link ChunkPool}, and the count that holds the body to its declared content-length (RFC 9113 8.1.1: a body longer
 * or shorter than declared is malformed, a stream PROTOCOL_ERROR). The same on both sides: request bodies on the
 * server, response bodies on the client.
 *
 * <p>Not thread-safe: guarded by the connection's lock, as its stream is.
 */
public final class ReceivedBody {
    /** The oldest chunk with unread bytes, or null when none is held; all chunks but the last are full. */
    private byte[] firstChunk;
    /** The chunks after {@link #firstChunk}, oldest first; null until a body needs more than one. */
    private ArrayDeque<byte[]> moreChunks;
    /** Offset of the first unread byte in {@link #firstChunk}. */
    private int readOffset;
    /** Bytes used in the last chunk. */
    private int writeOffset;
    /** Bytes received and not yet taken. */
    private long buffered;
    /** Bytes received in all. */
    private long received;
    /** The declared content-length, or -1. */
    private long declaredLength = -1;

    /**
     * The value of a head's content-length field as the length a body must match: -1 when {@code value} is null (none
     * declared).
     *
     * @throws Http2Exception a stream PROTOCOL_ERROR when it is not a non-negative decimal number (RFC 9110 8.6)
     */
    public static long parseDeclaredLength(int streamId, String value) throws Http2Exception {
        if (value == null) {
            return -1;
        }
        String digits = value.strip();
        boolean valid = !digits.isEmpty() && digits.length() <= 18;
        for (int i = 0; valid && i < digits.length(); i++) {
            char c = digits.charAt(i);
            valid = c >= '0' && c <= '9';
        }
        if (!valid) {
            throw Http2Exception.streamError(streamId, Http2ErrorCode.PROTOCOL_ERROR, "invalid content-length "
                    + value);
        }
        return Long.parseLong(digits);
    }

    /** The content-length the head declared (before any byte arrives); -1 for none. */
    public void declaredLength(long length) {
        this.declaredLength = length;
    }

    public long declaredLength() {
        return declaredLength;
    }

    /** Bytes received and not yet taken. */
    public long buffered() {
        return buffered;
    }

    /** Bytes received in all. */
    public long received() {
        return received;
    }

    /**
     * Keeps {@code len} received body bytes from {@code src}, copied into chunks taken from {@code pool}.
     *
     * @throws Http2Exception a stream PROTOCOL_ERROR when the body grows past its declared length (the bytes are
     *                        kept: the caller resets the stream, which discards them)
     */
    public void append(int streamId, byte[] src, int off, int len, ChunkPool pool) throws Http2Exception {
        received += len;
        buffered += len;
        while (len > 0) {
            byte[] last;
            if (firstChunk == null) {
                last = firstChunk = pool.take();
                writeOffset = 0;
            } else if (writeOffset == ChunkPool.CHUNK_BYTES) {
                if (moreChunks == null) {
                    moreChunks = new ArrayDeque<>(4);
                }
                last = pool.take();
                moreChunks.addLast(last);
                writeOffset = 0;
            } else {
                last = onlyChunk() ? firstChunk : moreChunks.peekLast();
            }
            int n = Math.min(len, ChunkPool.CHUNK_BYTES - writeOffset);
            System.arraycopy(src, off, last, writeOffset, n);
            writeOffset += n;
            off += n;
            len -= n;
        }
        if (declaredLength >= 0 && received > declaredLength) {
            throw Http2Exception.streamError(streamId, Http2ErrorCode.PROTOCOL_ERROR,
                    "body longer than its content-length " + declaredLength);
        }
    }

    /**
     * The body ended (END_STREAM).
     *
     * @throws Http2Exception a stream PROTOCOL_ERROR when it is shorter than its declared length
     */
    public void end(int streamId) throws Http2Exception {
        if (declaredLength >= 0 && received != declaredLength) {
            throw Http2Exception.streamError(streamId, Http2ErrorCode.PROTOCOL_ERROR, "body of " + received
                    + " bytes, content-length " + declaredLength);
        }
    }

    /**
     * Copies up to {@code len} unread bytes into {@code b}, giving each chunk read to its end back to {@code pool};
     * returns how many (0 when none are buffered).
     */
    public int take(byte[] b, int off, int len, ChunkPool pool) {
        int copied = 0;
        while (copied < len && buffered > 0) {
            int end = firstEnd();
            int n = Math.min(len - copied, end - readOffset);
            System.arraycopy(firstChunk, readOffset, b, off + copied, n);
            copied += n;
            readOffset += n;
            buffered -= n;
            if (readOffset == end) {
                dropFirst(pool);
            }
        }
        return copied;
    }

    /** As {@link #take} without copying: drops up to {@code len} unread bytes; returns how many. */
    public int skip(int len, ChunkPool pool) {
        int skipped = 0;
        while (skipped < len && buffered > 0) {
            int end = firstEnd();
            int n = Math.min(len - skipped, end - readOffset);
            skipped += n;
            readOffset += n;
            buffered -= n;
            if (readOffset == end) {
                dropFirst(pool);
            }
        }
        return skipped;
    }

    /** Drops every unread byte, giving the chunks back to {@code pool}; returns how many bytes there were. */
    public long discard(ChunkPool pool) {
        long dropped = buffered;
        while (firstChunk != null) {
            dropFirst(pool);
        }
        buffered = 0;
        return dropped;
    }

    private boolean onlyChunk() {
        return moreChunks == null || moreChunks.isEmpty();
    }

    /** Where the unread bytes of {@link #firstChunk} end. */
    private int firstEnd() {
        return onlyChunk() ? writeOffset : ChunkPool.CHUNK_BYTES;
    }

    /** {@link #firstChunk} was read to its end: back to {@code pool}, the next one moves up. */
    private void dropFirst(ChunkPool pool) {
        pool.give(firstChunk);
        firstChunk = onlyChunk() ? null : moreChunks.pollFirst();
        readOffset = 0;
    }
}
