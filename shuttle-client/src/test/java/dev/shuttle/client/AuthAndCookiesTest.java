package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.server.HttpServer;
import java.io.IOException;
import java.net.CookieManager;
import java.net.ProtocolException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Basic authentication and cookies against Shuttle's server, with redirects between two origins. */
class AuthAndCookiesTest {
    private static final String GOOD = "Basic " + Base64.getEncoder().encodeToString(
            "ada:lovelace".getBytes(StandardCharsets.ISO_8859_1));

    private HttpServer server;
    private HttpServer other;
    private final List<String> seen = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        other = HttpServer.builder().port(0).handler((request, response) -> {
            seen.add("other " + request.path() + " auth=" + request.header("Authorization") + " cookie="
                    + request.header("Cookie"));
            response.header("WWW-Authenticate", "Basic realm=\"other\"").send(401, "not you");
        }).start();
        server = HttpServer.builder().port(0).handler((request, response) -> {
            seen.add(request.path() + " auth=" + request.header("Authorization") + " cookie="
                    + request.header("Cookie"));
            switch (request.path()) {
                case "/private" -> {
                    if (GOOD.equals(request.header("Authorization"))) {
                        response.send("secret");
                    } else {
                        response.header("WWW-Authenticate", "Basic realm=\"api\"").send(401, "who?");
                    }
                }
                case "/to-other" -> response.status(302).header("Location", // another host: cookies are per host
                        "http://localhost:" + other.port() + "/landing");
                case "/login" -> response.addHeader("Set-Cookie", "session=s1; Path=/")
                        .addHeader("Set-Cookie", "theme=dark; Path=/").status(302).header("Location", "/me");
                case "/me" -> response.send("cookie " + request.header("Cookie"));
                default -> response.send("ok");
            }
        }).start();
    }

    @AfterEach
    void stop() {
        server.close();
        other.close();
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    @Test
    void basicCredentialsAnswerTheChallenge() throws Exception {
        try (HttpClient client = HttpClient.builder().authenticator(Authenticator.basic("ada", "lovelace")).build()) {
            assertThat(client.send(Request.get(uri("/private")), BodyHandler.ofString()).body()).isEqualTo("secret");
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
        }
        assertThat(seen).containsExactly("/private auth=null cookie=null", "/private auth=" + GOOD + " cookie=null");
    }

    @Test
    void refusedCredentialsAreTriedOnce() throws Exception {
        try (HttpClient client = HttpClient.builder().authenticator(Authenticator.basic("ada", "wrong")).build()) {
            CompletedResponse<String> refused = client.send(Request.get(uri("/private")), BodyHandler.ofString());
            assertThat(refused.status()).isEqualTo(401);
            assertThat(refused.body()).isEqualTo("who?");
        }
        assertThat(seen).hasSize(2);
    }

    @Test
    void anotherOriginsChallengeIsNeverAnswered() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        Authenticator counting = (request, challenge) -> {
            asked.incrementAndGet();
            return Authenticator.basic("ada", "lovelace").authenticate(request, challenge);
        };
        try (HttpClient client = HttpClient.builder().authenticator(counting).build()) {
            CompletedResponse<String> landed = client.send(Request.get(uri("/to-other")), BodyHandler.ofString());
            assertThat(landed.status()).isEqualTo(401);
        }
        assertThat(asked.get()).isZero();
        assertThat(seen).containsExactly("/to-other auth=null cookie=null", "other /landing auth=null cookie=null");
    }

    @Test
    void anAuthenticatorThatNeverSucceedsIsStopped() throws Exception {
        Authenticator stubborn = (request, challenge) -> request.toBuilder()
                .header("Authorization", "Basic " + System.nanoTime()).build();
        try (HttpClient client = HttpClient.builder().authenticator(stubborn).build()) {
            assertThatThrownBy(() -> client.send(Request.get(uri("/private"))))
                    .isInstanceOf(ProtocolException.class).hasMessageContaining("rounds of 401 challenges");
        }
        assertThat(seen).hasSize(4);
    }

    @Test
    void cookiesSetOnARedirectComeBackOnTheNextHopAndStayAtTheirOrigin() throws Exception {
        CookieManager jar = new CookieManager();
        try (HttpClient client = HttpClient.builder().cookieHandler(jar).build()) {
            CompletedResponse<String> me = client.send(Request.get(uri("/login")), BodyHandler.ofString());
            assertThat(me.body()).isEqualTo("cookie session=s1; theme=dark");
            Request withOwn = Request.newBuilder(uri("/me")).header("Cookie", "mine=1").build();
            assertThat(client.send(withOwn, BodyHandler.ofString()).body())
                    .isEqualTo("cookie mine=1; session=s1; theme=dark");
            client.send(Request.get(uri("/to-other")), BodyHandler.discarding());
        }
        assertThat(seen).last().isEqualTo("other /landing auth=null cookie=null");
        assertThat(jar.getCookieStore().getCookies()).hasSize(2);
    }
}
