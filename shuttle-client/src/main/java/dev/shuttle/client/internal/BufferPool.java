package dev.shuttle.client.internal;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Read buffers for connections in use, and write buffers for requests with a body. A connection borrows one when it
 * is checked out and gives it back when it goes idle (its buffer is empty then, or it would not be idle), so buffer
 * memory follows the number of active exchanges, not of open connections. Keeps at most {@code maxPooled} free
 * buffers. Thread-safe, never blocks.
 *
 * <p>Lock-free: every exchange takes and returns a buffer, so with many concurrent requests a lock here (an
 * ArrayBlockingQueue's) was contended often enough that virtual threads parked on it, each park costing far more than
 * the few nanoseconds the lock is held. Free buffers sit in slots that are claimed and filled by compare-and-set,
 * scanning from the first slot, so they gather at the front and a scan usually ends at once. A scan that misses a
 * buffer being returned at that moment allocates a new one (and a return that finds every slot full drops its buffer):
 * both only cost memory the bound already allows.
 */
public final class BufferPool {
    private final int bufferSize;
    /** Free buffers; null marks an empty slot. */
    private final AtomicReferenceArray<ByteBuffer> free;

    public BufferPool(int bufferSize, int maxPooled) {
        this.bufferSize = bufferSize;
        this.free = new AtomicReferenceArray<>(maxPooled);
    }

    /** An empty buffer in read mode (position = limit = 0). */
    public ByteBuffer acquire() {
        ByteBuffer buffer = takeFree();
        if (buffer == null) {
            buffer = ByteBuffer.allocate(bufferSize);
        }
        buffer.clear().flip();
        return buffer;
    }

    private ByteBuffer takeFree() {
        for (int i = 0; i < free.length(); i++) {
            ByteBuffer candidate = free.get(i);
            if (candidate != null && free.compareAndSet(i, candidate, null)) {
                return candidate;
            }
        }
        return null;
    }

    public void release(ByteBuffer buffer) {
        if (buffer.capacity() != bufferSize) {
            return;
        }
        for (int i = 0; i < free.length(); i++) {
            if (free.get(i) == null && free.compareAndSet(i, null, buffer)) {
                return;
            }
        }
    }

    /** Free buffers held right now. */
    public int pooled() {
        int count = 0;
        for (int i = 0; i < free.length(); i++) {
            if (free.get(i) != null) {
                count++;
            }
        }
        return count;
    }
}
