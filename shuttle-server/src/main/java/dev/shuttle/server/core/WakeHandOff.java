package dev.shuttle.server.core;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Starts the threads of connections the watcher woke, from a carrier when one is taking keep-alive turns. One per
 * server.
 *
 * <p>Why: a virtual thread started by the watcher's platform thread waits in the scheduler's shared queue, which a
 * carrier looks at only when its own queue is empty; a connection taking turns goes back to its carrier's own queue,
 * so while connections take turns a woken one can wait for tens of milliseconds. Started from a connection's thread,
 * it joins that carrier's own queue behind the turners instead.
 *
 * <p>The rule that loses no wake: the watcher queues the thread first and then looks whether anyone is taking turns,
 * starting the queue itself when nobody is; a connection that stops taking turns starts whatever is queued after it
 * has left. Whoever the watcher saw taking turns had not left yet, so it will start the thread; if it saw nobody, it
 * starts the thread itself. A thread may be taken by either: the queue gives each to one.
 */
final class WakeHandOff {
    /** How a thread is started; tests stage an interleaving or record who started what. */
    @FunctionalInterface
    interface Starter {
        Starter START = Thread::start;

        void start(Thread thread);
    }

    private final ConcurrentLinkedQueue<Thread> woken = new ConcurrentLinkedQueue<>();
    private final AtomicInteger turning = new AtomicInteger();
    private final Starter starter;

    WakeHandOff(Starter starter) {
        this.starter = starter;
    }

    /** Watcher thread: {@code thread}, not started, runs the woken connection. */
    void handOff(Thread thread) {
        woken.add(thread);
        if (turning.get() == 0) {
            startWoken();
        }
    }

    /** A connection's thread begins its keep-alive turns. */
    void enterTurns() {
        turning.incrementAndGet();
    }

    /** A connection's thread ends its turns, found bytes or not; starts what was queued meanwhile. */
    void exitTurns() {
        turning.decrementAndGet();
        startWoken();
    }

    /** Starts every queued thread; on a connection's thread, between two turns and at their end. */
    void startWoken() {
        Thread thread;
        while ((thread = woken.poll()) != null) {
            starter.start(thread);
        }
    }
}
