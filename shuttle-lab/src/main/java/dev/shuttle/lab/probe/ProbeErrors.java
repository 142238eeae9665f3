package dev.shuttle.lab.probe;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.nio.channels.UnresolvedAddressException;

/** Turns a failed call into one sentence for the user, whichever client threw it. */
public final class ProbeErrors {
    private ProbeErrors() {
    }

    public static String describe(Throwable error, URI uri) {
        String where = uri.getHost() + ":" + port(uri);
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof UnknownHostException || t instanceof UnresolvedAddressException) {
                return "unknown host " + uri.getHost();
            }
            if (t instanceof ConnectException) {
                return "connection refused by " + where + (t.getMessage() == null ? "" : " (" + t.getMessage()
                        + ")");
            }
            if (t instanceof NoRouteToHostException) {
                return "no route to " + where;
            }
            if (t instanceof dev.shuttle.lab.clients.CallWatchdog.CallTimedOutException) {
                return "timed out talking to " + where + " (the client did not give up by itself; stopped by the "
                        + "lab's watchdog)";
            }
            if (t instanceof HttpConnectTimeoutException) {
                return "connect to " + where + " timed out";
            }
            if (t instanceof SocketTimeoutException || t instanceof java.net.http.HttpTimeoutException
                    || t.getClass().getSimpleName().contains("Timeout")) {
                return "timed out talking to " + where + (t.getMessage() == null ? "" : " (" + t.getMessage() + ")");
            }
            if (t instanceof javax.net.ssl.SSLException) {
                return "TLS failed with " + where + ": " + t.getMessage();
            }
        }
        String message = error.getMessage();
        return (error instanceof IOException ? "I/O error with " + where + ": " : error.getClass().getSimpleName()
                + ": ") + (message == null ? error.getClass().getSimpleName() : message);
    }

    /**
     * For a TLS failure, what the lab's options can do about it (the library's own message speaks of SSLContexts);
     * otherwise "".
     */
    public static String tlsHint(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof javax.net.ssl.SSLHandshakeException) {
                return " (a private or self-signed certificate? --cacert FILE trusts its authority; --insecure "
                        + "verifies nothing)";
            }
        }
        return "";
    }

    static int port(URI uri) {
        if (uri.getPort() >= 0) {
            return uri.getPort();
        }
        return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }
}
