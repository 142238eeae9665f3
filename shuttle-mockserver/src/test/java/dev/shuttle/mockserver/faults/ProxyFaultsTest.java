package dev.shuttle.mockserver.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.Authenticator;
import dev.shuttle.client.BodyHandler;
import dev.shuttle.client.CompletedResponse;
import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Proxies;
import dev.shuttle.client.ProxyRefusedException;
import dev.shuttle.client.Request;
import dev.shuttle.mockserver.MockResponse;
import dev.shuttle.mockserver.MockServer;
import dev.shuttle.mockserver.RecordedRequest;
import java.net.ProtocolException;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The mock server as a proxy that asks for credentials for ever: plain http and CONNECT end, saying why. */
@Timeout(60)
class ProxyFaultsTest {
    private static final URI PLAIN_TARGET = URI.create("http://origin.invalid:8080/x");
    private static final URI SECURE_TARGET = URI.create("https://origin.invalid/x");

    private static MockServer alwaysChallenging(List<RecordedRequest> seen) throws Exception {
        return MockServer.builder().dispatcher(request -> {
            seen.add(request);
            return MockResponse.builder().status(407).header("Proxy-Authenticate", "Basic realm=\"mock\"")
                    .text("credentials, please").build();
        }).start();
    }

    @Test
    void aPlainHttp407LoopReturnsTheChallengeAfterOneRefusal() throws Exception {
        List<RecordedRequest> seen = new CopyOnWriteArrayList<>();
        try (MockServer proxy = alwaysChallenging(seen);
             HttpClient client = HttpClient.builder().proxy(Proxies.of(proxy.url("/").toString()))
                     .proxyAuthenticator(Authenticator.basic("ada", "wrong")).build()) {
            CompletedResponse<String> answer = client.send(Request.get(PLAIN_TARGET), BodyHandler.ofString());
            assertThat(answer.status()).isEqualTo(407);
            assertThat(answer.body()).isEqualTo("credentials, please");
            assertThat(proxy.connections()).isEqualTo(1);
        }
        assertThat(seen).hasSize(2);
        assertThat(seen.get(0).target()).isEqualTo(PLAIN_TARGET.toString());
        assertThat(seen.get(0).header("Proxy-Authorization")).isNull();
        assertThat(seen.get(1).header("Proxy-Authorization")).startsWith("Basic ");
    }

    @Test
    void anAuthenticatorThatNeverGivesUpIsStopped() throws Exception {
        List<RecordedRequest> seen = new CopyOnWriteArrayList<>();
        Authenticator endless = (request, challenge) -> request.toBuilder()
                .header("Proxy-Authorization", "Basic " + System.nanoTime()).build();
        try (MockServer proxy = alwaysChallenging(seen);
             HttpClient client = HttpClient.builder().proxy(Proxies.of(proxy.url("/").toString()))
                     .proxyAuthenticator(endless).build()) {
            assertThatThrownBy(() -> client.send(Request.get(PLAIN_TARGET)))
                    .isInstanceOf(ProtocolException.class).hasMessageContaining("407 challenges");
            assertThatThrownBy(() -> client.send(Request.get(SECURE_TARGET)))
                    .isInstanceOf(ProxyRefusedException.class).hasMessageContaining(": 407");
        }
        assertThat(seen).anyMatch(request -> request.method().equals("CONNECT")
                && request.target().equals("origin.invalid:443"));
    }
}
