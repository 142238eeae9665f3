package dev.shuttle.server.core;

import dev.shuttle.server.ClientGoneException;

/** How a handler's failure came about, for deciding what it costs the log. Stateless. */
public final class Failures {
    private Failures() {
    }

    /** Whether {@code cause} is {@code failure} or among its causes, however the handler wrapped it. */
    public static boolean causedBy(Throwable failure, Throwable cause) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t == cause) {
                return true;
            }
        }
        return false;
    }

    /** Whether the client's going away caused it, whichever code noticed (a write, a read, the cancellation). */
    public static boolean clientGone(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ClientGoneException) {
                return true;
            }
        }
        return false;
    }
}
