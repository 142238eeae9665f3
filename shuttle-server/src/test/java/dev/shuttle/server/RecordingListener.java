package dev.shuttle.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/** Records every state change and lets a test wait, without sleeping, until the record satisfies a condition. */
final class RecordingListener implements ConnectionListener {
    /** One call, with the name of the thread that made it. */
    record Event(long connectionId, ConnectionState from, ConnectionState to, ConnectionInfo connection,
                 String thread) {
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Guarded by lock. */
    private final List<Event> events = new ArrayList<>();

    @Override
    public void onStateChange(ConnectionInfo connection, ConnectionState from, ConnectionState to) {
        lock.lock();
        try {
            events.add(new Event(connection.id(), from, to, connection, Thread.currentThread().getName()));
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    List<Event> events() {
        lock.lock();
        try {
            return List.copyOf(events);
        } finally {
            lock.unlock();
        }
    }

    /** The states one connection went through, in order, starting with NEW. */
    List<ConnectionState> statesOf(long connectionId) {
        return events().stream().filter(e -> e.connectionId() == connectionId).map(Event::to).toList();
    }

    long count(ConnectionState to) {
        return events().stream().filter(e -> e.to() == to).count();
    }

    /** Waits (up to 10 s, a bound for broken code, never a timing assumption) until {@code condition} holds. */
    void await(String what, Predicate<List<Event>> condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        lock.lock();
        try {
            while (!condition.test(events)) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    throw new AssertionError("timed out waiting for " + what + "; events: " + events);
                }
                changed.await(remaining, TimeUnit.NANOSECONDS);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Waits until {@code count} transitions into {@code to} have been seen. */
    void awaitCount(ConnectionState to, long count) throws InterruptedException {
        await(count + " x " + to, list -> list.stream().filter(e -> e.to() == to).count() >= count);
    }
}
