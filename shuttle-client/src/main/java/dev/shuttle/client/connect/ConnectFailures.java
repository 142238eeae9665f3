package dev.shuttle.client.connect;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;

/** A failed connect named with the address it tried, as Go's {@code dial tcp 10.0.0.1:80: connect: ...} is. */
final class ConnectFailures {
    private ConnectFailures() {
    }

    static IOException naming(InetSocketAddress target, IOException e) {
        String message = "connect to " + target + ": " + (e.getMessage() == null ? "failed" : e.getMessage());
        IOException named;
        if (e instanceof NoRouteToHostException) {
            named = new NoRouteToHostException(message);
        } else if (e instanceof ConnectException) {
            named = new ConnectException(message);
        } else {
            return e;
        }
        named.initCause(e);
        return named;
    }
}
