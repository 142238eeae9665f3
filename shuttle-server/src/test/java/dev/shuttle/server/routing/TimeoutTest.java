package dev.shuttle.server.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.Cancellation;
import dev.shuttle.server.ExternalProcess;
import dev.shuttle.server.HttpServer;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Timeout: 503 when the handler is late, its own response when it is not; the late handler is cancelled. */
class TimeoutTest {
    private HttpServer server;
    private final CountDownLatch release = new CountDownLatch(1);
    private final CompletableFuture<Throwable> lateWrite = new CompletableFuture<>();
    private final CompletableFuture<Throwable> lateSignal = new CompletableFuture<>();

    @BeforeEach
    void start() throws IOException {
        Router router = new Router()
                .handle("/slow", (request, response) -> {
                    Cancellation signal = request.cancellation();
                    signal.await(); // fired by the timeout
                    lateSignal.complete(signal.cause());
                    release.await();
                    try {
                        response.send("too late");
                        lateWrite.complete(null);
                    } catch (IOException e) {
                        lateWrite.complete(e);
                    }
                }, Timeout.of(Duration.ofMillis(100)))
                .handle("/fast", (request, response) -> {
                    response.header("X-Kept", "yes");
                    response.status(201);
                    response.send("made " + new String(request.bodyBytes()));
                }, Timeout.of(Duration.ofSeconds(30)))
                .handle("/big", (request, response) -> response.send(new byte[2048]),
                        Timeout.of(Duration.ofSeconds(30), "late\n", 1024))
                .handle("/fails", (request, response) -> {
                    throw new IllegalStateException("boom");
                }, Timeout.of(Duration.ofSeconds(30)));
        server = HttpServer.builder().handler(router).start();
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.close();
    }

    private String url(String path) {
        return "http://127.0.0.1:" + server.port() + path;
    }

    @Test
    void aLateHandlerGets503AndItsSignalFiresAndItsWritesFail() throws Exception {
        ExternalProcess.assumeInstalled("curl", "curl");
        for (String protocol : List.of("--http1.1", "--http2-prior-knowledge")) {
            ExternalProcess.Result result = ExternalProcess.run(List.of("curl", "-s", protocol, "-w", " %{http_code}",
                    url("/slow")));
            assertThat(result.stdout()).isEqualTo("503 service unavailable: the request timed out\n 503");
        }
        assertThat(lateSignal.get(10, TimeUnit.SECONDS)).hasMessageContaining("did not finish within 100 ms");
        release.countDown();
        assertThat(lateWrite.get(10, TimeUnit.SECONDS)).isInstanceOf(IOException.class)
                .hasMessageContaining("timed out");
    }

    @Test
    void aHandlerInTimeSendsItsOwnResponse() throws Exception {
        ExternalProcess.Result result = ExternalProcess.run(List.of("curl", "-s", "-i", "--data-binary", "thing",
                url("/fast")));
        assertThat(result.stdout()).startsWith("HTTP/1.1 201").contains("X-Kept: yes").endsWith("made thing");
    }

    @Test
    void aBodyOverTheBufferIs500AndAFailureIsPassedOn() throws Exception {
        ExternalProcess.Result big = ExternalProcess.run(List.of("curl", "-s", "-o", "/dev/null", "-w",
                "%{http_code}", url("/big")));
        assertThat(big.stdout()).isEqualTo("500");
        ExternalProcess.Result fails = ExternalProcess.run(List.of("curl", "-s", "-o", "/dev/null", "-w",
                "%{http_code}", url("/fails")));
        assertThat(fails.stdout()).isEqualTo("500");
    }
}
