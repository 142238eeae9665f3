package dev.shuttle.client.redirect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.BodyPublisher;
import dev.shuttle.client.RedirectPolicy;
import dev.shuttle.client.Request;
import dev.shuttle.wire.Headers;
import java.io.OutputStream;
import java.net.ProtocolException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Go's and the Fetch standard's redirect rules, one row each. */
class RedirectRulesTest {
    private static final RedirectPolicy DEFAULTS = RedirectPolicy.defaults();

    private static Request post(String uri) {
        return Request.newBuilder(uri).POST(BodyPublisher.ofJson("{}")).header("Content-Language", "en")
                .header("Authorization", "Bearer a").header("Cookie", "c=1").header("Proxy-Authorization", "Basic p")
                .header("X-Kept", "k").build();
    }

    private static Request next(Request current, int status, String location) throws ProtocolException {
        return RedirectRules.next(current, status, location == null ? Headers.EMPTY : Headers.of("Location", location),
                DEFAULTS);
    }

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource({
            "301, POST, GET", "302, POST, GET", "303, POST, GET", "307, POST, POST", "308, POST, POST",
            "301, PUT, GET", "303, HEAD, HEAD", "302, GET, GET", "307, DELETE, DELETE", "303, DELETE, GET"})
    void methodsFollowTheStatus(int status, String method, String expected) throws Exception {
        BodyPublisher body = method.equals("GET") || method.equals("HEAD") || method.equals("DELETE")
                ? BodyPublisher.none() : BodyPublisher.ofJson("{}");
        Request current = Request.newBuilder("http://a.test/x").method(method, body).build();
        Request redirected = next(current, status, "/y");
        assertThat(redirected.method()).isEqualTo(expected);
        assertThat(redirected.uri().toString()).isEqualTo("http://a.test/y");
        boolean keepsBody = expected.equals(method) && body != BodyPublisher.none();
        assertThat(redirected.body()).isSameAs(keepsBody ? body : BodyPublisher.none());
    }

    @Test
    void aBodyDroppedTakesItsFieldsAlongAndSameOriginKeepsCredentials() throws Exception {
        Request redirected = next(post("http://a.test/x"), 303, "http://a.test/done");
        assertThat(redirected.headers().contains("Content-Language")).isFalse();
        assertThat(redirected.headers().first("Authorization")).isEqualTo("Bearer a");
        assertThat(redirected.headers().first("Cookie")).isEqualTo("c=1");
        assertThat(redirected.headers().first("X-Kept")).isEqualTo("k");
        Request replayed = next(post("http://a.test/x"), 308, "/again");
        assertThat(replayed.headers().first("Content-Language")).isEqualTo("en");
        assertThat(replayed.body().contentType()).isEqualTo("application/json");
    }

    @ParameterizedTest
    @CsvSource({"http://b.test/y", "https://a.test/y", "http://a.test:8080/y", "//b.test/y"})
    void anotherOriginLosesTheCallersCredentials(String location) throws Exception {
        Request redirected = next(post("http://a.test/x"), 307, location);
        assertThat(redirected.headers().contains("Authorization")).isFalse();
        assertThat(redirected.headers().contains("Cookie")).isFalse();
        assertThat(redirected.headers().contains("Proxy-Authorization")).isFalse();
        assertThat(redirected.headers().first("X-Kept")).isEqualTo("k");
    }

    @Test
    void httpsToHttpIsReturnedUnlessAllowed() throws Exception {
        Request secure = Request.get("https://a.test/x");
        assertThat(next(secure, 302, "http://a.test/y")).isNull();
        RedirectPolicy lax = RedirectPolicy.builder().httpsToHttp(true).build();
        assertThat(RedirectRules.next(secure, 302, Headers.of("Location", "http://a.test/y"), lax).uri())
                .hasToString("http://a.test/y");
        assertThat(next(Request.get("http://a.test/x"), 302, "https://a.test/y").uri()).hasToString("https://a.test/y");
    }

    @Test
    void whatIsNotARedirectToFollowIsReturned() throws Exception {
        Request get = Request.get("http://a.test/x");
        assertThat(next(get, 300, "/y")).isNull();
        assertThat(next(get, 304, "/y")).isNull();
        assertThat(next(get, 200, "/y")).isNull();
        assertThat(next(get, 301, null)).isNull();
        assertThat(next(get, 301, " ")).isNull();
        BodyPublisher once = new BodyPublisher() {
            @Override
            public long contentLength() {
                return 1;
            }

            @Override
            public boolean isReplayable() {
                return false;
            }

            @Override
            public void writeTo(OutputStream out) {
            }
        };
        Request streamed = Request.newBuilder("http://a.test/x").POST(once).build();
        assertThat(next(streamed, 307, "/y")).as("307 cannot resend a one-shot body").isNull();
        assertThat(next(streamed, 302, "/y").method()).isEqualTo("GET");
    }

    @Test
    void locationsAreResolvedAndSloppyOnesTolerated() throws Exception {
        Request get = Request.get("http://a.test/dir/page?q=1#top");
        assertThat(next(get, 302, "other").uri()).hasToString("http://a.test/dir/other#top");
        assertThat(next(get, 302, "../up#frag").uri()).hasToString("http://a.test/up#frag");
        assertThat(next(get, 302, "/a b/ü").uri()).hasToString("http://a.test/a%20b/%C3%BC#top");
        assertThat(next(get, 302, "?page=2").uri()).hasToString("http://a.test/dir/page?page=2#top");
        assertThat(next(get, 302, "../../../g").uri()).hasToString("http://a.test/g#top");
    }

    @Test
    void unusableLocationsFailTheCall() {
        Request get = Request.get("http://a.test/x");
        assertThatThrownBy(() -> next(get, 302, "ftp://a.test/file")).isInstanceOf(ProtocolException.class)
                .hasMessageContaining("unsupported scheme");
        assertThatThrownBy(() -> next(get, 302, "http://user:pw@b.test/")).isInstanceOf(ProtocolException.class)
                .hasMessageContaining("unusable URI");
        assertThatThrownBy(() -> next(get, 302, "http://[bad/")).isInstanceOf(ProtocolException.class);
    }
}
