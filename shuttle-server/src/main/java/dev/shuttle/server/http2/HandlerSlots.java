package dev.shuttle.server.http2;

import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Exception;
import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantLock;

/**
 * How many handlers of one connection run at once: at most MAX_CONCURRENT_STREAMS, counting those whose stream the
 * client reset while they still run. A stream the client opens while every slot is taken waits for one, in arrival
 * order; the client kept within the limit it was told (its reset streams no longer count for it), so refusing it
 * would punish a client for the server's slow handlers. Rapid reset (CVE-2023-44487) is bounded this way, as in Go:
 * however fast streams are opened and reset, no more handlers run than the limit, and past four limits' worth of
 * waiting streams the connection gets GOAWAY ENHANCE_YOUR_CALM.
 *
 * <p>The reader admits; handler threads release. Thread-safe.
 */
final class HandlerSlots {
    /** Waiting streams allowed per slot before the client is told to calm down (Go's x/net/http2 allows 4). */
    static final int WAITING_PER_SLOT = 4;

    private final int slots;
    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by lock. */
    private int running;
    /** Guarded by lock: handler starts waiting for a slot, oldest first. */
    private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();

    HandlerSlots(int slots) {
        this.slots = slots;
    }

    /**
     * Starts {@code handler} now (on the caller's thread: it should only start a thread) if a slot is free, else
     * queues it.
     *
     * @throws Http2Exception ENHANCE_YOUR_CALM when too many already wait
     */
    void admit(Runnable handler) throws Http2Exception {
        lock.lock();
        try {
            if (running >= slots) {
                if (waiting.size() >= WAITING_PER_SLOT * slots) {
                    throw Http2Exception.connectionError(Http2ErrorCode.ENHANCE_YOUR_CALM,
                            "too many streams waiting for a handler");
                }
                waiting.add(handler);
                return;
            }
            running++;
        } finally {
            lock.unlock();
        }
        handler.run();
    }

    /** A handler finished: the oldest waiting one takes its slot (started on the caller's thread). */
    void release() {
        Runnable next;
        lock.lock();
        try {
            next = waiting.poll();
            if (next == null) {
                running--;
            }
        } finally {
            lock.unlock();
        }
        if (next != null) {
            next.run();
        }
    }

    /** Handlers running now (for tests). */
    int running() {
        lock.lock();
        try {
            return running;
        } finally {
            lock.unlock();
        }
    }
}
