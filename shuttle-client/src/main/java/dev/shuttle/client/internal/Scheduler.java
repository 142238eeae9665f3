package dev.shuttle.client.internal;

import java.util.PriorityQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs short tasks at a time in the future: pool cleanups and whole-call timeouts. One virtual thread runs the queue
 * and exists only while tasks are pending, so an idle client holds no thread. Tasks must be quick and must not block
 * (they run one after another on that thread). Thread-safe.
 */
public final class Scheduler implements TaskScheduler {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Guarded by lock; ordered by due time, then submission order. */
    private final PriorityQueue<Task> tasks = new PriorityQueue<>();
    /** Guarded by lock: whether the runner thread exists. */
    private boolean running;
    /** Guarded by lock. */
    private long sequence;
    /**
     * Guarded by lock: the due time the runner sleeps until, or Long.MIN_VALUE while it is not sleeping. Only a task
     * due before it needs to wake the runner: a call timeout scheduled and cancelled per request would otherwise
     * wake it (a context switch) on every request, while the earliest task is mostly the one already waited for.
     */
    private long runnerWakesAt = Long.MIN_VALUE;
    private final String name;

    public Scheduler(String name) {
        this.name = name;
    }

    @Override
    public Task schedule(long delayNanos, Runnable action) {
        lock.lock();
        try {
            Task task = new Task(Deadline.after(System.nanoTime(), Math.max(0, delayNanos)), sequence++, action);
            tasks.add(task);
            if (!running) {
                running = true;
                Thread.ofVirtual().name(name).start(this::runLoop);
            } else if (task.due < runnerWakesAt) {
                changed.signal();
            }
            return task;
        } finally {
            lock.unlock();
        }
    }

    /** Tasks waiting to run (for tests). */
    public int pending() {
        lock.lock();
        try {
            return tasks.size();
        } finally {
            lock.unlock();
        }
    }

    /** Whether the runner thread exists (for tests: it must not outlive the queue). */
    public boolean isRunning() {
        lock.lock();
        try {
            return running;
        } finally {
            lock.unlock();
        }
    }

    private void runLoop() {
        while (true) {
            Task due;
            lock.lock();
            try {
                while (true) {
                    Task head = tasks.peek();
                    if (head == null) {
                        running = false;
                        return;
                    }
                    long wait = head.due - System.nanoTime();
                    if (wait <= 0) {
                        due = tasks.poll();
                        break;
                    }
                    runnerWakesAt = head.due;
                    try {
                        changed.awaitNanos(wait);
                    } finally {
                        runnerWakesAt = Long.MIN_VALUE;
                    }
                }
            } catch (InterruptedException e) {
                // Nobody interrupts this thread on purpose; keep serving the queue.
                continue;
            } finally {
                lock.unlock();
            }
            try {
                due.action.run();
            } catch (RuntimeException | Error e) {
                System.getLogger(Scheduler.class.getName())
                        .log(System.Logger.Level.WARNING, "scheduled task failed", e);
            }
        }
    }

    private void cancel(Task task) {
        lock.lock();
        try {
            tasks.remove(task);
        } finally {
            lock.unlock();
        }
    }

    /** A scheduled action; {@link #cancel()} is idempotent and harmless after the action ran. */
    public final class Task implements Comparable<Task>, Scheduled {
        private final long due;
        private final long order;
        private final Runnable action;

        private Task(long due, long order, Runnable action) {
            this.due = due;
            this.order = order;
            this.action = action;
        }

        @Override
        public void cancel() {
            Scheduler.this.cancel(this);
        }

        @Override
        public int compareTo(Task other) {
            int byTime = Long.compare(due, other.due);
            return byTime != 0 ? byTime : Long.compare(order, other.order);
        }
    }
}
