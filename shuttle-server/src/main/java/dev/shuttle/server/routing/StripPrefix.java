package dev.shuttle.server.routing;

import dev.shuttle.server.ForwardingRequest;
import dev.shuttle.server.Middleware;
import dev.shuttle.server.Request;
import dev.shuttle.server.core.PathSegments;
import java.util.List;

/**
 * Middleware that removes a prefix from the request path before the handler sees it, as Go's
 * {@code http.StripPrefix}: {@code /static/css/a.css} under prefix {@code /static} reaches the handler as
 * {@code /css/a.css}. A request whose path does not start with the prefix gets 404. The prefix is compared with the
 * path as sent (still percent-encoded); what remains always starts with {@code /}.
 */
public final class StripPrefix {
    private StripPrefix() {
    }

    /**
     * {@return middleware that removes {@code prefix} from the path the handler sees, answering 404 for paths without
     * it}
     *
     * @param prefix the prefix, such as {@code /static}, compared with the path still percent-encoded
     */
    public static Middleware of(String prefix) {
        if (prefix == null || prefix.isEmpty()) {
            throw new IllegalArgumentException("empty prefix");
        }
        return next -> (request, response) -> {
            String path = request.path();
            if (!path.startsWith(prefix)) {
                response.send(404, "404 page not found\n");
                return;
            }
            String rest = path.substring(prefix.length());
            next.handle(new Stripped(request, rest.startsWith("/") ? rest : "/" + rest), response);
        };
    }

    private static final class Stripped extends ForwardingRequest {
        private final String path;

        Stripped(Request request, String path) {
            super(request);
            this.path = path;
        }

        @Override
        public String path() {
            return path;
        }

        @Override
        public String target() {
            String query = query();
            return query == null ? path : path + "?" + query;
        }

        @Override
        public List<String> pathSegments() {
            return PathSegments.decode(path);
        }
    }
}
