package dev.shuttle.server.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.shuttle.server.Http2Options;
import dev.shuttle.server.HttpServer;
import dev.shuttle.server.Request;
import dev.shuttle.server.Response;
import dev.shuttle.server.ServerTimeouts;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A frame-level client no one here wrote (Python's {@code h2}, Debian's python3-h2) drives the cases a polite client
 * library never produces: more streams than allowed, a reset in the middle of a response, a window that never opens,
 * a large upload under flow control, PING, and GOAWAY at shutdown. Each time the other streams and the connection
 * carry on.
 */
class Http2PeerTest {
    private static final String PYTHON = "/usr/bin/python3";
    @TempDir
    static Path dir;
    private static Path script;

    /**
     * Blocking waits run on threads of their own: on two cores the common pool has one worker, and a shutdown blocked
     * there would hold back the read of the line that lets it finish.
     */
    private static final java.util.concurrent.Executor OWN_THREAD = task -> Thread.ofVirtual().start(task);

    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch blocked = new CountDownLatch(1);
    private HttpServer server;
    private Process peer;

    @BeforeAll
    static void checkPython() throws Exception {
        Process check = new ProcessBuilder(PYTHON, "-c", "import h2").redirectErrorStream(true).start();
        assumeTrue(check.waitFor(30, TimeUnit.SECONDS) && check.exitValue() == 0,
                "Debian's python3-h2 is not installed (apt-get install python3-h2); .ci/run installs it");
        script = dir.resolve("h2_peer.py");
        try (InputStream in = Http2PeerTest.class.getResourceAsStream("h2_peer.py")) {
            Files.copy(in, script);
        }
    }

    @AfterEach
    void stop() {
        release.countDown();
        if (peer != null) {
            peer.destroyForcibly();
        }
        if (server != null) {
            server.close();
        }
    }

    private void start(Http2Options http2, ServerTimeouts timeouts) throws IOException {
        server = HttpServer.builder().http2(http2).timeouts(timeouts).handler(this::handle).start();
    }

    private void start() throws IOException {
        start(Http2Options.defaults(), ServerTimeouts.defaults());
    }

    private void handle(Request request, Response response) throws Exception {
        switch (request.path()) {
            case "/block" -> {
                blocked.countDown();
                release.await(10, TimeUnit.SECONDS);
                response.send("released");
            }
            case "/slow" -> {
                OutputStream out = response.body();
                byte[] chunk = new byte[1000];
                for (int i = 0; i < 500; i++) {
                    out.write(chunk);
                    out.flush();
                    Thread.sleep(5);
                }
            }
            case "/echo" -> response.send(request.bodyBytes());
            case "/big" -> response.send(new byte[1 << 20]);
            case "/nobody" -> response.status(204);
            default -> response.send("fast");
        }
    }

    private BufferedReader run(String scenario) throws IOException {
        peer = new ProcessBuilder(PYTHON, script.toString(), scenario, Integer.toString(server.port()))
                .redirectErrorStream(true).start();
        return new BufferedReader(new InputStreamReader(peer.getInputStream(), StandardCharsets.UTF_8));
    }

    private static String line(BufferedReader lines) throws Exception {
        CompletableFuture<String> next = CompletableFuture.supplyAsync(() -> {
            try {
                return lines.readLine();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, OWN_THREAD);
        return next.get(30, TimeUnit.SECONDS);
    }

    @Test
    void aStreamBeyondTheLimitIsRefusedAndTheOthersComplete() throws Exception {
        start(Http2Options.builder().maxConcurrentStreams(2).build(), ServerTimeouts.defaults());
        BufferedReader lines = run("refused");
        assertThat(line(lines)).isEqualTo("refused 5 7"); // REFUSED_STREAM
        release.countDown();
        assertThat(line(lines)).isEqualTo("done 1 200 done 3 200");
    }

    @Test
    void aResetStreamLeavesTheConnectionServingOthers() throws Exception {
        start();
        BufferedReader lines = run("reset");
        assertThat(line(lines)).isEqualTo("cancelled 1");
        assertThat(line(lines)).isEqualTo("done 3 200 4");
    }

    @Test
    void aLargeUploadFlowsUnderFlowControlAndComesBack() throws Exception {
        start(Http2Options.builder().initialWindowSize(65_535).connectionWindowSize(65_535).build(),
                ServerTimeouts.defaults());
        BufferedReader lines = run("upload");
        assertThat(line(lines)).isEqualTo("echo 3145728 True");
    }

    @Test
    void aWindowThatNeverOpensResetsOnlyItsStreamAfterTheWriteTimeout() throws Exception {
        start(Http2Options.defaults(), ServerTimeouts.builder().write(Duration.ofMillis(500)).build());
        BufferedReader lines = run("zero-window");
        assertThat(line(lines)).isEqualTo("reset 1 2"); // INTERNAL_ERROR: the response could not be completed
        assertThat(line(lines)).isEqualTo("done 3 204");
    }

    @Test
    void pingIsAnswered() throws Exception {
        start();
        assertThat(line(run("ping"))).isEqualTo("pong True");
    }

    @Test
    void shutdownSendsGoAwayAndFinishesTheStreamInFlight() throws Exception {
        start();
        shutdownFinishesTheStreamInFlight();
    }

    @Test
    void shutdownFinishesTheStreamInFlightWithParkingOff() throws Exception {
        // Parking off, the connection's thread waits for frames in a blocking read while the handler runs: the
        // shutdown's GOAWAY comes from another thread, and the last stream's end closes the connection.
        server = HttpServer.builder().parking(false).handler(this::handle).start();
        shutdownFinishesTheStreamInFlight();
    }

    private void shutdownFinishesTheStreamInFlight() throws Exception {
        BufferedReader lines = run("goaway");
        assertThat(line(lines)).isEqualTo("started 1");
        assertThat(blocked.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Boolean> shutdown = CompletableFuture.supplyAsync(() -> {
            try {
                return server.shutdown(Duration.ofSeconds(10));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, OWN_THREAD);
        // Two GOAWAYs, as gRPC sends them: the first takes requests already on their way, the PING after it tells
        // when they have all arrived, and the second, once the client answered it, names the last one.
        assertThat(line(lines)).isEqualTo("goaway 2147483647 0");
        assertThat(line(lines)).isEqualTo("goaway 1 0");
        release.countDown();
        assertThat(line(lines)).isEqualTo("done 1 200");
        assertThat(line(lines)).isEqualTo("closed");
        assertThat(shutdown.get(10, TimeUnit.SECONDS)).isTrue();
    }
}
