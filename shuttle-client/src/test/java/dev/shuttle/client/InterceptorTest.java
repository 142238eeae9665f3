package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.server.HttpServer;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Logging, auth and metrics written as interceptors, and the rules each kind keeps (OkHttp's model). */
class InterceptorTest {
    private HttpServer server;
    private final AtomicInteger flaky = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.builder().port(0).handler((request, response) -> {
            switch (request.path()) {
                case "/auth" -> {
                    if ("Bearer t".equals(request.header("Authorization"))) {
                        response.send("welcome");
                    } else {
                        response.send(401, "who?");
                    }
                }
                case "/flaky" -> response.send(flaky.incrementAndGet() < 3 ? 503 : 200, "try " + flaky.get());
                default -> response.send("path " + request.path());
            }
        }).start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    @Test
    void anApplicationInterceptorAddsCredentials() throws Exception {
        Interceptor bearer = chain -> chain.proceed(chain.request().toBuilder()
                .header("Authorization", "Bearer t").build());
        try (HttpClient client = HttpClient.builder().addInterceptor(bearer).build()) {
            assertThat(client.send(Request.get(uri("/auth")), BodyHandler.ofString()).body()).isEqualTo("welcome");
        }
    }

    @Test
    void anApplicationInterceptorMayRetryAndClosesWhatItDrops() throws Exception {
        Interceptor retry = chain -> {
            Response response = chain.proceed(chain.request());
            for (int i = 0; i < 5 && response.status() == 503; i++) {
                response.close();
                response = chain.proceed(chain.request());
            }
            return response;
        };
        List<String> network = new CopyOnWriteArrayList<>();
        Interceptor log = chain -> {
            Response response = chain.proceed(chain.request());
            network.add(chain.request().method() + " " + chain.request().uri().getPath() + " -> " + response.status()
                    + " on #" + chain.connection().id());
            return response;
        };
        try (HttpClient client = HttpClient.builder().addInterceptor(retry).addNetworkInterceptor(log).build()) {
            CompletedResponse<String> answer = client.send(Request.get(uri("/flaky")), BodyHandler.ofString());
            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.body()).isEqualTo("try 3");
            assertThat(client.stats().connectionsOpened()).as("the dropped 503s kept the connection").isEqualTo(1);
        }
        assertThat(network).containsExactly("GET /flaky -> 503 on #1", "GET /flaky -> 503 on #1",
                "GET /flaky -> 200 on #1");
    }

    @Test
    void aMetricsInterceptorSeesEveryCall() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger ok = new AtomicInteger();
        Interceptor metrics = chain -> {
            calls.incrementAndGet();
            Response response = chain.proceed(chain.request());
            if (response.isSuccessful()) {
                ok.incrementAndGet();
            }
            assertThat(chain.connection()).isNull(); // an application interceptor has no connection
            return response;
        };
        try (HttpClient client = HttpClient.builder().addInterceptor(metrics).build()) {
            for (int i = 0; i < 3; i++) {
                client.send(Request.get(uri("/x")), BodyHandler.discarding());
            }
            client.send(Request.get(uri("/auth")), BodyHandler.discarding());
        }
        assertThat(calls.get()).isEqualTo(4);
        assertThat(ok.get()).isEqualTo(3);
    }

    @Test
    void anApplicationInterceptorMayAnswerWithoutTheNetwork() throws Exception {
        Interceptor offline = chain -> {
            throw new IOException("offline mode: " + chain.request().uri());
        };
        try (HttpClient client = HttpClient.builder().addInterceptor(offline).build()) {
            assertThatThrownBy(() -> client.send(Request.get(uri("/x")))).isInstanceOf(IOException.class)
                    .hasMessageContaining("offline mode");
            assertThat(client.stats().connectionsOpened()).isZero();
        }
    }

    @Test
    void networkInterceptorsMustProceedOnceAndKeepTheOrigin() throws Exception {
        Interceptor twice = chain -> {
            chain.proceed(chain.request()).close();
            return chain.proceed(chain.request());
        };
        try (HttpClient client = HttpClient.builder().addNetworkInterceptor(twice).build()) {
            assertThatThrownBy(() -> client.send(Request.get(uri("/x")))).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("exactly once");
        }
        Interceptor elsewhere = chain -> chain.proceed(Request.get("http://127.0.0.2:1/"));
        try (HttpClient client = HttpClient.builder().addNetworkInterceptor(elsewhere).build()) {
            assertThatThrownBy(() -> client.send(Request.get(uri("/x")))).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("must keep the origin");
            // The connection the refused request had leased went back, closed: the client still works.
        }
    }

    @Test
    void interceptorsRunInOrder() throws Exception {
        List<String> order = new CopyOnWriteArrayList<>();
        Interceptor a = named("a", order);
        Interceptor b = named("b", order);
        Interceptor n1 = named("n1", order);
        Interceptor n2 = named("n2", order);
        try (HttpClient client = HttpClient.builder().addInterceptor(a).addInterceptor(b).addNetworkInterceptor(n1)
                .addNetworkInterceptor(n2).build()) {
            client.send(Request.get(uri("/x")), BodyHandler.discarding());
        }
        assertThat(order).containsExactly("a>", "b>", "n1>", "n2>", "<n2", "<n1", "<b", "<a");
    }

    private static Interceptor named(String name, List<String> order) {
        return chain -> {
            order.add(name + ">");
            Response response = chain.proceed(chain.request());
            order.add("<" + name);
            return response;
        };
    }
}
