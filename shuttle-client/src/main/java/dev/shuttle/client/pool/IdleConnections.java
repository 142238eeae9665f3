package dev.shuttle.client.pool;

import dev.shuttle.client.PoolConfig;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The idle side of the pool: each origin's LIFO list of idle connections ({@link OriginPool#idle}, most recently
 * idle first), the per-origin and total limits, and expiry. Entries it removes are handed back to the caller in state
 * IDLE, for the pool to close after unlocking. Every method runs under the pool's lock.
 */
final class IdleConnections {
    private final ReentrantLock lock;
    private final PoolConfig config;
    private final long idleTimeoutNanos;
    /** Guarded by lock: idle connections across all origins. */
    private int count;

    IdleConnections(ReentrantLock lock, PoolConfig config) {
        this.lock = lock;
        this.config = config;
        this.idleTimeoutNanos = config.idleTimeout().toNanos();
    }

    /** The most recently idle connection that has not expired, or null; expired ones go to {@code expired}. */
    PoolEntry pollLocked(OriginPool pool, long now, List<PoolEntry> expired) {
        assert lock.isHeldByCurrentThread();
        PoolEntry entry;
        while ((entry = pool.idle.pollFirst()) != null) {
            count--;
            if (now - entry.idleSince < idleTimeoutNanos) {
                return entry;
            }
            expired.add(entry);
        }
        return null;
    }

    /**
     * Adds {@code entry} (already IDLE) in its place by idle time (the front, unless the watcher handed it back), then
     * trims: beyond the origin's limit (its decayed peak concurrency, or the fixed {@code maxIdlePerHost}) its oldest
     * go, beyond {@code maxIdleTotal} the least recently used across all origins.
     */
    void pushLocked(OriginPool pool, PoolEntry entry, long now, Collection<OriginPool> all, List<PoolEntry> evicted) {
        assert lock.isHeldByCurrentThread();
        // Keep the list ordered by idle time: expiry, watching and eviction read it from its old end. An entry the
        // watcher handed back keeps its old idle time (Returns.idleConnectionWoke) and goes behind the younger
        // ones; put at the front, it stopped maintenance from watching those behind it and stayed past its expiry.
        PoolEntry younger = pool.idle.peekFirst();
        if (younger != null && younger.idleSince > entry.idleSince) {
            List<PoolEntry> ahead = new ArrayList<>();
            while ((younger = pool.idle.peekFirst()) != null && younger.idleSince > entry.idleSince) {
                ahead.add(pool.idle.pollFirst());
            }
            pool.idle.addFirst(entry);
            for (int i = ahead.size() - 1; i >= 0; i--) {
                pool.idle.addFirst(ahead.get(i));
            }
        } else {
            pool.idle.addFirst(entry);
        }
        count++;
        int allowed = config.adaptiveIdle() ? pool.peak.allowance(now) : config.maxIdlePerHost();
        while (pool.idle.size() > allowed) {
            evicted.add(pollOldestLocked(pool));
        }
        while (count > config.maxIdleTotal()) {
            OriginPool oldest = null;
            for (OriginPool candidate : all) {
                PoolEntry last = candidate.idle.peekLast();
                if (last != null && (oldest == null || last.idleSince < oldest.idle.peekLast().idleSince)) {
                    oldest = candidate;
                }
            }
            evicted.add(pollOldestLocked(oldest));
        }
    }

    /**
     * Removes the connections of {@code pool} idle for the idle timeout or longer at {@code now}.
     *
     * @return nanoseconds until its next idle connection expires, or -1 when none is left
     */
    long expireLocked(OriginPool pool, long now, List<PoolEntry> expired) {
        assert lock.isHeldByCurrentThread();
        PoolEntry last;
        while ((last = pool.idle.peekLast()) != null && now - last.idleSince >= idleTimeoutNanos) {
            expired.add(pollOldestLocked(pool));
        }
        return last == null ? -1 : last.idleSince + idleTimeoutNanos - now;
    }

    /**
     * Picks the connections of {@code pool} idle for {@code watchAfter} or longer that are not watched yet, scanning
     * from the most recent: the young ones first, then the old unwatched ones, up to the first watched one (those
     * behind it are older and watched already).
     *
     * @return nanoseconds until its next connection is old enough to be watched, or -1 when none is waiting for that
     */
    long dueForWatchLocked(OriginPool pool, long now, long watchAfter, List<PoolEntry> due) {
        assert lock.isHeldByCurrentThread();
        long next = -1;
        for (PoolEntry entry : pool.idle) {
            long age = now - entry.idleSince;
            if (age < watchAfter) {
                next = watchAfter - age; // later entries are older: the last young one comes due first
                continue;
            }
            if (entry.watched) {
                break;
            }
            due.add(entry);
        }
        return next;
    }

    /** Removes {@code entry} from its origin's idle list; false when it was not there. */
    boolean removeLocked(PoolEntry entry) {
        assert lock.isHeldByCurrentThread();
        if (entry.origin.idle.remove(entry)) {
            count--;
            return true;
        }
        return false;
    }

    /** Removes every idle connection of {@code pool}. */
    void clearLocked(OriginPool pool, List<PoolEntry> removed) {
        assert lock.isHeldByCurrentThread();
        PoolEntry entry;
        while ((entry = pool.idle.pollFirst()) != null) {
            count--;
            removed.add(entry);
        }
    }

    /** Takes the least recently used idle connection of {@code pool}, or null. */
    PoolEntry pollOldestLocked(OriginPool pool) {
        assert lock.isHeldByCurrentThread();
        if (pool.idle.isEmpty()) {
            return null;
        }
        return pollOldestUncheckedLocked(pool);
    }

    private PoolEntry pollOldestUncheckedLocked(OriginPool pool) {
        assert lock.isHeldByCurrentThread();
        count--;
        return pool.idle.pollLast();
    }

    int countLocked() {
        assert lock.isHeldByCurrentThread();
        return count;
    }
}
