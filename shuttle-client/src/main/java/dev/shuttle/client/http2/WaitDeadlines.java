package dev.shuttle.client.http2;

import dev.shuttle.client.internal.Deadline;
import dev.shuttle.client.internal.TaskScheduler;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The deadlines of callers waiting on a connection's streams (read and response-header timeouts), kept by one check
 * on the client's scheduler instead of a timed park per wait. A timed park of a virtual thread hands its timeout to
 * the JDK's delay scheduler, a platform thread woken to file it and again to drop it when the wait ends early, which
 * is nearly always: at tens of thousands of waits a second those wake-ups cost more CPU than the waits themselves.
 * Here a caller waits untimed and only links its stream into a list; the check runs at the earliest deadline,
 * signals the streams whose deadline passed (their callers wake, see the time and throw) and schedules itself for the
 * next one. Read deadlines only grow, so most waits find a check due before theirs and schedule nothing.
 *
 * <p>Guarded by the connection's lock, as the streams are. Lock order: connection, then the scheduler's own lock
 * (a scheduler never calls back under it).
 */
final class WaitDeadlines {
    private final ReentrantLock lock;
    private final LongSupplier clock;

    /** First of the streams whose caller waits with a deadline, linked through {@link Http2Stream#waitNext}. */
    private Http2Stream first;
    /** The client's scheduler, from the first wait with a deadline. */
    private TaskScheduler scheduler;
    /** The scheduled check, or null. */
    private TaskScheduler.Scheduled check;
    /** When it runs, or {@link Deadline#NONE}. */
    private long checkAt = Deadline.NONE;
    /** Identifies the current check, so one that was replaced while already running does nothing. */
    private long checkGeneration;

    WaitDeadlines(ReentrantLock lock, LongSupplier clock) {
        this.lock = lock;
        this.clock = clock;
    }

    /** {@code stream}'s caller waits until {@code deadline} ({@link Deadline#NONE}: no deadline, nothing to do). */
    void addLocked(Http2Stream stream, long deadline, long now, TaskScheduler scheduler) {
        assert lock.isHeldByCurrentThread();
        if (deadline == Deadline.NONE) {
            return;
        }
        if (stream.waitListed) {
            removeLocked(stream);
        }
        stream.waitDeadline = deadline;
        stream.waitListed = true;
        stream.waitPrev = null;
        stream.waitNext = first;
        if (first != null) {
            first.waitPrev = stream;
        }
        first = stream;
        if (this.scheduler == null) {
            this.scheduler = scheduler;
        }
        if (deadline < checkAt) {
            if (check != null) {
                check.cancel();
            }
            scheduleLocked(deadline, now);
        }
    }

    /** {@code stream}'s caller stopped waiting. */
    void removeLocked(Http2Stream stream) {
        assert lock.isHeldByCurrentThread();
        if (!stream.waitListed) {
            return;
        }
        if (stream.waitPrev != null) {
            stream.waitPrev.waitNext = stream.waitNext;
        } else {
            first = stream.waitNext;
        }
        if (stream.waitNext != null) {
            stream.waitNext.waitPrev = stream.waitPrev;
        }
        stream.waitPrev = null;
        stream.waitNext = null;
        stream.waitListed = false;
    }

    /** Streams in the list (for tests). */
    int waitingLocked() {
        assert lock.isHeldByCurrentThread();
        int n = 0;
        for (Http2Stream s = first; s != null; s = s.waitNext) {
            n++;
        }
        return n;
    }

    private void scheduleLocked(long at, long now) {
        assert lock.isHeldByCurrentThread();
        long generation = ++checkGeneration;
        checkAt = at;
        check = scheduler.schedule(Math.max(0, at - now), () -> check(generation));
    }

    /** On the scheduler's thread: wakes the callers whose deadline passed, then waits for the next deadline. */
    private void check(long generation) {
        lock.lock();
        try {
            if (generation != checkGeneration) {
                return; // replaced by an earlier check
            }
            check = null;
            checkAt = Deadline.NONE;
            long now = clock.getAsLong();
            long next = Deadline.NONE;
            for (Http2Stream s = first; s != null; s = s.waitNext) {
                if (s.waitDeadline <= now) {
                    s.changed.signalAll(); // it wakes, finds its deadline passed and times out
                } else {
                    next = Math.min(next, s.waitDeadline);
                }
            }
            if (next != Deadline.NONE) {
                scheduleLocked(next, now);
            }
        } finally {
            lock.unlock();
        }
    }
}
