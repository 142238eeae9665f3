package dev.shuttle.client.intercept;

import dev.shuttle.client.ConnectionInfo;
import dev.shuttle.client.Interceptor;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import java.io.IOException;
import java.util.List;

/**
 * One position in the network interceptors of one exchange, ending in the exchange itself. Made only when network
 * interceptors are configured. Checks the rules they must keep: {@code proceed} exactly once, and the same origin
 * (the connection is already chosen).
 */
public final class NetworkChain implements Interceptor.Chain {
    /** The exchange, after the last network interceptor. */
    @FunctionalInterface
    public interface Exchange {
        Response send(Request request) throws IOException;
    }

    private final List<Interceptor> interceptors;
    private final int index;
    private final Request request;
    private final ConnectionInfo connection;
    private final Exchange exchange;
    /** Owned by the calling thread: how often this link's {@code proceed} ran. */
    private int proceeded;

    private NetworkChain(List<Interceptor> interceptors, int index, Request request, ConnectionInfo connection,
                         Exchange exchange) {
        this.interceptors = interceptors;
        this.index = index;
        this.request = request;
        this.connection = connection;
        this.exchange = exchange;
    }

    /** Runs {@code request} through {@code interceptors} on {@code connection}, then {@code exchange}. */
    public static Response run(List<Interceptor> interceptors, Request request, ConnectionInfo connection,
                               Exchange exchange) throws IOException {
        Interceptor first = interceptors.getFirst();
        NetworkChain chain = new NetworkChain(interceptors, 1, request, connection, exchange);
        return checked(first, chain, chain.intercept(first));
    }

    @Override
    public Request request() {
        return request;
    }

    @Override
    public ConnectionInfo connection() {
        return connection;
    }

    @Override
    public Response proceed(Request next) throws IOException {
        Interceptor caller = interceptors.get(index - 1);
        if (++proceeded > 1) {
            throw new IllegalStateException("network interceptor " + caller + " must call proceed() exactly once");
        }
        if (!next.origin().equals(request.origin())) {
            throw new IllegalStateException("network interceptor " + caller + " must keep the origin "
                    + request.origin() + " (the connection is chosen): " + next.uri());
        }
        if (index == interceptors.size()) {
            return exchange.send(next);
        }
        Interceptor interceptor = interceptors.get(index);
        NetworkChain rest = new NetworkChain(interceptors, index + 1, next, connection, exchange);
        return checked(interceptor, rest, rest.intercept(interceptor));
    }

    private Response intercept(Interceptor interceptor) throws IOException {
        return interceptor.intercept(this);
    }

    private static Response checked(Interceptor interceptor, NetworkChain rest, Response response) {
        if (response == null) {
            throw new IllegalStateException("network interceptor " + interceptor + " returned no response");
        }
        if (rest.proceeded != 1) {
            throw new IllegalStateException("network interceptor " + interceptor + " must call proceed() exactly once");
        }
        return response;
    }
}
