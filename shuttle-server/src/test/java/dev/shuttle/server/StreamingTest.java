package dev.shuttle.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Server-sent events: {@code flush()} puts an event on the wire at once (the second event is written only after the
 * client has read the first, so any buffering would hang), and a client that goes away is seen by a handler that
 * waits. Over curl {@code -N} and the JDK client, HTTP/1.1 and HTTP/2.
 */
class StreamingTest {
    private HttpServer server;
    private final CountDownLatch clientSawFirst = new CountDownLatch(1);
    private final CompletableFuture<Throwable> gone = new CompletableFuture<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.builder().handler((request, response) -> {
            response.header("Content-Type", "text/event-stream");
            response.body().write("data: one\n\n".getBytes(StandardCharsets.UTF_8));
            response.flush();
            if (request.path().equals("/until-gone")) {
                Cancellation signal = request.cancellation();
                signal.await();
                gone.complete(signal.cause());
                return;
            }
            if (!clientSawFirst.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the client never saw the first event");
            }
            response.body().write("data: two\n\n".getBytes(StandardCharsets.UTF_8));
        }).start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String url(String path) {
        return "http://127.0.0.1:" + server.port() + path;
    }

    @ParameterizedTest
    @ValueSource(strings = {"--http1.1", "--http2-prior-knowledge"})
    void curlSeesEachEventAsItIsFlushed(String protocol) throws Exception {
        ExternalProcess.assumeInstalled("curl", "curl");
        Process curl = new ProcessBuilder("curl", "-s", "-N", protocol, url("/events")).start();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(curl.getInputStream(),
                StandardCharsets.UTF_8))) {
            assertThat(lines.readLine()).isEqualTo("data: one");
            clientSawFirst.countDown();
            assertThat(lines.readLine()).isEmpty();
            assertThat(lines.readLine()).isEqualTo("data: two");
        } finally {
            curl.destroy();
            curl.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"HTTP_1_1", "HTTP_2"})
    void theJdkClientSeesEachEventAsItIsFlushed(String version) throws Exception {
        try (java.net.http.HttpClient client = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.valueOf(version)).build()) {
            HttpResponse<Stream<String>> response = client.send(HttpRequest.newBuilder(URI.create(url("/events")))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofLines());
            Iterator<String> lines = response.body().iterator();
            assertThat(lines.next()).isEqualTo("data: one");
            clientSawFirst.countDown();
            assertThat(List.of(lines.next(), lines.next())).containsExactly("", "data: two");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"--http1.1", "--http2-prior-knowledge"})
    void aHandlerWaitingOnTheSignalSeesCurlGo(String protocol) throws Exception {
        ExternalProcess.assumeInstalled("curl", "curl");
        Process curl = new ProcessBuilder("curl", "-s", "-N", protocol, url("/until-gone")).start();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(curl.getInputStream(),
                StandardCharsets.UTF_8))) {
            assertThat(lines.readLine()).isEqualTo("data: one");
            curl.destroy(); // SIGTERM: curl closes its connection
            assertThat(gone.get(10, TimeUnit.SECONDS)).isInstanceOf(ClientGoneException.class);
        } finally {
            curl.destroyForcibly();
            curl.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
