package dev.shuttle.client.proxy;

import dev.shuttle.client.auth.BasicAuthenticator;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A proxy named by a URL, as environment variables and {@code -x} name them: {@code http://user:pass@host:port},
 * the scheme optional ({@code proxy:3128} means {@code http://proxy:3128}, as for Go and curl), the port 80 by default.
 * Only HTTP proxies are spoken to; another scheme is kept as an error for the requests that would use it.
 */
final class ProxyUrl {
    private ProxyUrl() {
    }

    /** The proxy, or an {@link IllegalArgumentException} that says why the value cannot be used. */
    static ProxyServer parse(String value) {
        String text = value.trim();
        URI uri;
        try {
            uri = URI.create(text);
            if (uri.getScheme() == null || uri.getHost() == null) {
                uri = URI.create("http://" + text);
            }
        } catch (IllegalArgumentException e) {
            try {
                uri = URI.create("http://" + text);
            } catch (IllegalArgumentException again) {
                throw new IllegalArgumentException("invalid proxy address \"" + value + "\": " + e.getMessage());
            }
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http")) {
            throw new IllegalArgumentException("proxy " + redacted(uri) + ": only http:// proxies are supported ("
                    + scheme + " is not: TLS to the proxy and SOCKS are not spoken)");
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("invalid proxy address \"" + redacted(uri) + "\": no host");
        }
        int port = uri.getPort() == -1 ? 80 : uri.getPort();
        String authorization = null;
        String userInfo = uri.getRawUserInfo();
        if (userInfo != null) {
            int colon = userInfo.indexOf(':');
            String user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
            String password = colon < 0 ? "" : decode(userInfo.substring(colon + 1));
            authorization = BasicAuthenticator.credentials(user, password, StandardCharsets.UTF_8);
        }
        return new ProxyServer(uri.getHost(), port, authorization);
    }

    private static String decode(String text) {
        return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** The URL without its password, for messages. */
    private static String redacted(URI uri) {
        return uri.getRawUserInfo() == null ? uri.toString() : uri.toString().replace(uri.getRawUserInfo(), "***");
    }
}
