package dev.shuttle.client.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.Origin;
import java.io.IOException;
import java.net.Proxy;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Go's ProxyFromEnvironment: which variable for which scheme, names, defaults, credentials, errors. */
class EnvironmentProxiesTest {
    private static final Origin HTTP = new Origin("http", "example.com", 80);
    private static final Origin HTTPS = new Origin("https", "example.com", 443);

    @Test
    void eachSchemeHasItsVariableAndUpperCaseComesFirst() throws IOException {
        ShuttleProxySelector env = EnvironmentProxies.from(Map.of("HTTP_PROXY", "http://plain:3128",
                "http_proxy", "http://lower:1", "https_proxy", "secure.example:8080"));
        assertThat(env.proxyFor(HTTP)).hasToString("http://plain:3128");
        assertThat(env.proxyFor(HTTPS)).hasToString("http://secure.example:8080");
        assertThat(env.proxyFor(new Origin("http", "127.0.0.1", 8080))).isNull();
        assertThat(env.proxyFor(new Origin("https", "localhost", 8443))).isNull();
        assertThat(env.alwaysDirect()).isFalse();
        assertThat(env.select(URI.create("http://example.com/"))).containsExactly(
                new Proxy(Proxy.Type.HTTP, java.net.InetSocketAddress.createUnresolved("plain", 3128)));
    }

    @Test
    void emptyOrUnsetMeansDirectAtNoCost() throws IOException {
        ShuttleProxySelector env = EnvironmentProxies.from(Map.of("HTTP_PROXY", "", "NO_PROXY", "x"));
        assertThat(env.alwaysDirect()).isTrue();
        assertThat(env.proxyFor(HTTP)).isNull();
    }

    @Test
    void userInfoBecomesBasicCredentialsAndThePortDefaultsTo80() throws IOException {
        ShuttleProxySelector env = EnvironmentProxies.from(Map.of("HTTPS_PROXY", "http://ad%40a:p%3Ass@proxy"));
        ProxyServer proxy = env.proxyFor(HTTPS);
        assertThat(proxy.port()).isEqualTo(80);
        assertThat(proxy.authorization()).isEqualTo("Basic " + java.util.Base64.getEncoder().encodeToString(
                "ad@a:p:ss".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        assertThat(proxy.toString()).doesNotContain("p:ss");
    }

    @Test
    void noProxyAppliesToBoth() throws IOException {
        ShuttleProxySelector env = EnvironmentProxies.from(Map.of("HTTP_PROXY", "p:1", "HTTPS_PROXY", "p:2",
                "no_proxy", ".internal,10.0.0.0/8"));
        assertThat(env.proxyFor(new Origin("http", "api.internal", 80))).isNull();
        assertThat(env.proxyFor(new Origin("https", "10.2.3.4", 443))).isNull();
        assertThat(env.proxyFor(new Origin("https", "example.org", 443))).isNotNull();
    }

    @Test
    void unusableSettingsFailTheRequestsTheyWouldRoute() throws IOException {
        ShuttleProxySelector env = EnvironmentProxies.from(Map.of("HTTPS_PROXY", "socks5://s:1080",
                "HTTP_PROXY", "http://p:1", "REQUEST_METHOD", "GET"));
        assertThatThrownBy(() -> env.proxyFor(HTTPS)).hasMessageContaining("only http:// proxies");
        assertThatThrownBy(() -> env.proxyFor(HTTP)).hasMessageContaining("CGI");
        assertThat(env.proxyFor(new Origin("https", "127.0.0.1", 443))).as("loopback is never routed").isNull();
    }
}
