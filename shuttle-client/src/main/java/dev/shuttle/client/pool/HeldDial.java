package dev.shuttle.client.pool;

import dev.shuttle.client.internal.TaskScheduler;

/**
 * A dial whose HTTP/1.1 connection is open but held back, counted as still dialing, until it could answer
 * ({@code Dials.holdUntilReadyLocked}). Listed in its {@link OriginPool} so that closing the pool closes
 * the connection at once and cancels its timer, rather than leaving both to the timer. Mutable fields are guarded by
 * the pool's lock.
 */
final class HeldDial {
    final Waiter waiter;
    final PooledConnection connection;
    final long dialStart;
    /** When the connection could answer: the dial's start plus the origin's dial cost. */
    final long readyAt;
    /** The timer that ends the hold (re-armed while its request was served and the connection cannot answer yet). */
    TaskScheduler.Scheduled timer;

    HeldDial(Waiter waiter, PooledConnection connection, long dialStart, long readyAt) {
        this.waiter = waiter;
        this.connection = connection;
        this.dialStart = dialStart;
        this.readyAt = readyAt;
    }
}
