package dev.shuttle.wire.http2;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A connection's streams by id, for either side: open addressing on the int ids themselves, so a lookup per frame
 * boxes no {@code Integer} and a stream costs no map node (a {@code HashMap<Integer, S>} allocates both, on every
 * request). Stream ids of one side are handed out in order, so {@code id >>> 1} spreads the live ones over
 * consecutive slots. Removal shifts the entries that follow back (no tombstones); a table that grew for a burst
 * shrinks back when it empties, so an idle connection keeps the small one.
 *
 * <p>Not thread-safe: guarded by the connection's lock.
 *
 * @param <S> the side's stream type
 */
public final class StreamTable<S> {
    private static final int INITIAL_CAPACITY = 16;

    /** 0 marks a free slot (stream ids start at 1). */
    private int[] ids;
    private Object[] streams;
    private int mask;
    private int size;

    public StreamTable() {
        allocate(INITIAL_CAPACITY);
    }

    /** The stream of {@code id}, or null. */
    @SuppressWarnings("unchecked")
    public S get(int id) {
        for (int i = slot(id); ; i = (i + 1) & mask) {
            int at = ids[i];
            if (at == id) {
                return (S) streams[i];
            }
            if (at == 0) {
                return null;
            }
        }
    }

    /** Adds or replaces the stream of {@code id} (positive). */
    public void put(int id, S stream) {
        if (id <= 0) {
            throw new IllegalArgumentException("stream id " + id);
        }
        if (2 * (size + 1) > ids.length) {
            resize(2 * ids.length);
        }
        for (int i = slot(id); ; i = (i + 1) & mask) {
            if (ids[i] == id) {
                streams[i] = stream;
                return;
            }
            if (ids[i] == 0) {
                ids[i] = id;
                streams[i] = stream;
                size++;
                return;
            }
        }
    }

    /** Removes the stream of {@code id}; returns whether there was one. */
    public boolean remove(int id) {
        int hole = -1;
        for (int i = slot(id); ids[i] != 0; i = (i + 1) & mask) {
            if (ids[i] == id) {
                hole = i;
                break;
            }
        }
        if (hole < 0) {
            return false;
        }
        // Shift back every entry of the run after the hole that may not stay where it is: one whose home slot is
        // not cyclically in (hole, its slot], which lookups from its home would no longer reach past the hole.
        for (int j = (hole + 1) & mask; ids[j] != 0; j = (j + 1) & mask) {
            int home = slot(ids[j]);
            boolean stays = hole <= j ? home > hole && home <= j : home > hole || home <= j;
            if (!stays) {
                ids[hole] = ids[j];
                streams[hole] = streams[j];
                hole = j;
            }
        }
        ids[hole] = 0;
        streams[hole] = null;
        size--;
        if (size == 0 && ids.length > INITIAL_CAPACITY) {
            allocate(INITIAL_CAPACITY);
        }
        return true;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public void clear() {
        allocate(INITIAL_CAPACITY);
    }

    /** Calls {@code action} with every stream; it must not change the table (see {@link #snapshot}). */
    @SuppressWarnings("unchecked")
    public void forEach(Consumer<? super S> action) {
        for (Object stream : streams) {
            if (stream != null) {
                action.accept((S) stream);
            }
        }
    }

    /** The streams, in a list of their own: for loops that may close (and so remove) them. */
    public List<S> snapshot() {
        List<S> all = new ArrayList<>(size);
        forEach(all::add);
        return all;
    }

    /** The ids, in a list of their own (for diagnostics and tests). */
    public List<Integer> ids() {
        List<Integer> all = new ArrayList<>(size);
        for (int id : ids) {
            if (id != 0) {
                all.add(id);
            }
        }
        return all;
    }

    private int slot(int id) {
        return (id >>> 1) & mask;
    }

    private void allocate(int capacity) {
        ids = new int[capacity];
        streams = new Object[capacity];
        mask = capacity - 1;
        size = 0;
    }

    @SuppressWarnings("unchecked")
    private void resize(int capacity) {
        int[] oldIds = ids;
        Object[] oldStreams = streams;
        allocate(capacity);
        for (int i = 0; i < oldIds.length; i++) {
            if (oldIds[i] != 0) {
                put(oldIds[i], (S) oldStreams[i]);
            }
        }
    }

    @Override
    public String toString() {
        return "StreamTable[" + size + " of " + ids.length + ": " + ids() + "]";
    }
}
