package dev.shuttle.client.pool;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.Origin;
import java.io.IOException;

/** Opens new connections for the pool. Runs on a virtual thread of its own, never holding the pool's lock. */
@FunctionalInterface
public interface Dialer {
    /**
     * @param deadline absolute deadline on the pool's clock (Long.MAX_VALUE: none) on top of the connect timeout
     * @param trace    the trace of the request that asked for the dial (connectStart/connectDone)
     */
    PooledConnection dial(Origin origin, long deadline, ClientTrace trace) throws IOException;

    /** Opens a connection along {@code route}. Default: {@link #dial(Origin, long, ClientTrace)}, direct. */
    default PooledConnection dial(Route route, long deadline, ClientTrace trace) throws IOException {
        return dial(route.origin(), deadline, trace);
    }

    /**
     * Whether connections to {@code origin} will be multiplexed before any was dialed (HTTP/2 prior knowledge), so
     * that even the first burst shares one dial. Default false: the pool learns it from the first connection.
     */
    default boolean multiplexedByConfiguration(Origin origin) {
        return false;
    }

    /** {@link #multiplexedByConfiguration(Origin)} for direct routes; through a proxy nothing is known in advance. */
    default boolean multiplexedByConfiguration(Route route) {
        return route.isDirect() && multiplexedByConfiguration(route.origin());
    }
}
