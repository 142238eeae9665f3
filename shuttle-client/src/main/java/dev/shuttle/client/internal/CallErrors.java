package dev.shuttle.client.internal;

import dev.shuttle.client.HttpTimeoutException;
import dev.shuttle.client.ProxyRefusedException;
import dev.shuttle.client.Request;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.ProtocolException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * Names the call in the exception its caller sees, as Go's {@code url.Error} does ({@code GET http://host/path:
 * connect to 10.0.0.1:80: Connection refused}): a log line of "Connection refused" alone does not say which of a
 * service's calls failed. The exception keeps its type (a copy with the longer message, the original as its cause),
 * so code that catches {@code ConnectException} or {@link HttpTimeoutException} still does; a type this class does
 * not know (a body publisher's own) is passed on as it is.
 */
public final class CallErrors {
    private CallErrors() {
    }

    public static IOException describe(Request request, IOException e) {
        String prefix = request.method() + " " + request.uri() + ": ";
        String message = e.getMessage() != null ? e.getMessage()
                : e instanceof ClosedChannelException ? "connection closed" : e.getClass().getSimpleName();
        if (message.startsWith(prefix)) {
            return e;
        }
        IOException named = copy(e, prefix + message);
        if (named == null) {
            return e;
        }
        named.initCause(e);
        return named;
    }

    /** A new exception of {@code e}'s exact type with {@code message}, or null when the type is not known here. */
    private static IOException copy(IOException e, String message) {
        if (e instanceof HttpTimeoutException timeout) {
            return new HttpTimeoutException(timeout.kind(), message);
        }
        if (e instanceof ProxyRefusedException refused) {
            return new ProxyRefusedException(message, refused.status());
        }
        return switch (e.getClass().getName()) {
            case "java.io.IOException" -> new IOException(message);
            case "java.io.EOFException" -> new EOFException(message);
            case "java.io.InterruptedIOException" -> new InterruptedIOException(message);
            case "java.net.ConnectException" -> new ConnectException(message);
            case "java.net.NoRouteToHostException" -> new NoRouteToHostException(message);
            case "java.net.SocketException" -> new SocketException(message);
            case "java.net.SocketTimeoutException" -> new SocketTimeoutException(message);
            case "java.net.UnknownHostException" -> new UnknownHostException(message);
            case "java.net.ProtocolException" -> new ProtocolException(message);
            case "javax.net.ssl.SSLException" -> new SSLException(message);
            case "javax.net.ssl.SSLHandshakeException" -> new SSLHandshakeException(message);
            case "javax.net.ssl.SSLPeerUnverifiedException" -> new SSLPeerUnverifiedException(message);
            case "java.nio.channels.ClosedChannelException", "java.nio.channels.AsynchronousCloseException" ->
                    new IOException(message); // no message of their own, and no caller catches them by type
            default -> null;
        };
    }
}
