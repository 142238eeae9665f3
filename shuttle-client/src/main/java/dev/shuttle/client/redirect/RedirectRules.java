package dev.shuttle.client.redirect;

import dev.shuttle.client.BodyPublisher;
import dev.shuttle.client.Origin;
import dev.shuttle.client.RedirectPolicy;
import dev.shuttle.client.Request;
import dev.shuttle.client.internal.Statuses;
import dev.shuttle.client.internal.UriEncoding;
import dev.shuttle.wire.Headers;
import java.net.ProtocolException;
import java.net.URI;
import java.util.List;

/**
 * Where a redirect leads, by Go's rules and the Fetch standard's (see {@link RedirectPolicy}). Pure: a request, a
 * status and the response's fields in, the next request out, so each rule is tested as a table.
 */
public final class RedirectRules {
    /** Fields that describe a request body (Fetch's "request-body-header names"): gone with the body. */
    private static final List<String> BODY_FIELDS = List.of("Content-Type", "Content-Encoding", "Content-Language",
            "Content-Location");
    /** Credentials the caller set for one origin: never sent to another. */
    private static final List<String> CREDENTIAL_FIELDS = List.of("Authorization", "Proxy-Authorization", "Cookie");

    private RedirectRules() {
    }

    /**
     * The request {@code response} redirects {@code current} to, or null when it is not a redirect to follow: not a
     * 301/302/303/307/308, no {@code Location}, https to http when the policy refuses it, or a 307/308 whose body
     * cannot be sent again.
     *
     * @throws ProtocolException for a {@code Location} that is not a URI, or names a scheme other than http(s)
     */
    public static Request next(Request current, int status, Headers response, RedirectPolicy policy)
            throws ProtocolException {
        if (!Statuses.isRedirect(status)) {
            return null;
        }
        String location = response.first("Location");
        if (location == null || location.isBlank()) {
            return null; // seen in the wild without one: the caller gets the 3xx, as from Go
        }
        URI target = resolve(current.uri(), location.trim());
        String scheme = target.getScheme() == null ? "" : target.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new ProtocolException("redirect to an unsupported scheme (" + status + " to " + target + ")");
        }
        if (current.origin().isSecure() && scheme.equals("http") && !policy.httpsToHttp()) {
            return null;
        }
        String method = current.method();
        boolean toGet = switch (status) {
            case 301, 302, 303 -> !method.equals("GET") && !method.equals("HEAD");
            default -> false;
        };
        BodyPublisher body = current.body();
        if (!toGet && body != BodyPublisher.none() && !body.isReplayable()) {
            return null; // 307/308 must send the body again, and this one cannot be
        }
        Request.Builder next = current.toBuilder();
        try {
            next.uri(target);
        } catch (IllegalArgumentException e) {
            throw new ProtocolException("redirect to an unusable URI (" + status + " to " + target + "): "
                    + e.getMessage());
        }
        if (toGet) {
            next.method("GET", BodyPublisher.none());
            BODY_FIELDS.forEach(next::removeHeader);
        }
        if (!current.origin().equals(Origin.of(target))) {
            CREDENTIAL_FIELDS.forEach(next::removeHeader);
        }
        return next.build();
    }

    /**
     * {@code location} against {@code base} (RFC 3986 5.2), keeping the base's fragment when the location has none
     * (RFC 9110 10.2.2). Tolerates the characters servers put in Location unescaped (spaces, non-ASCII).
     */
    static URI resolve(URI base, String location) throws ProtocolException {
        URI relative;
        try {
            relative = URI.create(UriEncoding.escapeIllegal(location));
        } catch (IllegalArgumentException e) {
            throw new ProtocolException("invalid redirect Location \"" + location + "\": " + e.getMessage());
        }
        URI resolved = resolve3986(base, relative);
        if (resolved.getRawFragment() == null && base.getRawFragment() != null) {
            resolved = URI.create(resolved + "#" + base.getRawFragment());
        }
        return UriEncoding.toAscii(resolved);
    }

    /**
     * RFC 3986 5.2 where {@link URI#resolve} follows the older RFC 2396: a reference of just a query keeps the base's
     * path ({@code ?page=2} against {@code /dir/page}), and dot segments never climb above the root.
     */
    private static URI resolve3986(URI base, URI reference) {
        if (reference.getScheme() == null && reference.getRawAuthority() == null && reference.getRawPath().isEmpty()
                && reference.getRawQuery() != null) {
            String path = base.getRawPath() == null ? "" : base.getRawPath();
            return URI.create(base.getScheme() + "://" + base.getRawAuthority() + path + "?" + reference.getRawQuery()
                    + (reference.getRawFragment() == null ? "" : "#" + reference.getRawFragment()));
        }
        URI resolved = base.resolve(reference);
        String path = resolved.getRawPath();
        if (path == null || !path.startsWith("/..")) {
            return resolved;
        }
        while (path.startsWith("/../")) {
            path = path.substring(3);
        }
        if (path.equals("/..")) {
            path = "/";
        }
        return URI.create(resolved.getScheme() + "://" + resolved.getRawAuthority() + path
                + (resolved.getRawQuery() == null ? "" : "?" + resolved.getRawQuery())
                + (resolved.getRawFragment() == null ? "" : "#" + resolved.getRawFragment()));
    }
}
