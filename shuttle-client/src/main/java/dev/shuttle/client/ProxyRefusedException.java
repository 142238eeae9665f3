package dev.shuttle.client;

import java.net.ProtocolException;

/**
 * A proxy answered a tunnel's {@code CONNECT} with something other than 2xx, for good: a 407 no credentials could
 * answer, a 403 from its rules, a 502 when it could not reach the origin. {@link #status()} is the proxy's status.
 */
public final class ProxyRefusedException extends ProtocolException {
    /** The proxy's status code. */
    private final int status;

    /**
     * A proxy's refusal.
     *
     * @param message what was refused, naming the proxy and the origin
     * @param status the proxy's status code
     */
    public ProxyRefusedException(String message, int status) {
        super(message);
        this.status = status;
    }

    /** {@return the proxy's status} */
    public int status() {
        return status;
    }
}
