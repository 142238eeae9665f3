package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.server.HttpServer;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a new user looks for on the first day: each against Shuttle's server, over HTTP/1.1 and HTTP/2 (h2c). */
class ConveniencesTest {
    private HttpServer server;
    private final List<String> seen = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.builder().port(0).handler((request, response) -> {
            seen.add(request.method() + " " + request.target() + " type=" + request.header("Content-Type")
                    + " x=" + request.headers().all("X-Tag"));
            switch (request.path()) {
                case "/slow" -> {
                    Thread.sleep(300);
                    response.send("late");
                }
                case "/status/404" -> response.send(404, "none");
                default -> response.send(request.bodyBytes());
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

    private static HttpClient client(boolean h2) {
        return HttpClient.builder().http2PriorKnowledge(h2).build();
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void typedBodiesSendTheirContentType(boolean h2) throws Exception {
        try (HttpClient client = client(h2)) {
            client.send(Request.newBuilder(uri("/a")).POST(BodyPublisher.ofJson("{\"a\":1}")).build(),
                    BodyHandler.discarding());
            client.send(Request.newBuilder(uri("/b")).PUT(BodyPublisher.ofString("hi", "text/plain")).build(),
                    BodyHandler.discarding());
            client.send(Request.newBuilder(uri("/c")).PATCH(BodyPublisher.ofForm(Map.of("a b", "ü&"))).build(),
                    BodyHandler.discarding());
            client.send(Request.newBuilder(uri("/d")).POST(BodyPublisher.ofJson("[]"))
                    .header("Content-Type", "application/vnd.mine+json").build(), BodyHandler.discarding());
        }
        assertThat(seen).containsExactly(
                "POST /a type=application/json x=[]",
                "PUT /b type=text/plain; charset=utf-8 x=[]",
                "PATCH /c type=application/x-www-form-urlencoded x=[]",
                "POST /d type=application/vnd.mine+json x=[]");
    }

    @Test
    void formsEncodeAsBrowsersDo() {
        FormBody form = FormBody.builder().add("name", "Ada Lovelace").add("tag", "a&b=c").add("tag", "ü*-._~")
                .build();
        assertThat(form).hasToString("name=Ada+Lovelace&tag=a%26b%3Dc&tag=%C3%BC*-._%7E");
        assertThat(form.contentLength()).isEqualTo(form.toString().length());
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void headerReplacesAndAddHeaderAdds(boolean h2) throws Exception {
        try (HttpClient client = client(h2)) {
            client.send(Request.newBuilder(uri("/h")).header("X-Tag", "one").header("X-Tag", "two")
                    .addHeader("X-Tag", "three").build(), BodyHandler.discarding());
        }
        assertThat(seen).containsExactly("GET /h type=null x=[two, three]");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void nonAsciiUrisAreSentPercentEncodedAndQueriesBuilt(boolean h2) throws Exception {
        try (HttpClient client = client(h2)) {
            Request request = Request.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/grüße?q=ä"))
                    .query("name", "Zoë & co").query("n", "1").build();
            assertThat(request.uri().toString()).isEqualTo("http://127.0.0.1:" + server.port()
                    + "/gr%C3%BC%C3%9Fe?q=%C3%A4&name=Zo%C3%AB+%26+co&n=1");
            client.send(request, BodyHandler.discarding());
        }
        assertThat(seen).containsExactly("GET /gr%C3%BC%C3%9Fe?q=%C3%A4&name=Zo%C3%AB+%26+co&n=1 type=null x=[]");
    }

    @Test
    void internationalHostNamesGoOutInTheirAsciiForm() {
        assertThat(Request.get(URI.create("http://bücher.example/")).origin().host())
                .isEqualTo("xn--bcher-kva.example");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void sendWithAHandlerReadsAndCloses(boolean h2) throws Exception {
        try (HttpClient client = client(h2)) {
            CompletedResponse<String> ok = client.send(Request.newBuilder(uri("/echo"))
                    .POST(BodyPublisher.ofString("héllo")).build(), BodyHandler.ofString());
            assertThat(ok.isSuccessful()).isTrue();
            assertThat(ok.body()).isEqualTo("héllo");
            CompletedResponse<String> missing = client.sendAsync(Request.get(uri("/status/404")),
                    BodyHandler.ofString(100)).join();
            assertThat(missing.isSuccessful()).isFalse();
            assertThat(missing.status()).isEqualTo(404);
            assertThat(missing.body()).isEqualTo("none");
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
        }
    }

    @Test
    void boundedStringsAndBytesRefuseWhatIsTooLongOrNegative() throws Exception {
        try (HttpClient client = HttpClient.create()) {
            Request request = Request.newBuilder(uri("/echo")).POST(BodyPublisher.ofString("0123456789")).build();
            assertThatThrownBy(() -> client.send(request, BodyHandler.ofString(5))).isInstanceOf(IOException.class)
                    .hasMessageContaining("exceeds the limit of 5");
            assertThat(client.send(request, BodyHandler.ofString(10)).body()).isEqualTo("0123456789");
            try (Response response = client.send(request)) {
                assertThatThrownBy(() -> response.bytes(-1)).isInstanceOf(IllegalArgumentException.class);
                assertThat(response.string()).isEqualTo("0123456789"); // still open and readable
            }
        }
    }

    @Test
    void aRequestMaySwitchTheClientsTimeoutsOff() throws Exception {
        try (HttpClient client = HttpClient.builder().callTimeout(Duration.ofMillis(100))
                .readTimeout(Duration.ofMillis(100)).build()) {
            assertThatThrownBy(() -> client.send(Request.get(uri("/slow")), BodyHandler.ofString()))
                    .isInstanceOf(HttpTimeoutException.class)
                    .hasMessageStartingWith("GET " + uri("/slow") + ": ");
            Request longPoll = Request.newBuilder(uri("/slow")).timeout(HttpClient.NO_TIMEOUT)
                    .readTimeout(HttpClient.NO_TIMEOUT).build();
            assertThat(client.send(longPoll, BodyHandler.ofString()).body()).isEqualTo("late");
        }
    }

    @Test
    void errorsNameTheCallAndTheAddress() throws Exception {
        int port;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = closed.getLocalPort();
        }
        try (HttpClient client = HttpClient.create()) {
            URI refused = URI.create("http://127.0.0.1:" + port + "/x");
            assertThatThrownBy(() -> client.send(Request.newBuilder(refused).DELETE().build()))
                    .isInstanceOf(ConnectException.class)
                    .hasMessageStartingWith("DELETE " + refused + ": connect to /127.0.0.1:" + port + ": ");
        }
    }

    @Test
    void priorKnowledgeAgainstAnHttp1ServerSaysSo() throws Exception {
        try (dev.shuttle.client.testing.ScriptedServer http1 = new dev.shuttle.client.testing.ScriptedServer(
                (conn, index) -> {
                    conn.socket().getInputStream().readNBytes(24);
                    conn.write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                    conn.awaitClientClose();
                }); HttpClient client = HttpClient.builder().http2PriorKnowledge(true).build()) {
            assertThatThrownBy(() -> client.send(Request.get(http1.uri("/"))))
                    .hasMessageContaining("the server answered in HTTP/1 (\"HTTP/1.1 400 Bad Request\")")
                    .hasMessageContaining("prior knowledge");
        }
    }

    @Test
    void aTraceFactoryKnowsEachCallsRequest() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        CountDownLatch both = new CountDownLatch(2);
        try (HttpClient client = HttpClient.builder().traceFactory(request -> new ClientTrace() {
            @Override
            public void gotConn(ConnectionInfo connection) {
                events.add(request.uri().getPath());
            }

            @Override
            public void bodyClosed(long bytesRead, DrainOutcome outcome, long bytesDiscarded) {
                events.add(request.uri().getPath() + " " + outcome);
                both.countDown();
            }
        }).build()) {
            client.send(Request.get(uri("/one")), BodyHandler.ofString());
            client.send(Request.get(uri("/two")), BodyHandler.ofString());
            assertThat(both.await(5, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(events).containsExactly("/one", "/one COMPLETE", "/two", "/two COMPLETE");
    }

    @Test
    void charsetsOfTypedStringsAreHonoured() throws Exception {
        BodyPublisher latin = BodyPublisher.ofString("é", "text/plain; charset=ISO-8859-1");
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        latin.writeTo(out);
        assertThat(out.toByteArray()).containsExactly("é".getBytes(StandardCharsets.ISO_8859_1));
        assertThat(latin.contentType()).isEqualTo("text/plain; charset=ISO-8859-1");
        assertThatThrownBy(() -> BodyPublisher.ofString("x", "text/plain; charset=nope"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
