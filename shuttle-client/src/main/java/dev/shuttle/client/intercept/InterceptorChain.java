package dev.shuttle.client.intercept;

import dev.shuttle.client.ClientTrace;
import dev.shuttle.client.ConnectionInfo;
import dev.shuttle.client.Interceptor;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import java.io.IOException;
import java.util.List;

/**
 * One position in a list of interceptors, ending in a terminal step: the application chain ends in the network layer
 * of the call, a network chain in the exchange. An empty list goes straight to the terminal, so a client without
 * interceptors pays nothing for them.
 *
 * <p>A network chain checks the rules network interceptors must keep: {@code proceed} exactly once, the same origin
 * (the connection is already chosen).
 */
public final class InterceptorChain implements Interceptor.Chain {
    /** The step after the last interceptor. */
    @FunctionalInterface
    public interface Terminal {
        Response proceed(Request request) throws IOException;
    }

    private final List<Interceptor> interceptors;
    private final int index;
    private final Request request;
    private final Terminal terminal;
    private final ClientTrace trace;
    /** Null for the application chain. */
    private final ConnectionInfo connection;
    /** Owned by the calling thread: how often this link's {@code proceed} ran. */
    private int proceeded;

    private InterceptorChain(List<Interceptor> interceptors, int index, Request request, Terminal terminal,
                             ClientTrace trace, ConnectionInfo connection) {
        this.interceptors = interceptors;
        this.index = index;
        this.request = request;
        this.terminal = terminal;
        this.trace = trace;
        this.connection = connection;
    }

    /** Runs {@code request} through {@code interceptors} of the application chain, then {@code terminal}. */
    public static Response application(List<Interceptor> interceptors, Request request, ClientTrace trace,
                                       Terminal terminal) throws IOException {
        if (interceptors.isEmpty()) {
            return terminal.proceed(request);
        }
        return new InterceptorChain(interceptors, 0, request, terminal, trace, null).proceed(request);
    }

    /** Runs {@code request} through the network {@code interceptors} on {@code connection}, then {@code terminal}. */
    public static Response network(List<Interceptor> interceptors, Request request, ConnectionInfo connection,
                                   ClientTrace trace, Terminal terminal) throws IOException {
        if (interceptors.isEmpty()) {
            return terminal.proceed(request);
        }
        return new InterceptorChain(interceptors, 0, request, terminal, trace, connection).proceed(request);
    }

    @Override
    public Request request() {
        return request;
    }

    @Override
    public ConnectionInfo connection() {
        return connection;
    }

    /** The call's trace, for the client's own interceptors (redirects report each hop through it). */
    public ClientTrace trace() {
        return trace;
    }

    /** The trace of the call {@code chain} belongs to, or {@link ClientTrace#NONE} for a chain made elsewhere. */
    public static ClientTrace traceOf(Interceptor.Chain chain) {
        return chain instanceof InterceptorChain own ? own.trace : ClientTrace.NONE;
    }

    @Override
    public Response proceed(Request next) throws IOException {
        boolean network = connection != null;
        if (network) {
            if (++proceeded > 1) {
                throw new IllegalStateException("network interceptor " + interceptors.get(index - 1)
                        + " must call proceed() exactly once");
            }
            if (!next.origin().equals(request.origin())) {
                throw new IllegalStateException("network interceptor " + interceptors.get(index - 1)
                        + " must keep the origin " + request.origin() + " (the connection is chosen): " + next.uri());
            }
        }
        if (index == interceptors.size()) {
            return terminal.proceed(next);
        }
        Interceptor interceptor = interceptors.get(index);
        InterceptorChain rest = new InterceptorChain(interceptors, index + 1, next, terminal, trace, connection);
        Response response = interceptor.intercept(rest);
        if (response == null) {
            throw new IllegalStateException("interceptor " + interceptor + " returned no response");
        }
        if (network && rest.proceeded != 1) {
            throw new IllegalStateException("network interceptor " + interceptor + " must call proceed() exactly once");
        }
        return response;
    }
}
