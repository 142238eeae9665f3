package dev.shuttle.client.testing;

import dev.shuttle.client.internal.TaskScheduler;
import java.util.ArrayList;
import java.util.List;

/** A scheduler the test drives: it records what was scheduled and runs it only when asked. Thread-safe. */
public final class ManualScheduler implements TaskScheduler {
    /** One scheduled action. */
    public final class Task implements Scheduled {
        public final long delayNanos;
        private final Runnable action;
        private boolean cancelled;

        private Task(long delayNanos, Runnable action) {
            this.delayNanos = delayNanos;
            this.action = action;
        }

        @Override
        public void cancel() {
            synchronized (ManualScheduler.this) {
                cancelled = true;
                tasks.remove(this);
            }
        }
    }

    private final List<Task> tasks = new ArrayList<>();

    @Override
    public synchronized Scheduled schedule(long delayNanos, Runnable action) {
        Task task = new Task(delayNanos, action);
        tasks.add(task);
        return task;
    }

    /** Tasks scheduled and neither run nor cancelled. */
    public synchronized List<Task> pending() {
        return List.copyOf(tasks);
    }

    /** Runs {@code task} if it is still pending (neither run nor cancelled); returns whether it ran. */
    public boolean run(Task task) {
        synchronized (this) {
            if (!tasks.remove(task)) {
                return false;
            }
        }
        task.action.run();
        return true;
    }

    /** Runs every pending task once (tasks they schedule wait for the next call); returns how many ran. */
    public int runPending() {
        List<Task> due;
        synchronized (this) {
            due = List.copyOf(tasks);
            tasks.clear();
        }
        for (Task task : due) {
            task.action.run();
        }
        return due.size();
    }
}
