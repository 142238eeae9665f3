package dev.shuttle.client;

import dev.shuttle.client.proxy.EnvironmentProxies;
import dev.shuttle.client.proxy.ShuttleProxySelector;
import java.net.ProxySelector;
import java.util.Map;
import java.util.Objects;

/**
 * Proxy selectors for {@link HttpClient.Builder#proxy}. Any {@link ProxySelector} works there (the JDK's
 * {@code ProxySelector.getDefault()} reads the {@code http.proxyHost} system properties); these add what it lacks:
 * credentials in the proxy URL and Go's {@code NO_PROXY} rules. Only HTTP proxies are spoken to: plain http goes to
 * the proxy in absolute form, https through a {@code CONNECT} tunnel (HTTP/2 inside it by ALPN).
 */
public final class Proxies {
    private Proxies() {
    }

    /**
     * No proxy: every request connects to its origin.
     *
     * @return a selector that always answers {@code Proxy.NO_PROXY}
     */
    public static ProxySelector none() {
        return ShuttleProxySelector.none();
    }

    /**
     * {@code HTTP_PROXY}, {@code HTTPS_PROXY} and {@code NO_PROXY} (or their lower-case names) as Go's
     * {@code ProxyFromEnvironment} reads them, read now: {@code NO_PROXY} lists IP addresses, CIDR blocks
     * ({@code 10.0.0.0/8}) and domains ({@code example.com} and its subdomains; {@code .example.com} subdomains
     * only), each with an optional port, or {@code *}; {@code localhost} and loopback addresses never go through the
     * proxy. A proxy URL's user info is sent as Basic {@code Proxy-Authorization}. The client's default.
     *
     * @return a selector from the process's environment
     */
    public static ProxySelector fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    /**
     * As {@link #fromEnvironment()}, from {@code environment} instead of the process's.
     *
     * @param environment variables by name, as {@code System.getenv()} gives them
     * @return a selector from those variables
     */
    public static ProxySelector fromEnvironment(Map<String, String> environment) {
        return EnvironmentProxies.from(Objects.requireNonNull(environment, "environment"));
    }

    /**
     * Every request through {@code proxyUrl} ({@code http://user:password@proxy:3128}; the scheme may be left out),
     * loopback included (as curl's {@code -x}).
     *
     * @param proxyUrl the proxy's URL, with optional user info for Basic credentials
     * @return a selector sending every request through that proxy
     * @throws IllegalArgumentException when the URL is not an http proxy's
     */
    public static ProxySelector of(String proxyUrl) {
        return of(proxyUrl, null);
    }

    /**
     * As {@link #of(String)}, bypassing the hosts {@code noProxy} lists (the {@code NO_PROXY} syntax).
     *
     * @param proxyUrl the proxy's URL, with optional user info for Basic credentials
     * @param noProxy hosts to reach directly, comma-separated; null or empty for none
     * @return a selector sending the other requests through that proxy
     */
    public static ProxySelector of(String proxyUrl, String noProxy) {
        return ShuttleProxySelector.of(Objects.requireNonNull(proxyUrl, "proxyUrl"), noProxy);
    }
}
