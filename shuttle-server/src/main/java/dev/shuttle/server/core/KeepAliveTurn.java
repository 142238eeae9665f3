package dev.shuttle.server.core;

import java.io.IOException;

/**
 * What a connection does between two looks for its next request, after a response and before it parks (see
 * {@link KeepAliveTurns}). The server always uses {@link #YIELD}; the interface exists so tests can
 * stage a request that arrives during a turn, or count the turns, without depending on scheduling.
 */
@FunctionalInterface
public interface KeepAliveTurn {
    /** Lets every other runnable virtual thread of the scheduler run once before this one continues. */
    KeepAliveTurn YIELD = connection -> Thread.yield();

    /** Called on the connection's own thread, in state IDLE, with its buffers attached. */
    void take(ServerConnection connection) throws IOException;
}
