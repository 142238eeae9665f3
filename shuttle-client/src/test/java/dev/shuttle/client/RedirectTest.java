package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.server.HttpServer;
import dev.shuttle.client.testing.RecordingTrace;
import java.io.IOException;
import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Redirects followed against Shuttle's server, over HTTP/1.1 and HTTP/2: the hops' bodies go through the drain policy
 * so a chain costs one connection, and every hop is in the trace and in front of the network interceptors.
 */
class RedirectTest {
    private HttpServer server;
    private final AtomicInteger connections = new AtomicInteger();
    private final List<String> seen = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.builder().port(0)
                .connectionListener((connection, from, to) -> {
                    if (to == dev.shuttle.server.ConnectionState.NEW) {
                        connections.incrementAndGet();
                    }
                })
                .handler((request, response) -> {
                    byte[] body = request.bodyBytes();
                    seen.add(request.method() + " " + request.target() + " " + body.length);
                    String[] parts = request.path().split("/");
                    switch (parts[1]) {
                        case "hop" -> { // /hop/N/STATUS: N more hops with STATUS, each with a 2 KiB body
                            int left = Integer.parseInt(parts[2]);
                            String location = left == 1 ? "/done" : "/hop/" + (left - 1) + "/" + parts[3];
                            response.status(Integer.parseInt(parts[3])).header("Location", location);
                            byte[] filler = new byte[2048];
                            Arrays.fill(filler, (byte) 'r');
                            response.body().write(filler);
                        }
                        case "loop" -> response.status(302).header("Location", "/loop");
                        case "done" -> response.send("done " + request.method() + " " + body.length);
                        default -> response.send(404, "no");
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

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aChainOfFiveRedirectsWithBodiesCostsOneConnection(boolean h2) throws Exception {
        RecordingTrace trace = new RecordingTrace();
        List<String> hops = new CopyOnWriteArrayList<>();
        Interceptor network = chain -> {
            hops.add(chain.request().uri().getPath() + " on #" + chain.connection().id());
            return chain.proceed(chain.request());
        };
        try (HttpClient client = HttpClient.builder().http2PriorKnowledge(h2).addNetworkInterceptor(network)
                .build()) {
            for (int i = 0; i < 3; i++) {
                Request request = Request.newBuilder(uri("/hop/5/302")).trace(trace).build();
                CompletedResponse<String> done = client.send(request, BodyHandler.ofString());
                assertThat(done.body()).isEqualTo("done GET 0");
                assertThat(done.request().uri().getPath()).isEqualTo("/done");
            }
        }
        assertThat(connections.get()).isEqualTo(1);
        assertThat(hops).hasSize(18).allMatch(hop -> hop.endsWith(" on #1"));
        assertThat(hops.subList(0, 6)).extracting(hop -> hop.substring(0, hop.indexOf(' ')))
                .containsExactly("/hop/5/302", "/hop/4/302", "/hop/3/302", "/hop/2/302", "/hop/1/302", "/done");
        assertThat(trace.events.stream().filter(e -> e.startsWith("followUp")).toList()).hasSize(15)
                .first().isEqualTo("followUp 302 " + uri("/hop/4/302"));
        assertThat(trace.events.stream().filter(e -> e.startsWith("getConn")).count()).isEqualTo(18);
    }

    @Test
    void postSeeOtherBecomesGetAndTemporaryRedirectReplaysTheBody() throws Exception {
        try (HttpClient client = HttpClient.create()) {
            Request post = Request.newBuilder(uri("/hop/1/303")).POST(BodyPublisher.ofString("payload")).build();
            assertThat(client.send(post, BodyHandler.ofString()).body()).isEqualTo("done GET 0");
            Request again = Request.newBuilder(uri("/hop/2/307")).POST(BodyPublisher.ofString("payload")).build();
            assertThat(client.send(again, BodyHandler.ofString()).body()).isEqualTo("done POST 7");
        }
        assertThat(seen).containsExactly("POST /hop/1/303 7", "GET /done 0", "POST /hop/2/307 7",
                "POST /hop/1/307 7", "POST /done 7");
    }

    @Test
    void aLoopStopsAfterTenRedirects() throws Exception {
        try (HttpClient client = HttpClient.create()) {
            assertThatThrownBy(() -> client.send(Request.get(uri("/loop")))).isInstanceOf(IOException.class)
                    .hasMessageContaining("stopped after 10 redirects");
            assertThat(seen).hasSize(11);
            assertThat(connections.get()).isEqualTo(1);
        }
    }

    @Test
    void withoutFollowingTheRedirectIsReturnedAndAPolicyMayStopOrFail() throws Exception {
        try (HttpClient client = HttpClient.builder().redirectPolicy(RedirectPolicy.none()).build()) {
            try (Response response = client.send(Request.get(uri("/hop/1/301")))) {
                assertThat(response.status()).isEqualTo(301);
                assertThat(response.isRedirect()).isTrue();
                assertThat(response.header("Location")).isEqualTo("/done");
            }
        }
        List<String> checked = new CopyOnWriteArrayList<>();
        RedirectPolicy twoAtMost = RedirectPolicy.builder().check((next, via) -> {
            checked.add(next.uri().getPath() + " after " + via.size());
            return via.size() < 2;
        }).build();
        try (HttpClient client = HttpClient.builder().redirectPolicy(twoAtMost).build()) {
            try (Response response = client.send(Request.get(uri("/hop/5/308")))) {
                assertThat(response.status()).isEqualTo(308);
                assertThat(response.request().uri().getPath()).isEqualTo("/hop/4/308");
            }
        }
        assertThat(checked).containsExactly("/hop/4/308 after 1", "/hop/3/308 after 2");
        RedirectPolicy refusing = RedirectPolicy.builder().check((next, via) -> {
            throw new IOException("no redirects to " + next.uri().getPath());
        }).build();
        try (HttpClient client = HttpClient.builder().redirectPolicy(refusing).build()) {
            assertThatThrownBy(() -> client.send(Request.get(uri("/hop/1/302"))))
                    .hasMessageContaining("no redirects to /done");
        }
    }
}
