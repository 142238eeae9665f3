package dev.shuttle.client.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Go's {@code httpproxy} NO_PROXY table, with requests on port 80, and the rules around it. */
class NoProxyTest {
    private static final NoProxy GO_TABLE = NoProxy.parse("foobar.com, .barbaz.net, *.wildcard.io, 192.168.1.1, "
            + "192.168.1.2:81, 192.168.1.3:80, 10.0.0.0/30, 2001:db8::52:0:1, [2001:db8::52:0:2]:443, "
            + "[2001:db8::52:0:3]:80, 2002:db8:a::45/64", true);

    @ParameterizedTest(name = "{0} -> proxy {1}")
    @CsvSource({
            "localhost, false", "127.0.0.1, false", "127.0.0.2, false", "::1, false", "::2, true",
            "192.168.1.1, false", "192.168.1.2, true", "192.168.1.3, false", "192.168.1.4, true",
            "10.0.0.2, false", "10.0.0.4, true",
            "2001:db8::52:0:1, false", "2001:db8::52:0:2, true", "2001:db8::52:0:3, false",
            "2002:db8:a::123, false", "fe80::424b:c8be:1643:a1b6, true",
            "barbaz.net, true", "www.barbaz.net, false", "foobar.com, false", "www.foobar.com, false",
            "foofoobar.com, true", "baz.com, true", "localhost.net, true", "local.localhost, true",
            "barbarbaz.net, true", "wildcard.io, true", "nested.wildcard.io, false", "awildcard.io, true",
            "WWW.FOOBAR.COM, false"})
    void goesThroughTheProxyAsGoDecides(String host, boolean proxied) {
        assertThat(GO_TABLE.useProxy(host, 80)).isEqualTo(proxied);
    }

    @Test
    void portsNarrowAnEntry() {
        NoProxy noProxy = NoProxy.parse("example.com:8080, [::ffff:10.1.1.1]:443", true);
        assertThat(noProxy.useProxy("api.example.com", 8080)).isFalse();
        assertThat(noProxy.useProxy("api.example.com", 80)).isTrue();
        assertThat(noProxy.useProxy("10.1.1.1", 443)).as("IPv4-mapped compares as IPv4").isFalse();
        assertThat(noProxy.useProxy("10.1.1.1", 80)).isTrue();
    }

    @Test
    void aStarBypassesEverythingAndMalformedEntriesAreIgnored() {
        assertThat(NoProxy.parse("*", true).useProxy("anything.example", 443)).isFalse();
        assertThat(NoProxy.parse(" , :80, [], 300.1.1.1/8 ,bogus/x", true).useProxy("example.com", 80)).isTrue();
        assertThat(NoProxy.parse(null, true).useProxy("example.com", 80)).isTrue();
    }

    @Test
    void loopbackIsProxiedOnlyWhenAsked() {
        NoProxy explicit = NoProxy.parse("", false);
        assertThat(explicit.useProxy("127.0.0.1", 80)).isTrue();
        assertThat(explicit.useProxy("localhost", 80)).isTrue();
        assertThat(NoProxy.parse("", true).useProxy("127.0.0.1", 80)).isFalse();
    }
}
