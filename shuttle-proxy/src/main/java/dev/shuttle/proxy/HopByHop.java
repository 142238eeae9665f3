package dev.shuttle.proxy;

import dev.shuttle.wire.Headers;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The header fields that belong to one connection and must not cross a proxy (RFC 9110 7.6.1): {@code Connection}
 * and every field it names, {@code Keep-Alive}, {@code Proxy-Connection}, {@code Proxy-Authenticate},
 * {@code Proxy-Authorization}, {@code TE}, {@code Trailer}, {@code Transfer-Encoding}, {@code Upgrade}, and h2c's
 * {@code HTTP2-Settings}. The proxy re-announces what it keeps of them itself ({@code TE: trailers}, the trailer
 * names). Stateless.
 */
final class HopByHop {
    private static final Set<String> ALWAYS = Set.of("connection", "keep-alive", "proxy-connection",
            "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade",
            "http2-settings");

    private HopByHop() {
    }

    /** The lower-case names not to forward from {@code headers}: the fixed ones and those its Connection lists. */
    static Set<String> names(Headers headers) {
        Set<String> names = new HashSet<>(ALWAYS);
        for (String value : headers.all("Connection")) {
            for (String token : value.split(",")) {
                String name = token.strip().toLowerCase(Locale.ROOT);
                if (!name.isEmpty()) {
                    names.add(name);
                }
            }
        }
        return names;
    }

    /** Whether the client said it accepts trailers ({@code TE: trailers}), which the proxy passes on. */
    static boolean acceptsTrailers(Headers headers) {
        return headers.containsToken("TE", "trailers");
    }
}
