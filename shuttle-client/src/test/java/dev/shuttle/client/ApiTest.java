package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Validation and defaults of the public value types. */
class ApiTest {
    @Test
    void idempotencyFollowsTheMethodTheKeyAndTheCaller() {
        URI uri = URI.create("http://example.test/x");
        assertThat(Request.get(uri).isIdempotent()).isTrue();
        assertThat(Request.newBuilder(uri).DELETE().build().isIdempotent()).isTrue();
        assertThat(Request.newBuilder(uri).POST(BodyPublisher.ofString("a")).build().isIdempotent()).isFalse();
        assertThat(Request.newBuilder(uri).POST(BodyPublisher.ofString("a")).header("Idempotency-Key", "1").build()
                .isIdempotent()).isTrue();
        assertThat(Request.newBuilder(uri).POST(BodyPublisher.none()).idempotent(true).build().isIdempotent())
                .isTrue();
        assertThat(Request.get(uri).toBuilder().idempotent(false).build().isIdempotent()).isFalse();
    }

    @Test
    void requestsRejectWhatTheClientMustControl() {
        assertThatThrownBy(() -> Request.get("ftp://example.test/")).hasMessageContaining("unsupported scheme");
        assertThat(Request.get("https://example.test/").origin().port()).isEqualTo(443);
        assertThat(Request.get("https://example.test/").origin().authority()).isEqualTo("example.test");
        assertThat(Request.get("https://example.test:80/").origin().authority()).isEqualTo("example.test:80");
        assertThatThrownBy(() -> Request.get("/relative")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Request.newBuilder("http://a.test/").header("Content-Length", "5"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Request.newBuilder("http://a.test/").header("X", "bad\r\nvalue"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Request.newBuilder("http://a.test/").method("G ET", BodyPublisher.none()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void targetsAndOrigins() {
        Request request = Request.get("http://Example.TEST:8080/a%20b?q=1#frag");
        assertThat(request.target()).isEqualTo("/a%20b?q=1");
        assertThat(request.origin()).isEqualTo(new Origin("http", "example.test", 8080));
        assertThat(request.origin().authority()).isEqualTo("example.test:8080");
        assertThat(Request.get("http://example.test").target()).isEqualTo("/");
        assertThat(Origin.of(URI.create("http://[::1]/")).authority()).isEqualTo("[::1]");
    }

    @Test
    void drainPoliciesCarryGoSettingsAndValidate() {
        assertThat(DrainPolicy.defaults()).isEqualTo(new DrainPolicy(256 * 1024, Duration.ofMillis(50), true, true));
        assertThat(DrainPolicy.bounded(1, Duration.ofMillis(1)).inline()).isFalse();
        assertThat(DrainPolicy.none().drains()).isFalse();
        assertThatThrownBy(() -> new DrainPolicy(0, Duration.ZERO, true, false))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DrainPolicy.bounded(0, Duration.ofMillis(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void poolConfigDefaults() {
        PoolConfig config = PoolConfig.defaults();
        assertThat(config.adaptiveIdle()).isTrue();
        assertThat(config.idleTimeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(config.maxConnsPerHost()).isEqualTo(Integer.MAX_VALUE);
        assertThatThrownBy(() -> PoolConfig.builder().maxConnsPerHost(0).build())
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aClosedClientRefusesRequests() {
        HttpClient client = HttpClient.create();
        client.close();
        client.close();
        assertThatThrownBy(() -> client.send(Request.get("http://example.test/")))
                .isInstanceOf(IllegalStateException.class);
    }
}
