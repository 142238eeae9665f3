package dev.shuttle.server.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.server.HttpServer;
import dev.shuttle.server.Request;
import dev.shuttle.server.Response;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A handler whose thread has an interrupt pending when it writes, on an HTTP/2 connection another stream shares: its
 * write fails with {@code InterruptedIOException} and nothing reaches the socket (an interrupted channel write would
 * close the connection), its own stream ends with a 500 or a reset, and the other stream and later requests on the
 * same connection are served. The JDK's client multiplexes the streams over one h2c connection.
 */
class InterruptedHandlerTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    /** What the interrupted handler saw: its write's failure, and whether the interrupt was still pending after it. */
    private final CompletableFuture<String> interruptedWrite = new CompletableFuture<>();
    private final CountDownLatch otherStarted = new CountDownLatch(1);
    private final CountDownLatch interruptedDone = new CountDownLatch(1);
    private final Map<String, Long> connectionOf = new ConcurrentHashMap<>();
    private HttpServer server;
    private HttpClient client;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.builder().handler(this::handle).start();
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private void handle(Request request, Response response) throws Exception {
        connectionOf.put(request.path(), request.connection().id());
        switch (request.path()) {
            case "/other" -> {
                otherStarted.countDown();
                // Open until the interrupted handler has failed its write, so both streams share the connection then.
                assertThat(interruptedDone.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
                response.send("other");
            }
            case "/before-commit" -> {
                awaitOther();
                interruptAndWrite(() -> response.send("never sent"));
            }
            case "/after-commit" -> {
                awaitOther();
                response.body().write("head and a first part;".getBytes());
                response.body().flush(); // committed: HEADERS and the first DATA are out
                interruptAndWrite(() -> {
                    response.body().write(" never sent".getBytes());
                    response.body().flush();
                });
            }
            default -> response.send("served");
        }
    }

    private void awaitOther() throws InterruptedException {
        assertThat(otherStarted.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    }

    private interface Write {
        void run() throws IOException;
    }

    private void interruptAndWrite(Write write) throws IOException {
        Thread.currentThread().interrupt();
        try {
            write.run();
            interruptedWrite.complete("written");
        } catch (IOException e) {
            interruptedWrite.complete(e.getClass().getSimpleName() + " interrupted="
                    + Thread.currentThread().isInterrupted());
            throw e;
        } finally {
            interruptedDone.countDown();
        }
    }

    private HttpRequest get(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).timeout(WAIT).build();
    }

    /**
     * Upgrades to h2c, so the requests after it are streams of one HTTP/2 connection, then opens /other, whose stream
     * is open on that connection before the next request goes out.
     */
    private CompletableFuture<HttpResponse<String>> upgradeAndOpenOther() throws Exception {
        HttpResponse<String> first = client.send(get("/first"), HttpResponse.BodyHandlers.ofString());
        assertThat(first.version()).isEqualTo(HttpClient.Version.HTTP_2);
        CompletableFuture<HttpResponse<String>> other = client.sendAsync(get("/other"),
                HttpResponse.BodyHandlers.ofString());
        awaitOther();
        return other;
    }

    @Test
    void aHandlerInterruptedBeforeItsResponseGetsA500AndTheSharedConnectionServesOn() throws Exception {
        CompletableFuture<HttpResponse<String>> other = upgradeAndOpenOther();
        HttpResponse<String> interrupted = client.send(get("/before-commit"), HttpResponse.BodyHandlers.ofString());

        assertThat(interruptedWrite.get(WAIT.toSeconds(), TimeUnit.SECONDS))
                .isEqualTo(InterruptedIOException.class.getSimpleName() + " interrupted=true");
        assertThat(interrupted.statusCode()).isEqualTo(500);
        assertThat(other.get(WAIT.toSeconds(), TimeUnit.SECONDS).body()).isEqualTo("other");
        assertThat(client.send(get("/after"), HttpResponse.BodyHandlers.ofString()).body()).isEqualTo("served");
        assertThat(connectionOf.get("/before-commit")).isEqualTo(connectionOf.get("/other"))
                .isEqualTo(connectionOf.get("/first")).isEqualTo(connectionOf.get("/after"));
        assertThat(server.stats().accepted()).isEqualTo(1);
    }

    @Test
    void aHandlerInterruptedAfterItCommittedHasItsStreamResetAndTheSharedConnectionServesOn() throws Exception {
        CompletableFuture<HttpResponse<String>> other = upgradeAndOpenOther();

        assertThatThrownBy(() -> client.send(get("/after-commit"), HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(java.net.http.HttpTimeoutException.class); // reset, not left hanging
        assertThat(interruptedWrite.get(WAIT.toSeconds(), TimeUnit.SECONDS))
                .isEqualTo(InterruptedIOException.class.getSimpleName() + " interrupted=true");
        assertThat(other.get(WAIT.toSeconds(), TimeUnit.SECONDS).body()).isEqualTo("other");
        assertThat(client.send(get("/after"), HttpResponse.BodyHandlers.ofString()).body()).isEqualTo("served");
        assertThat(connectionOf.get("/after-commit")).isEqualTo(connectionOf.get("/other"))
                .isEqualTo(connectionOf.get("/first")).isEqualTo(connectionOf.get("/after"));
        assertThat(server.stats().accepted()).isEqualTo(1);
    }
}
