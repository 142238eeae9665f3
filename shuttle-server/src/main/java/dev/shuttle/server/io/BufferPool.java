package dev.shuttle.server.io;

import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * A bounded pool of equal-sized heap buffers. Active connections borrow one and give it back when they park or close,
 * so the memory held by buffers follows the number of <em>active</em> connections, not open ones. The pool keeps at
 * most {@code maxPooled} free buffers (a burst's worth), dropping the rest for the garbage collector, so it never
 * holds more than a bounded amount itself. Thread-safe; never blocks.
 */
public final class BufferPool {
    private final int bufferSize;
    private final ArrayBlockingQueue<ByteBuffer> free;

    public BufferPool(int bufferSize, int maxPooled) {
        if (bufferSize <= 0 || maxPooled <= 0) {
            throw new IllegalArgumentException("bufferSize and maxPooled must be positive");
        }
        this.bufferSize = bufferSize;
        this.free = new ArrayBlockingQueue<>(maxPooled);
    }

    public int bufferSize() {
        return bufferSize;
    }

    /** A cleared buffer (position 0, limit = capacity), pooled or new. */
    public ByteBuffer acquire() {
        ByteBuffer buffer = free.poll();
        return buffer != null ? buffer : ByteBuffer.allocate(bufferSize);
    }

    /** Returns a buffer obtained from {@link #acquire()}; the caller must not touch it afterwards. */
    public void release(ByteBuffer buffer) {
        if (buffer.capacity() != bufferSize) {
            throw new IllegalArgumentException("buffer of " + buffer.capacity() + " bytes is not from this pool");
        }
        buffer.clear();
        free.offer(buffer);
    }

    /** Free buffers held right now (for tests and diagnostics). */
    public int pooled() {
        return free.size();
    }
}
