package dev.shuttle.transport;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Deadlines of parked connections, earliest first, with O(log n) add, remove and expiry. Time is passed in, so tests
 * drive it with a fake clock. Deadlines are {@code System.nanoTime()} values ordered as plain longs, which is right
 * for any clock that does not wrap within a run (HotSpot's counts from boot). Not thread-safe: owned by the
 * readiness watcher thread.
 *
 * <p>A binary min-heap whose entries know their own slot, so {@link #remove} needs no search. Intrusive because every
 * parked connection has an entry: it costs its two fields and one array slot, with no tree node and no tie-breaking
 * sequence number. Entries with equal deadlines are both kept, in no particular order between them.
 *
 * @param <T> what carries a deadline
 */
public final class DeadlineQueue<T extends DeadlineQueue.Entry> {
    /** Something with a deadline; the queue owns the two fields below while the entry is in it. */
    public abstract static class Entry {
        long deadline;
        /** The entry's slot in the heap, or {@link #NOT_QUEUED}. */
        int index = NOT_QUEUED;

        /** The deadline this entry was added with (nanoTime). */
        public long deadline() {
            return deadline;
        }
    }

    public static final long NONE = Long.MAX_VALUE;
    private static final int NOT_QUEUED = -1;
    private static final int INITIAL_CAPACITY = 16;

    /** heap[0] has the earliest deadline; heap[i]'s deadline is at or before its children's, 2i+1 and 2i+2. */
    private Entry[] heap = new Entry[INITIAL_CAPACITY];
    private int size;

    public void add(T entry, long deadline) {
        if (entry.index != NOT_QUEUED) {
            throw new IllegalStateException("already queued");
        }
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
        }
        entry.deadline = deadline;
        siftUp(size++, entry);
    }

    /** Removes {@code entry} if queued; returns whether it was. */
    public boolean remove(T entry) {
        int i = entry.index;
        if (i == NOT_QUEUED) {
            return false;
        }
        removeAt(i);
        return true;
    }

    /**
     * Removes every entry whose deadline is at or before {@code now} and hands it to {@code expired}, earliest first.
     *
     * @return the next deadline still queued, or {@link #NONE}
     */
    @SuppressWarnings("unchecked")
    public long expire(long now, Consumer<? super T> expired) {
        while (size > 0) {
            Entry first = heap[0];
            if (first.deadline - now > 0) {
                return first.deadline;
            }
            removeAt(0);
            expired.accept((T) first);
        }
        return NONE;
    }

    /** Removes every entry, handing each to {@code action}, earliest first. */
    @SuppressWarnings("unchecked")
    public void drain(Consumer<? super T> action) {
        while (size > 0) {
            Entry first = heap[0];
            removeAt(0);
            action.accept((T) first);
        }
    }

    public int size() {
        return size;
    }

    private void removeAt(int i) {
        Entry removed = heap[i];
        removed.index = NOT_QUEUED;
        int last = --size;
        Entry moved = heap[last];
        heap[last] = null;
        if (i != last) {
            // The last entry fills the hole; it may belong above it or below it.
            siftDown(i, moved);
            if (heap[i] == moved) {
                siftUp(i, moved);
            }
        }
        if (heap.length > INITIAL_CAPACITY && size < heap.length / 4) {
            heap = Arrays.copyOf(heap, heap.length / 2); // a burst of parks that ended gives its slots back
        }
    }

    /** Places {@code entry} at {@code i} or above, moving later parents down. */
    private void siftUp(int i, Entry entry) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            Entry above = heap[parent];
            if (above.deadline <= entry.deadline) {
                break;
            }
            place(i, above);
            i = parent;
        }
        place(i, entry);
    }

    /** Places {@code entry} at {@code i} or below, moving earlier children up. */
    private void siftDown(int i, Entry entry) {
        int half = size >>> 1; // slots below this have a child
        while (i < half) {
            int child = 2 * i + 1;
            Entry earlier = heap[child];
            int right = child + 1;
            if (right < size && heap[right].deadline < earlier.deadline) {
                child = right;
                earlier = heap[child];
            }
            if (entry.deadline <= earlier.deadline) {
                break;
            }
            place(i, earlier);
            i = child;
        }
        place(i, entry);
    }

    private void place(int i, Entry entry) {
        heap[i] = entry;
        entry.index = i;
    }
}
