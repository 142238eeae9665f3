package dev.shuttle.proxy;

import dev.shuttle.client.BodyPublisher;
import dev.shuttle.server.Request;
import dev.shuttle.wire.Headers;
import java.net.URI;
import java.util.Locale;
import java.util.Set;

/**
 * Turns a downstream request into the upstream one: the target joined under the upstream's path (as Go's
 * {@code ReverseProxy} joins them), the fields minus the hop-by-hop ones, {@code Host} and the framing (the client
 * writes its own from the upstream URI and the body), plus the forwarding fields; the body streamed. Immutable.
 */
final class UpstreamRequests {
    /** Fields the client sets itself, or that were answered on this hop already ({@code Expect: 100-continue}). */
    private static final Set<String> NOT_FORWARDED = Set.of("host", "content-length", "expect");

    private final URI upstream;
    private final boolean forwardedHeaders;

    UpstreamRequests(URI upstream, boolean forwardedHeaders) {
        this.upstream = upstream;
        this.forwardedHeaders = forwardedHeaders;
    }

    /** @throws IllegalArgumentException when the downstream target makes no valid URI (the proxy answers 400) */
    dev.shuttle.client.Request toUpstream(Request request) {
        dev.shuttle.client.Request.Builder out = dev.shuttle.client.Request.newBuilder(uri(request));
        Headers headers = request.headers();
        Set<String> hopByHop = HopByHop.names(headers);
        for (int i = 0; i < headers.size(); i++) {
            String name = headers.name(i);
            String lower = name.toLowerCase(Locale.ROOT);
            if (hopByHop.contains(lower) || NOT_FORWARDED.contains(lower) || lower.startsWith(":")) {
                continue;
            }
            if (forwardedHeaders && (lower.equals("x-forwarded-for") || lower.equals("x-forwarded-host")
                    || lower.equals("x-forwarded-proto") || lower.equals("forwarded"))) {
                continue; // rewritten below
            }
            out.header(name, headers.value(i));
        }
        if (HopByHop.acceptsTrailers(headers)) {
            out.header("TE", "trailers"); // the client says it takes trailers: so may the upstream's answer
        }
        if (forwardedHeaders) {
            String host = request.header("Host");
            String xff = String.join(", ", headers.all("X-Forwarded-For"));
            out.header("X-Forwarded-For", ForwardedHeaders.xForwardedFor(xff, ForwardedHeaders.clientAddress(request)));
            if (host != null) {
                out.header("X-Forwarded-Host", host);
            }
            out.header("X-Forwarded-Proto", ForwardedHeaders.protocol(request));
            String previous = String.join(", ", headers.all("Forwarded"));
            out.header("Forwarded", ForwardedHeaders.forwarded(previous, request, host));
        }
        long length = request.contentLength();
        BodyPublisher body;
        if (length == 0) {
            body = bodyExpected(request.method()) ? BodyPublisher.ofBytes(new byte[0]) : BodyPublisher.none();
        } else {
            body = new DownstreamBody(request.body(), length);
        }
        out.method(request.method(), body);
        return out.build();
    }

    /** Methods whose requests say {@code Content-Length: 0} when empty. */
    private static boolean bodyExpected(String method) {
        return method.equals("POST") || method.equals("PUT") || method.equals("PATCH");
    }

    /** The upstream's scheme and authority, its path joined with the request's (one slash between), both queries. */
    private URI uri(Request request) {
        String basePath = upstream.getRawPath() == null ? "" : upstream.getRawPath();
        String path = request.path().isEmpty() ? "/" : request.path();
        String joined;
        if (basePath.isEmpty()) {
            joined = path;
        } else if (basePath.endsWith("/") && path.startsWith("/")) {
            joined = basePath + path.substring(1);
        } else if (!basePath.endsWith("/") && !path.startsWith("/")) {
            joined = basePath + "/" + path;
        } else {
            joined = basePath + path;
        }
        String baseQuery = upstream.getRawQuery();
        String query = request.query();
        String allQuery = baseQuery == null ? query : query == null ? baseQuery : baseQuery + "&" + query;
        return URI.create(upstream.getScheme() + "://" + upstream.getRawAuthority() + joined
                + (allQuery == null ? "" : "?" + allQuery));
    }
}
