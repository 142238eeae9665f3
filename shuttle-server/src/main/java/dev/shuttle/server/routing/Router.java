package dev.shuttle.server.routing;

import dev.shuttle.server.Handler;
import dev.shuttle.server.Middleware;
import dev.shuttle.server.Request;
import dev.shuttle.server.Response;
import dev.shuttle.server.routing.RoutingTree.Match;
import dev.shuttle.server.routing.RoutingTree.Route;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A request router with Go 1.22 {@code ServeMux} semantics, as a {@link Handler}.
 *
 * <pre>{@code
 * Router router = new Router()
 *         .handle("GET /items/{id}", (request, response) -> response.send("item " + request.pathValue("id")))
 *         .handle("POST /items/", this::create)
 *         .handle("/static/{path...}", files)
 *         .handle("api.example.com/", api)
 *         .use(AccessLog.combined());
 * }</pre>
 *
 * <p>Patterns are {@code [METHOD ][HOST]/[PATH]}: {@code {name}} matches one path segment, {@code {name...}} the rest
 * of the path, {@code {$}} only the end after a trailing slash, and a path ending in {@code /} everything below it.
 * Segments are matched percent-decoded; wildcard values reach the handler through {@link Request#pathValue}.
 *
 * <p>Precedence: a pattern with a host wins over one without; otherwise the more specific pattern wins, one that
 * matches a strict subset of the other's requests ({@code GET} is more specific than no method, {@code /a/b} than
 * {@code /a/{x}}, {@code /a/{x}} than {@code /a/}). Two patterns that can match the same request with neither more
 * specific ({@code /a/{x}} and {@code /{y}/b}, or one registered twice) are refused when the second is registered,
 * with both named: precedence never depends on registration order.
 *
 * <p>Requests: the path is cleaned first ({@code //}, {@code .}, {@code ..}); a request for an unclean path is
 * redirected to the clean one, and a request for {@code /dir} where only {@code /dir/} has a route to {@code /dir/}
 * (301 for GET and HEAD, 308 for other methods, which keeps the method and body). HEAD is served by a GET route. A path
 * that no route matches for this method but some route matches for another gets 405 with {@code Allow}; no match at
 * all gets 404 (or {@link #notFound}'s handler); a malformed escape in the path gets 400. CONNECT requests are
 * matched on their path as sent.
 *
 * <p>Middleware: {@link #use} wraps every request this router sees (404, 405 and redirects included), the first
 * registered outermost; middleware passed to {@link #handle} wraps that route only. Routes and middleware are
 * registered before the router serves its first request; registering after throws {@code IllegalStateException}.
 * Thread-safe; a lookup takes no lock.
 */
public final class Router implements Handler {
    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by lock until frozen; read-only after. */
    private final RoutingTree tree = new RoutingTree();
    /** Guarded by lock until frozen. */
    private final List<Middleware> middleware = new ArrayList<>();
    /** Guarded by lock until frozen. */
    private Handler notFound = Router::notFound;
    /** Set under lock when the first request arrives: the global chain around {@link #dispatch}. */
    private volatile Handler entry;

    /** An empty router: every request gets the not-found handler's 404 until routes are registered. */
    public Router() {
    }

    /**
     * Registers {@code handler} for {@code pattern}, wrapped in {@code routeMiddleware} (the first outermost).
     *
     * @param pattern a pattern such as {@code GET /items/{id}}
     * @param handler the handler of requests the pattern matches
     * @param routeMiddleware middleware around this route only
     * @return this router
     * @throws IllegalArgumentException when the pattern is malformed or conflicts with one registered before (the
     *                                  message names both and gives example paths)
     */
    public Router handle(String pattern, Handler handler, Middleware... routeMiddleware) {
        Pattern parsed = Pattern.parse(pattern);
        Handler wrapped = Middleware.chain(Objects.requireNonNull(handler, "handler"), List.of(routeMiddleware));
        lock.lock();
        try {
            checkNotServing();
            tree.add(new Route(parsed, wrapped));
        } finally {
            lock.unlock();
        }
        return this;
    }

    /**
     * Adds middleware around every request this router serves, after (inside) the middleware added before.
     *
     * @param middleware the middleware, outermost first
     * @return this router
     */
    public Router use(Middleware... middleware) {
        lock.lock();
        try {
            checkNotServing();
            this.middleware.addAll(List.of(middleware));
        } finally {
            lock.unlock();
        }
        return this;
    }

    /**
     * The handler for requests no route matches; by default a 404 with {@code 404 page not found}.
     *
     * @param handler the handler of unmatched requests
     * @return this router
     */
    public Router notFound(Handler handler) {
        lock.lock();
        try {
            checkNotServing();
            this.notFound = Objects.requireNonNull(handler, "handler");
        } finally {
            lock.unlock();
        }
        return this;
    }

    private void checkNotServing() {
        if (entry != null) {
            throw new IllegalStateException("routes and middleware must be registered before the first request");
        }
    }

    @Override
    public void handle(Request request, Response response) throws Exception {
        Handler chain = entry;
        if (chain == null) {
            chain = freeze();
        }
        chain.handle(request, response);
    }

    private Handler freeze() {
        lock.lock();
        try {
            if (entry == null) {
                entry = Middleware.chain(this::dispatch, List.copyOf(middleware));
            }
            return entry;
        } finally {
            lock.unlock();
        }
    }

    private void dispatch(Request request, Response response) throws Exception {
        String method = request.method();
        if (request.target().equals("*")) {
            response.send(400, "400 bad request: the asterisk form is for server-wide OPTIONS\n");
            return;
        }
        boolean connect = method.equals("CONNECT");
        String raw = request.path().isEmpty() ? "/" : request.path();
        String clean = connect ? raw : PathCleaner.clean(raw);
        RequestPath path;
        try {
            path = RequestPath.parse(clean);
        } catch (IllegalArgumentException e) {
            response.send(400, "400 bad request: " + e.getMessage() + "\n");
            return;
        }
        String host = host(request);
        Match match = tree.match(host, method, path);
        if (!connect && (match == null || !match.exact()) && !path.trailingSlash) {
            Match slashed = tree.match(host, method, path.withTrailingSlash());
            if (slashed != null && slashed.exact()) {
                redirect(request, response, clean + "/");
                return;
            }
        }
        if (!connect && !clean.equals(raw)) {
            redirect(request, response, clean);
            return;
        }
        if (match == null) {
            Set<String> allowed = tree.allowedMethods(host, path);
            if (!path.trailingSlash) {
                allowed.addAll(tree.allowedMethods(host, path.withTrailingSlash()));
            }
            if (!allowed.isEmpty()) {
                response.header("Allow", String.join(", ", allowed));
                response.send(405, "405 method not allowed\n");
                return;
            }
            notFound.handle(request, response);
            return;
        }
        Route route = match.route();
        Request routed = match.values().length == 0 ? request
                : new RoutedRequest(request, route.pattern().names, match.values());
        route.handler().handle(routed, response);
    }

    /** The Host header without its port, lower case: what host patterns are compared with. */
    private static String host(Request request) {
        String host = request.header("Host");
        if (host == null || host.isEmpty()) {
            return "";
        }
        int end = host.length();
        if (host.charAt(0) == '[') {
            int bracket = host.indexOf(']');
            end = bracket < 0 ? end : bracket + 1; // IPv6 literal, its port after the bracket
        } else {
            int colon = host.lastIndexOf(':');
            if (colon >= 0) {
                end = colon;
            }
        }
        return host.substring(0, end).toLowerCase(Locale.ROOT);
    }

    /** 301 for GET and HEAD (what Go sends); 308 otherwise, so the client repeats the method and body. */
    private static void redirect(Request request, Response response, String path) throws Exception {
        String query = request.query();
        String location = visibleAscii(query == null ? path : path + "?" + query);
        boolean safe = request.method().equals("GET") || request.method().equals("HEAD");
        response.header("Location", location);
        response.send(safe ? 301 : 308, (safe ? "301 moved permanently" : "308 permanent redirect") + "\n");
    }

    /**
     * The target as a field value: characters outside visible ASCII (which an HTTP/1.1 request line cannot carry, but
     * an HTTP/2 {@code :path} might) percent-encoded as UTF-8.
     */
    private static String visibleAscii(String target) {
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c <= 0x20 || c >= 0x7f) {
                StringBuilder out = new StringBuilder(target.length() + 16).append(target, 0, i);
                for (byte b : target.substring(i).getBytes(StandardCharsets.UTF_8)) {
                    int v = b & 0xff;
                    if (v <= 0x20 || v >= 0x7f) {
                        out.append('%').append(Character.toUpperCase(Character.forDigit(v >> 4, 16)))
                                .append(Character.toUpperCase(Character.forDigit(v & 0xf, 16)));
                    } else {
                        out.append((char) v);
                    }
                }
                return out.toString();
            }
        }
        return target;
    }

    private static void notFound(Request request, Response response) throws Exception {
        response.send(404, "404 page not found\n");
    }
}
