package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.testing.RecordingTrace;
import dev.shuttle.client.testing.ScriptedServer;
import dev.shuttle.server.HttpServer;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A call cancelled while its HTTP/1.1 body is read (a cancelled future, an interrupt, the call timeout) hands its
 * connection to the drain policy, which keeps it when the rest is within its caps; HTTP/2 resets only the stream.
 * The drain policies here wait seconds, so what arrives when the test lets it arrive is never late.
 */
class CancelMidBodyTest {
    private static final int BODY = 64 * 1024;
    private static final DrainPolicy PATIENT = DrainPolicy.bounded(256 * 1024, Duration.ofSeconds(10));

    /** A server that sends 1 KiB of each body, then the rest once {@code rest} opens; one connection, many requests. */
    private static ScriptedServer halfThenRest(CountDownLatch rest) throws Exception {
        return new ScriptedServer((conn, index) -> {
            byte[] body = new byte[BODY];
            Arrays.fill(body, (byte) 'b');
            while (conn.readRequest() != null) {
                conn.write("HTTP/1.1 200 OK\r\nContent-Length: " + BODY + "\r\n\r\n");
                conn.write(Arrays.copyOf(body, 1024));
                rest.await(10, TimeUnit.SECONDS);
                conn.write(Arrays.copyOfRange(body, 1024, BODY));
            }
        });
    }

    @Test
    void aCancelledFutureDrainsTheRestAndKeepsTheConnection() throws Exception {
        CountDownLatch rest = new CountDownLatch(1);
        CountDownLatch readSome = new CountDownLatch(1);
        RecordingTrace trace = new RecordingTrace();
        try (ScriptedServer server = halfThenRest(rest);
             HttpClient client = HttpClient.builder().drainPolicy(PATIENT).trace(trace).build()) {
            CompletableFuture<CompletedResponse<Integer>> call = client.sendAsync(Request.get(server.uri("/a")),
                    response -> {
                        InputStream body = response.body();
                        body.readNBytes(1024);
                        readSome.countDown();
                        return body.readAllBytes().length; // blocks: the rest comes only after the cancel
                    });
            assertThat(readSome.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(call.cancel(true)).isTrue();
            rest.countDown();
            dev.shuttle.client.testing.Await.until("the drain's verdict", () -> trace.closed.size() == 1);
            assertThat(trace.closed.getFirst().outcome()).isIn(DrainOutcome.REUSED_ASYNC, DrainOutcome.REUSED_INLINE);
            assertThat(client.send(Request.get(server.uri("/b")), BodyHandler.ofBytes()).body()).hasSize(BODY);
            assertThat(server.accepted()).as("the cancelled call's connection carried the next").isEqualTo(1);
        }
    }

    @Test
    void anInterruptBetweenReadsDrainsInsteadOfClosing() throws Exception {
        CountDownLatch rest = new CountDownLatch(1);
        RecordingTrace trace = new RecordingTrace();
        try (ScriptedServer server = halfThenRest(rest);
             HttpClient client = HttpClient.builder().drainPolicy(PATIENT).trace(trace).build()) {
            Response response = client.send(Request.get(server.uri("/a")));
            response.body().readNBytes(1024);
            Thread.currentThread().interrupt();
            try {
                assertThatThrownBy(() -> response.body().read()).isInstanceOf(InterruptedIOException.class)
                        .hasMessageContaining("the rest goes to the drain policy");
                assertThat(Thread.currentThread().isInterrupted()).as("the interrupt is the caller's").isTrue();
            } finally {
                Thread.interrupted();
            }
            assertThatThrownBy(() -> response.body().read()).isInstanceOf(InterruptedIOException.class);
            response.close();
            rest.countDown();
            dev.shuttle.client.testing.Await.until("the drain's verdict", () -> trace.closed.size() == 1);
            assertThat(trace.closed.getFirst().outcome()).isEqualTo(DrainOutcome.REUSED_ASYNC);
            client.send(Request.get(server.uri("/b")), BodyHandler.discarding());
            assertThat(server.accepted()).isEqualTo(1);
        }
    }

    @Test
    void aCallTimeoutMidBodyCostsTheCallNotTheConnection() throws Exception {
        RecordingTrace trace = new RecordingTrace();
        CountDownLatch closed = new CountDownLatch(1);
        try (HttpServer server = HttpServer.builder().port(0)
                .handler((request, response) -> response.send(new byte[BODY])).start();
             HttpClient client = HttpClient.builder().drainPolicy(PATIENT).trace(trace).trace(new ClientTrace() {
                 @Override
                 public void bodyClosed(long bytesRead, DrainOutcome outcome, long bytesDiscarded) {
                     closed.countDown();
                 }
             }).build()) {
            URI uri = URI.create("http://127.0.0.1:" + server.port() + "/");
            Response response = client.send(Request.newBuilder(uri).timeout(Duration.ofMillis(100)).build());
            response.body().readNBytes(1024);
            assertThat(closed.await(10, TimeUnit.SECONDS)).as("the timeout cancelled the body").isTrue();
            assertThatThrownBy(() -> response.body().read()).isInstanceOf(HttpTimeoutException.class)
                    .satisfies(e -> assertThat(((HttpTimeoutException) e).kind())
                            .isEqualTo(HttpTimeoutException.Kind.CALL));
            response.close();
            client.send(Request.get(uri), BodyHandler.discarding());
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
        }
    }

    @Test
    void onHttp2ACancelledCallResetsOnlyItsStream() throws Exception {
        CountDownLatch readSome = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        try (HttpServer server = HttpServer.builder().port(0).handler((request, response) -> {
            if (request.path().equals("/slow")) {
                response.flush();
                response.body().write(new byte[1024]);
                response.flush();
                finish.await(10, TimeUnit.SECONDS);
                response.body().write(new byte[1024]);
            } else {
                response.send("fast");
            }
        }).start(); HttpClient client = HttpClient.builder().http2PriorKnowledge(true).build()) {
            URI base = URI.create("http://127.0.0.1:" + server.port());
            CompletableFuture<CompletedResponse<Integer>> slow = client.sendAsync(Request.get(base.resolve("/slow")),
                    response -> {
                        response.body().readNBytes(1024);
                        readSome.countDown();
                        return response.body().readAllBytes().length; // blocked: the rest never comes in time
                    });
            assertThat(readSome.await(10, TimeUnit.SECONDS)).isTrue();
            slow.cancel(true);
            assertThatThrownBy(slow::get).isInstanceOf(java.util.concurrent.CancellationException.class);
            CompletedResponse<String> fast = client.send(Request.get(base.resolve("/fast")), BodyHandler.ofString());
            assertThat(fast.body()).isEqualTo("fast");
            assertThat(client.stats().connectionsOpened()).isEqualTo(1);
            finish.countDown();
        }
    }
}
