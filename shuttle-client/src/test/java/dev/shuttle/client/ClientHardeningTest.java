package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.shuttle.client.internal.ClientSettings;
import dev.shuttle.client.testing.Await;
import dev.shuttle.client.testing.RecordingTrace;
import dev.shuttle.client.testing.ScriptedServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The five weaknesses found when the HTTP/1.1 client was tried as a new user would, against a fault server (issue
 * 11): no default timeouts, unbounded 1xx responses, a bare ClosedByInterruptException from an interrupted body read,
 * a closed connection reported as pooled, and the valid bytes before a malformed chunk lost.
 */
class ClientHardeningTest {
    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

    // ---- 1. default timeouts ----

    @Test
    void theDefaultClientHasOkHttpsTimeoutsConnectReadAndWrite() {
        try (HttpClient client = HttpClient.create()) {
            ClientSettings settings = ClientInternals.settings(client);
            assertThat(settings.connectTimeout()).isEqualTo(Duration.ofSeconds(10));
            assertThat(settings.readTimeout()).isEqualTo(Duration.ofSeconds(10));
            assertThat(settings.writeTimeout()).isEqualTo(Duration.ofSeconds(10));
        }
    }

    @Test
    void noTimeoutSwitchesEachOneOffForLongPollsAndServerSentEvents() {
        try (HttpClient client = HttpClient.builder().readTimeout(HttpClient.NO_TIMEOUT)
                .writeTimeout(Duration.ZERO).connectTimeout(null).build()) {
            ClientSettings settings = ClientInternals.settings(client);
            assertThat(settings.readTimeout()).isNull();
            assertThat(settings.writeTimeout()).isNull();
            assertThat(settings.connectTimeout()).isNull();
        }
        assertThatThrownBy(() -> HttpClient.builder().readTimeout(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NO_TIMEOUT");
    }

    @Test
    void theDefaultClientGivesUpOnAServerThatAcceptsAndNeverAnswers() throws Exception {
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            conn.readRequest();
            conn.awaitClientClose(); // says nothing, ever
        }); HttpClient client = HttpClient.create()) {
            long start = System.nanoTime();
            assertTimeoutPreemptively(Duration.ofSeconds(20), () ->
                    assertThatThrownBy(() -> client.send(Request.get(server.uri("/"))))
                            .isInstanceOfSatisfying(HttpTimeoutException.class,
                                    e -> assertThat(e.kind()).isEqualTo(HttpTimeoutException.Kind.READ))
                            .hasMessageContaining("no byte received for 10000 ms"));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofSeconds(9));
        }
    }

    @Test
    void aServerThatStopsReadingAnUploadFailsTheWriteWithItsTimeout() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            conn.socket().setReceiveBufferSize(16 * 1024);
            done.await(20, TimeUnit.SECONDS); // reads nothing: the client's writes fill the socket buffers
        }); HttpClient client = HttpClient.builder().writeTimeout(Duration.ofMillis(300)).build()) {
            byte[] upload = new byte[64 * 1024 * 1024];
            Request post = Request.newBuilder(server.uri("/upload")).POST(BodyPublisher.ofBytes(upload)).build();
            assertTimeoutPreemptively(Duration.ofSeconds(10), () ->
                    assertThatThrownBy(() -> client.send(post))
                            .isInstanceOfSatisfying(HttpTimeoutException.class,
                                    e -> assertThat(e.kind()).isEqualTo(HttpTimeoutException.Kind.WRITE))
                            .hasMessageContaining("the server is not reading"));
            ClientInternals.awaitSettled(client);
            assertThat(ClientInternals.pool(client).idleCount()).isZero();
        } finally {
            done.countDown();
        }
    }

    // ---- 2. 1xx responses bounded ----

    @Test
    void aServerSendingEndless100ContinuesFailsAfterFive() throws Exception {
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            conn.readRequest();
            for (int i = 0; i < 1000; i++) {
                conn.write("HTTP/1.1 100 Continue\r\n\r\n");
                Thread.sleep(10); // each one well inside the read timeout, so that alone never ends the call
            }
        }); HttpClient client = HttpClient.builder().readTimeout(Duration.ofSeconds(1)).build()) {
            assertTimeoutPreemptively(Duration.ofSeconds(5), () ->
                    assertThatThrownBy(() -> client.send(Request.get(server.uri("/"))))
                            .isInstanceOf(IOException.class).isNotInstanceOf(HttpTimeoutException.class)
                            .hasMessageContaining("too many 1xx informational responses"));
            ClientInternals.awaitSettled(client);
            assertThat(ClientInternals.pool(client).idleCount()).isZero();
        }
    }

    @Test
    void interimResponsesCountAgainstTheHeadLimitTogether() throws Exception {
        String bigInterim = "HTTP/1.1 103 Early Hints\r\nLink: <" + "x".repeat(30_000) + ">\r\n\r\n";
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            conn.readRequest();
            conn.write(bigInterim.repeat(3) + OK); // each under the 64 KiB limit, together over it
            conn.awaitClientClose();
        }); HttpClient client = HttpClient.create()) {
            assertThatThrownBy(() -> client.send(Request.get(server.uri("/"))))
                    .isInstanceOf(IOException.class).hasMessageContaining("1xx informational responses larger than");
        }
    }

    @Test
    void aFewInterimResponsesBeforeTheFinalOneAreFine() throws Exception {
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            conn.readRequest();
            conn.write("HTTP/1.1 100 Continue\r\n\r\n".repeat(3) + "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
                    + OK);
            conn.awaitClientClose();
        }); HttpClient client = HttpClient.create(); Response response = client.send(Request.get(server.uri("/")))) {
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.string()).isEqualTo("ok");
        }
    }

    // ---- 3. an interrupted body read ----

    @Test
    void interruptingABodyReadThrowsInterruptedIOExceptionWithAMessage() throws Exception {
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            conn.readRequest();
            if (index == 0) {
                conn.write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nfirst bytes");
                conn.awaitClientClose(); // and the rest never comes
            } else {
                conn.write(OK);
                conn.awaitClientClose();
            }
        }); HttpClient client = HttpClient.create()) {
            Response response = client.send(Request.get(server.uri("/")));
            AtomicReference<Thread> reader = new AtomicReference<>();
            CompletableFuture<Throwable> failure = new CompletableFuture<>();
            Thread thread = Thread.ofVirtual().start(() -> {
                reader.set(Thread.currentThread());
                try (InputStream body = response.body()) {
                    body.readNBytes(11);
                    body.read(); // blocks: the rest never comes
                    failure.complete(null);
                } catch (Throwable t) {
                    failure.complete(t);
                }
            });
            Await.until("reader blocked", () -> thread.getState() == Thread.State.WAITING
                    || thread.getState() == Thread.State.TIMED_WAITING);
            thread.interrupt();
            Throwable thrown = failure.get(5, TimeUnit.SECONDS);
            assertThat(thrown).isInstanceOf(InterruptedIOException.class)
                    .isNotInstanceOf(HttpTimeoutException.class)
                    .hasMessageContaining("interrupted while reading the response body (11 bytes read)");
            ClientInternals.awaitSettled(client);
            assertThat(ClientInternals.pool(client).idleCount()).isZero();
            try (Response later = client.send(Request.get(server.uri("/")))) {
                assertThat(later.string()).isEqualTo("ok");
            }
        }
    }

    // ---- 4. a connection that cannot be reused says so ----

    @Test
    void aBodyReadToItsEndOnAConnectionThatCannotBeReusedReportsItClosed() throws Exception {
        String[] answers = {
                "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok",
                "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok",
                "HTTP/1.1 200 OK\r\n\r\nok", // close-delimited
        };
        RecordingTrace trace = new RecordingTrace();
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            conn.readRequest();
            conn.write(answers[index % answers.length]);
        }); HttpClient client = HttpClient.builder().trace(trace).build()) {
            for (int i = 0; i < answers.length; i++) {
                try (Response response = client.send(Request.get(server.uri("/")))) {
                    assertThat(response.string()).isEqualTo("ok");
                }
                int n = i;
                Await.until("outcome " + n, () -> trace.closed.size() == n + 1);
                DrainOutcome outcome = trace.closed.get(i).outcome();
                assertThat(outcome).as(answers[i]).isEqualTo(DrainOutcome.COMPLETE_CLOSED);
                assertThat(outcome.reused()).isFalse();
            }
            ClientInternals.awaitSettled(client);
            assertThat(ClientInternals.pool(client).idleCount()).isZero();
            assertThat(client.stats().drains(DrainOutcome.COMPLETE_CLOSED)).isEqualTo(3);
            assertThat(client.stats().drains(DrainOutcome.COMPLETE)).isZero();
        }
    }

    @Test
    void keepAliveOffReportsEveryConnectionClosed() throws Exception {
        RecordingTrace trace = new RecordingTrace();
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            while (conn.readRequest() != null) {
                conn.write(OK);
            }
        }); HttpClient client = HttpClient.builder().keepAlive(false).trace(trace).build()) {
            try (Response response = client.send(Request.get(server.uri("/")))) {
                assertThat(response.string()).isEqualTo("ok");
            }
            Await.until("outcome", () -> trace.closed.size() == 1);
            assertThat(trace.closed.get(0).outcome()).isEqualTo(DrainOutcome.COMPLETE_CLOSED);
        }
    }

    @Test
    void aKeptAliveConnectionReadToItsEndIsStillComplete() throws Exception {
        RecordingTrace trace = new RecordingTrace();
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            while (conn.readRequest() != null) {
                conn.write(OK);
            }
        }); HttpClient client = HttpClient.builder().trace(trace).build()) {
            for (int i = 0; i < 2; i++) {
                try (Response response = client.send(Request.get(server.uri("/")))) {
                    assertThat(response.string()).isEqualTo("ok");
                }
            }
            Await.until("outcomes", () -> trace.closed.size() == 2);
            assertThat(trace.closed).extracting(RecordingTrace.Closed::outcome)
                    .containsOnly(DrainOutcome.COMPLETE);
            assertThat(server.accepted()).isEqualTo(1);
        }
    }

    // ---- 5. valid bytes before a malformed chunk ----

    @Test
    void aMalformedChunkSizeAfterAValidChunkDeliversTheValidBytesThenFails() throws Exception {
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            conn.readRequest();
            conn.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n");
            conn.awaitClientClose();
        }); HttpClient client = HttpClient.create();
             Response response = client.send(Request.get(server.uri("/")))) {
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            byte[] buffer = new byte[64];
            IOException failure = null;
            try {
                int n;
                while ((n = response.body().read(buffer)) >= 0) {
                    received.write(buffer, 0, n);
                }
            } catch (IOException e) {
                failure = e;
            }
            assertThat(received.toString()).isEqualTo("hello");
            assertThat(failure).isNotNull().hasMessageContaining("invalid chunk size");
        }
    }
}
