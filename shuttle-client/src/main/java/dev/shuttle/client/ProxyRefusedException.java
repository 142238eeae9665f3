package dev.shuttle.client;

import java.net.ProtocolException;

/**
 * A proxy answered a tunnel's {@code CONNECT} with something other than 2xx, for good: a 407 no credentials could
 * answer, a 403 from its rules, a 502 when it could not reach the origin. {@link #status()} is the proxy's status.
 */
public final class ProxyRefusedException extends ProtocolException {
    private final int status;

    public ProxyRefusedException(String message, int status) {
        super(message);
        this.status = status;
    }

    /** {@return the proxy's status} */
    public int status() {
        return status;
    }
}
