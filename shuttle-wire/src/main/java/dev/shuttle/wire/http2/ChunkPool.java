package dev.shuttle.wire.http2;

import java.util.Arrays;

/**
 * Fixed-size chunks that received DATA payloads are copied into, recycled within one connection: the reader takes
 * them for a stream's received bytes ({@link ReceivedBody#append}), reads give them back once read. Without it, every
 * DATA frame became a new array of its payload's size, which for small bodies was a third of all the bytes a request
 * allocated.
 *
 * <p>Guarded by the connection's lock, like the streams that hold the chunks. Idle state: the free chunks are dropped
 * when the connection parks or closes, and chunks given back meanwhile (a body read after its connection parked) are
 * dropped too, so an idle connection holds none.
 */
public final class ChunkPool {
    /**
     * 4 KiB: a small body fits one chunk (a 1 KiB body pins 4 KiB while unread), a full 16 KiB frame takes four,
     * and a stream's unread bytes are at most a quarter of a chunk from their true size per stream.
     */
    public static final int CHUNK_BYTES = 4096;
    /**
     * Free chunks kept: 64 (256 KiB), one each for as many streams as a busy connection usually has in flight with
     * unread bodies; beyond that, chunks given back are left to the garbage collector.
     */
    static final int MAX_FREE = 64;

    /** Free chunks, {@code count} of them at the front; null until the first chunk is given back. */
    private byte[][] free;
    private int count;
    /** False while the connection is parked or closed: chunks given back are dropped. */
    private boolean retaining = true;

    /** A chunk of {@link #CHUNK_BYTES}, recycled or new. Its contents are whatever it held before. */
    public byte[] take() {
        if (count == 0) {
            return new byte[CHUNK_BYTES];
        }
        byte[] chunk = free[--count];
        free[count] = null;
        return chunk;
    }

    /** Gives back a chunk whose bytes were read or dropped; the caller must not touch it afterwards. */
    public void give(byte[] chunk) {
        if (!retaining || count == MAX_FREE) {
            return;
        }
        if (free == null) {
            free = new byte[MAX_FREE][];
        }
        free[count++] = chunk;
    }

    /** The connection parks or closes: drop the free chunks, and drop those given back until {@link #retain}. */
    public void release() {
        retaining = false;
        if (free != null) {
            Arrays.fill(free, 0, count, null);
            free = null;
        }
        count = 0;
    }

    /** The connection is active again: keep chunks given back. */
    public void retain() {
        retaining = true;
    }

    /** Free chunks held (for tests). */
    public int free() {
        return count;
    }
}
