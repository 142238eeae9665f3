package dev.shuttle.server;

import java.util.List;
import java.util.Objects;

/**
 * Wraps a {@link Handler} in another: the way to add behaviour around requests (logging, compression, timeouts,
 * authentication) without touching the handler. A middleware may act before calling {@code next}, after it, instead
 * of it, or hand it a wrapped request or response ({@link ForwardingRequest}, {@link ForwardingResponse}).
 *
 * <pre>{@code
 * Middleware poweredBy = next -> (request, response) -> {
 *     response.header("X-Powered-By", "Shuttle");
 *     next.handle(request, response);
 * };
 * }</pre>
 */
@FunctionalInterface
public interface Middleware {
    /**
     * Returns a handler that does this middleware's work around {@code next}.
     *
     * @param next the handler to wrap
     * @return the wrapping handler
     */
    Handler wrap(Handler next);

    /**
     * {@code handler} wrapped by {@code middleware}, the first outermost: it sees the request first.
     *
     * @param handler the innermost handler
     * @param middleware the middleware, outermost first
     * @return the wrapped handler
     */
    static Handler chain(Handler handler, List<? extends Middleware> middleware) {
        Objects.requireNonNull(handler, "handler");
        Handler wrapped = handler;
        for (int i = middleware.size() - 1; i >= 0; i--) {
            wrapped = Objects.requireNonNull(middleware.get(i).wrap(wrapped), "a middleware returned null");
        }
        return wrapped;
    }
}
