package dev.shuttle.client.internal;

import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * Read buffers for connections in use. A connection borrows one when it is checked out and gives it back when it
 * goes idle (its buffer is empty then, or it would not be idle), so buffer memory follows the number of active
 * exchanges, not of open connections. Keeps at most {@code maxPooled} free buffers. Thread-safe, never blocks.
 */
public final class BufferPool {
    private final int bufferSize;
    private final ArrayBlockingQueue<ByteBuffer> free;

    public BufferPool(int bufferSize, int maxPooled) {
        this.bufferSize = bufferSize;
        this.free = new ArrayBlockingQueue<>(maxPooled);
    }

    /** An empty buffer in read mode (position = limit = 0). */
    public ByteBuffer acquire() {
        ByteBuffer buffer = free.poll();
        if (buffer == null) {
            buffer = ByteBuffer.allocate(bufferSize);
        }
        buffer.clear().flip();
        return buffer;
    }

    public void release(ByteBuffer buffer) {
        if (buffer.capacity() == bufferSize) {
            free.offer(buffer);
        }
    }

    public int pooled() {
        return free.size();
    }
}
