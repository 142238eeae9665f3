package dev.shuttle.transport;

import java.util.Comparator;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Deadlines of parked connections, earliest first, with O(log n) add, remove and expiry. Time is passed in, so tests
 * drive it with a fake clock. Deadlines are {@code System.nanoTime()} values ordered as plain longs, which is right
 * for any clock that does not wrap within a run (HotSpot's counts from boot). Not thread-safe: owned by the
 * readiness watcher thread.
 *
 * @param <T> what carries a deadline
 */
public final class DeadlineQueue<T extends DeadlineQueue.Entry> {
    /** Something with a deadline; the queue owns the two fields below while the entry is in it. */
    public abstract static class Entry {
        long deadline;
        long sequence; // breaks ties between equal deadlines, so the set never merges two entries
        boolean queued;

        /** The deadline this entry was added with (nanoTime). */
        public long deadline() {
            return deadline;
        }
    }

    public static final long NONE = Long.MAX_VALUE;

    private final TreeSet<Entry> entries = new TreeSet<>(Comparator
            .comparingLong((Entry entry) -> entry.deadline)
            .thenComparingLong(entry -> entry.sequence));
    private long nextSequence;

    public void add(T entry, long deadline) {
        if (entry.queued) {
            throw new IllegalStateException("already queued");
        }
        entry.deadline = deadline;
        entry.sequence = nextSequence++;
        entry.queued = true;
        entries.add(entry);
    }

    /** Removes {@code entry} if queued; returns whether it was. */
    public boolean remove(T entry) {
        if (!entry.queued) {
            return false;
        }
        entry.queued = false;
        return entries.remove(entry);
    }

    /**
     * Removes every entry whose deadline is at or before {@code now} and hands it to {@code expired}, earliest first.
     *
     * @return the next deadline still queued, or {@link #NONE}
     */
    @SuppressWarnings("unchecked")
    public long expire(long now, Consumer<? super T> expired) {
        while (!entries.isEmpty()) {
            Entry first = entries.first();
            if (first.deadline - now > 0) {
                return first.deadline;
            }
            entries.pollFirst();
            first.queued = false;
            expired.accept((T) first);
        }
        return NONE;
    }

    /** Removes every entry, handing each to {@code action}. */
    @SuppressWarnings("unchecked")
    public void drain(Consumer<? super T> action) {
        while (!entries.isEmpty()) {
            Entry first = entries.pollFirst();
            first.queued = false;
            action.accept((T) first);
        }
    }

    public int size() {
        return entries.size();
    }
}
