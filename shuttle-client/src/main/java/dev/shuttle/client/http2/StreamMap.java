package dev.shuttle.client.http2;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * A connection's open streams by id: open addressing on the int ids themselves, so a lookup per frame boxes no
 * {@code Integer} and a stream costs no map node (a {@code HashMap<Integer, Http2Stream>} allocated both, on every
 * request). Stream ids are odd and handed out in order, so {@code id >>> 1} spreads the open ones over consecutive
 * slots. Removal shifts the entries that follow back (no tombstones); a table that grew for a burst shrinks back
 * when it empties, so an idle connection keeps the small one.
 *
 * <p>Not thread-safe: guarded by the connection's lock.
 */
final class StreamMap {
    private static final int INITIAL_CAPACITY = 16;

    /** 0 marks a free slot (stream ids start at 1). */
    private int[] ids;
    private Http2Stream[] streams;
    private int mask;
    private int size;

    StreamMap() {
        allocate(INITIAL_CAPACITY);
    }

    Http2Stream get(int id) {
        for (int i = slot(id); ; i = (i + 1) & mask) {
            int at = ids[i];
            if (at == id) {
                return streams[i];
            }
            if (at == 0) {
                return null;
            }
        }
    }

    /** Adds or replaces the stream of {@code id} (positive). */
    void put(int id, Http2Stream stream) {
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

    void remove(int id) {
        int hole = -1;
        for (int i = slot(id); ids[i] != 0; i = (i + 1) & mask) {
            if (ids[i] == id) {
                hole = i;
                break;
            }
        }
        if (hole < 0) {
            return;
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
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    void clear() {
        allocate(INITIAL_CAPACITY);
    }

    /** Calls {@code action} with every stream; it must not change the map (see {@link #snapshot}). */
    void forEach(Consumer<Http2Stream> action) {
        for (Http2Stream stream : streams) {
            if (stream != null) {
                action.accept(stream);
            }
        }
    }

    /** The streams, in a list of their own: for loops that may close (and so remove) them. */
    List<Http2Stream> snapshot() {
        List<Http2Stream> all = new ArrayList<>(size);
        forEach(all::add);
        return all;
    }

    private int slot(int id) {
        return (id >>> 1) & mask;
    }

    private void allocate(int capacity) {
        ids = new int[capacity];
        streams = new Http2Stream[capacity];
        mask = capacity - 1;
        size = 0;
    }

    private void resize(int capacity) {
        int[] oldIds = ids;
        Http2Stream[] oldStreams = streams;
        allocate(capacity);
        for (int i = 0; i < oldIds.length; i++) {
            if (oldIds[i] != 0) {
                put(oldIds[i], oldStreams[i]);
            }
        }
    }

    @Override
    public String toString() {
        return "StreamMap[" + size + " of " + ids.length + ": " + Arrays.toString(snapshot().toArray()) + "]";
    }
}
