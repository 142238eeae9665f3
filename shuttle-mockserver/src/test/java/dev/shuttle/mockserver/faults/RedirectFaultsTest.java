package dev.shuttle.mockserver.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.BodyHandler;
import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Request;
import dev.shuttle.mockserver.MockResponse;
import dev.shuttle.mockserver.MockServer;
import dev.shuttle.mockserver.RecordedRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Shuttle's client against redirects a server gets wrong, or that lead elsewhere. */
@Timeout(60)
class RedirectFaultsTest {
    @Test
    void aRedirectLoopStopsAfterTenHopsOnOneConnection() throws Exception {
        try (MockServer server = MockServer.builder()
                .dispatcher(request -> MockResponse.builder().status(302).header("Location", "/again")
                        .bodyOfSize(2048).build())
                .start(); HttpClient client = HttpClient.create()) {
            assertThatThrownBy(() -> client.send(Request.get(server.url("/start"))))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("GET " + server.url("/start"))
                    .hasMessageContaining("stopped after 10 redirects");
            assertThat(server.requests()).isEqualTo(11);
            assertThat(server.connections()).isEqualTo(1);
        }
    }

    @Test
    void aRedirectToAnotherOriginStripsTheCallersCredentials() throws Exception {
        List<RecordedRequest> atB = new CopyOnWriteArrayList<>();
        try (MockServer b = MockServer.builder().dispatcher(request -> {
            atB.add(request);
            return MockResponse.text("b");
        }).start(); MockServer a = MockServer.builder().dispatcher(request -> request.path().equals("/same")
                ? MockResponse.builder().status(307).header("Location", "/there").build()
                : request.path().equals("/there") ? MockResponse.text("a")
                : MockResponse.builder().status(302).header("Location", b.url("/landing").toString()).build())
                .start(); HttpClient client = HttpClient.create()) {
            Request secret = Request.newBuilder(a.url("/start")).header("Authorization", "Bearer secret")
                    .header("Cookie", "session=1").header("Proxy-Authorization", "Basic cA==")
                    .header("X-Request-Id", "42").build();
            assertThat(client.send(secret, BodyHandler.ofString()).body()).isEqualTo("b");
            assertThat(atB).hasSize(1);
            RecordedRequest landed = atB.getFirst();
            assertThat(landed.header("Authorization")).isNull();
            assertThat(landed.header("Cookie")).isNull();
            assertThat(landed.header("Proxy-Authorization")).isNull();
            assertThat(landed.header("X-Request-Id")).isEqualTo("42");

            assertThat(client.send(secret.toBuilder().uri(a.url("/same")).build(), BodyHandler.ofString()).body())
                    .isEqualTo("a");
            RecordedRequest first = a.takeRequest(Duration.ofSeconds(5));
            assertThat(first.path()).isEqualTo("/start");
            RecordedRequest sameOrigin = a.takeRequest(Duration.ofSeconds(5));
            RecordedRequest there = a.takeRequest(Duration.ofSeconds(5));
            assertThat(sameOrigin.path()).isEqualTo("/same");
            assertThat(there.path()).isEqualTo("/there");
            assertThat(there.header("Authorization")).isEqualTo("Bearer secret");
        }
    }

    @Test
    void aRedirectWithoutLocationOrToAnotherSchemeIsNotFollowed() throws Exception {
        try (MockServer server = MockServer.builder().dispatcher(request -> switch (request.path()) {
            case "/nowhere" -> MockResponse.builder().status(301).text("moved, but where?").build();
            default -> MockResponse.builder().status(302).header("Location", "gopher://old.example/").build();
        }).start(); HttpClient client = HttpClient.create()) {
            assertThat(client.send(Request.get(server.url("/nowhere")), BodyHandler.ofString()).status())
                    .isEqualTo(301);
            assertThatThrownBy(() -> client.send(Request.get(server.url("/gopher"))))
                    .hasMessageContaining("unsupported scheme");
            assertThat(server.connections()).isEqualTo(1);
        }
    }
}
