package dev.shuttle.wire.http1;

import java.nio.ByteBuffer;

/**
 * Collects one LF-terminated line out of input that may arrive in pieces, without ever rescanning a byte. When a
 * whole line sits in a heap buffer it is handed out in place (no copy); only a line split across calls is copied,
 * into a small buffer that grows up to the caller's bound. Not thread-safe: owned by the parser or decoder using it.
 */
final class LineReader {
    /** Lines are usually short; this covers typical request lines and fields without growing. */
    private static final int INITIAL_CAPACITY = 256;
    /** A buffer grown past this by one large head is dropped on {@link #release()} so idle parsers stay small. */
    private static final int RETAINED_CAPACITY = 2048;

    enum Result { LINE, NEED_MORE, TOO_LONG }

    private byte[] partial; // bytes of a line split across calls; null until one is
    private int partialLength;

    // The last complete line, LF excluded (a CR before it is included): valid until the next call to read().
    private byte[] lineArray;
    private int lineStart;
    private int lineEnd;
    private int lineBytes; // bytes the line occupied on the wire, its LF included

    /**
     * Consumes bytes of the current line from {@code input}.
     *
     * @param maxBytes the most bytes this line may occupy, its CR and LF included
     * @return LINE when a line is complete (see {@link #array()}, {@link #start()}, {@link #end()}); NEED_MORE when
     *         {@code input} ran out first (everything consumed); TOO_LONG when the line would exceed {@code maxBytes}
     *         (nothing beyond the bound consumed)
     */
    Result read(ByteBuffer input, int maxBytes) {
        int pos = input.position();
        int limit = input.limit();
        int budget = Math.max(0, maxBytes - partialLength);
        int scanEnd = (int) Math.min(limit, (long) pos + budget);
        int lf = indexOfLf(input, pos, scanEnd);
        if (lf < 0) {
            if (scanEnd < limit) {
                return Result.TOO_LONG;
            }
            appendPartial(input, pos, limit - pos);
            input.position(limit);
            return Result.NEED_MORE;
        }
        int count = lf - pos;
        if (partialLength == 0 && input.hasArray()) {
            lineArray = input.array();
            lineStart = input.arrayOffset() + pos;
            lineEnd = lineStart + count;
            lineBytes = count + 1;
        } else {
            appendPartial(input, pos, count);
            lineArray = partial;
            lineStart = 0;
            lineEnd = partialLength;
            lineBytes = partialLength + 1;
            partialLength = 0;
        }
        input.position(lf + 1);
        return Result.LINE;
    }

    private static int indexOfLf(ByteBuffer input, int from, int to) {
        if (input.hasArray()) {
            byte[] array = input.array();
            int offset = input.arrayOffset();
            for (int i = from + offset, end = to + offset; i < end; i++) {
                if (array[i] == '\n') {
                    return i - offset;
                }
            }
            return -1;
        }
        for (int i = from; i < to; i++) {
            if (input.get(i) == '\n') {
                return i;
            }
        }
        return -1;
    }

    private void appendPartial(ByteBuffer input, int from, int count) {
        if (count == 0) {
            return;
        }
        int needed = partialLength + count;
        if (partial == null || partial.length < needed) {
            int capacity = Math.max(INITIAL_CAPACITY, partial == null ? 0 : partial.length);
            while (capacity < needed) {
                capacity = capacity > (Integer.MAX_VALUE >> 1) ? needed : capacity << 1;
            }
            byte[] grown = new byte[capacity];
            if (partialLength > 0) {
                System.arraycopy(partial, 0, grown, 0, partialLength);
            }
            partial = grown;
        }
        input.get(from, partial, partialLength, count);
        partialLength = needed;
    }

    /** Bytes of an unfinished line held so far. */
    int pendingBytes() {
        return partialLength;
    }

    byte[] array() {
        return lineArray;
    }

    int start() {
        return lineStart;
    }

    /** End of the line's content, exclusive, LF excluded. */
    int end() {
        return lineEnd;
    }

    /** Wire bytes of the last complete line, LF included. */
    int lineBytes() {
        return lineBytes;
    }

    /** Forgets any partial line and drops a buffer that one large line made big. */
    void release() {
        partialLength = 0;
        lineArray = null;
        if (partial != null && partial.length > RETAINED_CAPACITY) {
            partial = null;
        }
    }
}
