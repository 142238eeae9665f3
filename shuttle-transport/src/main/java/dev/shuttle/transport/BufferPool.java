package dev.shuttle.transport;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Heap buffers for connections that are moving bytes: read and write buffers of active connections, TLS record
 * buffers, HTTP/2 frames. A connection borrows them when it becomes active and gives them back before it goes idle,
 * so buffer memory follows the number of <em>active</em> connections, not open ones. Keeps at most
 * {@code maxPooled} free buffers (a burst's worth); the rest are left to the garbage collector. Thread-safe, never
 * blocks.
 *
 * <p>Lock-free, because every exchange takes and returns buffers, and a virtual thread parked on a contended lock
 * here would cost far more than the moment the lock is held. Free buffers sit in slots claimed and filled by compare-and-set, scanning from
 * the first slot, so they gather at the front and a scan usually ends at once. A scan that misses a buffer being
 * returned at that moment allocates a new one, and a return that finds every slot full drops its buffer: both only
 * cost memory the bound already allows.
 */
public final class BufferPool {
    /**
     * The size of every pooled buffer: 17 KiB. It holds a whole TLS record as it travels (JSSE's packet buffer size is
     * 16 709 bytes), a whole HTTP/2 frame of the default maximum size (16 384 + 9), and a typical HTTP/1 head with its
     * first body bytes. A fixed 16 KiB buffer could hold neither a TLS record nor a full-size frame, and a connection
     * would end in "buffer full" on input it must accept.
     */
    public static final int IO_BUFFER_BYTES = 17 * 1024;

    private final int bufferSize;
    /** Free buffers; null marks an empty slot. */
    private final AtomicReferenceArray<ByteBuffer> free;
    private final LongAdder allocations = new LongAdder();

    public BufferPool(int maxPooled) {
        this(IO_BUFFER_BYTES, maxPooled);
    }

    public BufferPool(int bufferSize, int maxPooled) {
        if (bufferSize <= 0 || maxPooled <= 0) {
            throw new IllegalArgumentException("bufferSize and maxPooled must be positive");
        }
        this.bufferSize = bufferSize;
        this.free = new AtomicReferenceArray<>(maxPooled);
    }

    public int bufferSize() {
        return bufferSize;
    }

    /** A cleared buffer (position 0, limit = capacity), pooled or new. */
    public ByteBuffer acquire() {
        ByteBuffer buffer = takeFree();
        if (buffer == null) {
            allocations.increment();
            buffer = ByteBuffer.allocate(bufferSize);
        }
        return buffer.clear();
    }

    /** An empty buffer in read mode (position = limit = 0), for a source that appends and then consumes. */
    public ByteBuffer acquireEmpty() {
        return acquire().flip();
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

    /**
     * Gives a buffer back; the caller must not touch it afterwards. A buffer of another size (a one-off larger buffer
     * for an oversized TLS record, say) is dropped.
     */
    public void release(ByteBuffer buffer) {
        if (buffer == null || buffer.capacity() != bufferSize || buffer.isReadOnly() || buffer.isDirect()) {
            return;
        }
        for (int i = 0; i < free.length(); i++) {
            if (free.get(i) == null && free.compareAndSet(i, null, buffer)) {
                return;
            }
        }
    }

    /** Free buffers held right now (for tests and diagnostics). */
    public int pooled() {
        int count = 0;
        for (int i = 0; i < free.length(); i++) {
            if (free.get(i) != null) {
                count++;
            }
        }
        return count;
    }

    /** Buffers this pool has allocated since it was made: flat while connections recycle what they borrowed. */
    public long allocations() {
        return allocations.sum();
    }
}
