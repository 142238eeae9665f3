package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.testing.ScriptedServer;
import dev.shuttle.server.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * A server that answers before it has the whole request body (413, 401) is heard: the caller gets the answer, not a
 * broken pipe, and the rest of the body is not sent. With {@code Expect: 100-continue} the body waits for the server.
 */
class EarlyResponseTest {
    private static final int MIB = 1024 * 1024;

    @RepeatedTest(3)
    void anUploadOverTheServersLimitGets413() throws Exception {
        try (HttpServer server = HttpServer.builder().port(0).handler((request, response) -> response.send("ok"))
                .start(); HttpClient client = HttpClient.create()) {
            Request upload = Request.newBuilder("http://127.0.0.1:" + server.port() + "/upload")
                    .POST(BodyPublisher.ofBytes(new byte[20 * MIB])).build();
            try (Response response = client.send(upload)) {
                assertThat(response.status()).isEqualTo(413);
            }
        }
    }

    @RepeatedTest(3)
    void aHandlerThatAnswersWithoutReadingIsHeard() throws Exception {
        try (HttpServer server = HttpServer.builder().port(0)
                .handler((request, response) -> response.send(401, "no")).start();
             HttpClient client = HttpClient.create()) {
            Request upload = Request.newBuilder("http://127.0.0.1:" + server.port() + "/upload")
                    .POST(BodyPublisher.ofBytes(new byte[2 * MIB])).build();
            try (Response response = client.send(upload)) {
                assertThat(response.status()).isEqualTo(401);
                assertThat(response.string()).isEqualTo("no");
            }
        }
    }

    @Test
    void anEarlyErrorStopsTheUploadOfAServerThatNeitherReadsNorCloses() throws Exception {
        CountDownLatch clientHasTheAnswer = new CountDownLatch(1);
        AtomicLong bodyBytesSeen = new AtomicLong();
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            readHead(conn.socket().getInputStream());
            conn.write("HTTP/1.1 413 Content Too Large\r\nContent-Length: 4\r\n\r\nbig!");
            // Not reading until the client has its answer: the socket buffers fill, and the client must stop the
            // upload on its own to see the answer at all.
            clientHasTheAnswer.await(10, TimeUnit.SECONDS);
            bodyBytesSeen.set(conn.socket().getInputStream().transferTo(OutputStream.nullOutputStream()));
        }); HttpClient client = HttpClient.builder().writeTimeout(HttpClient.NO_TIMEOUT).build()) {
            Request upload = Request.newBuilder(server.uri("/")).POST(BodyPublisher.ofBytes(new byte[64 * MIB]))
                    .build();
            try (Response response = client.send(upload)) {
                assertThat(response.status()).isEqualTo(413);
                assertThat(response.string()).isEqualTo("big!");
            }
            clientHasTheAnswer.countDown();
            awaitTrue(() -> bodyBytesSeen.get() > 0);
            assertThat(bodyBytesSeen.get()).as("the upload stopped far short of 64 MiB").isLessThan(32L * MIB);
        }
    }

    @Test
    void aFullUploadAnsweredWithAnErrorKeepsItsConnection() throws Exception {
        AtomicInteger connections = new AtomicInteger();
        try (HttpServer server = HttpServer.builder().port(0)
                .connectionListener((connection, from, to) -> {
                    if (to == dev.shuttle.server.ConnectionState.NEW) {
                        connections.incrementAndGet();
                    }
                })
                .handler((request, response) -> {
                    request.bodyBytes();
                    response.send(400, "read it all, still no");
                }).start(); HttpClient client = HttpClient.create()) {
            for (int i = 0; i < 5; i++) {
                Request upload = Request.newBuilder("http://127.0.0.1:" + server.port() + "/")
                        .POST(BodyPublisher.ofBytes(new byte[MIB])).build();
                try (Response response = client.send(upload)) {
                    assertThat(response.status()).isEqualTo(400);
                    response.discard();
                }
            }
            assertThat(connections.get()).isEqualTo(1);
        }
    }

    @Test
    void expectContinueSendsNoBodyWhenTheServerRefusesFirst() throws Exception {
        AtomicLong bodyBytesSeen = new AtomicLong(-1);
        AtomicInteger expect = new AtomicInteger();
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            String head = readHead(conn.socket().getInputStream());
            if (head.contains("Expect: 100-continue\r\n")) {
                expect.incrementAndGet();
            }
            conn.write("HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n");
            bodyBytesSeen.set(conn.socket().getInputStream().transferTo(OutputStream.nullOutputStream()));
        }); HttpClient client = HttpClient.builder().expectContinueTimeout(Duration.ofSeconds(30)).build()) {
            Request upload = Request.newBuilder(server.uri("/")).POST(BodyPublisher.ofBytes(new byte[MIB]))
                    .expectContinue(true).build();
            try (Response response = client.send(upload)) {
                assertThat(response.status()).isEqualTo(401);
            }
            awaitTrue(() -> bodyBytesSeen.get() >= 0); // the client closed the connection it could not reuse
            assertThat(expect.get()).isEqualTo(1);
            assertThat(bodyBytesSeen.get()).isZero();
        }
    }

    @Test
    void expectContinueSendsTheBodyAfter100Continue() throws Exception {
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            InputStream in = conn.socket().getInputStream();
            String head = readHead(in);
            assertThat(head).contains("Expect: 100-continue\r\n");
            conn.write("HTTP/1.1 100 Continue\r\n\r\n");
            byte[] body = in.readNBytes(5);
            conn.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n" + new String(body, StandardCharsets.US_ASCII));
            conn.awaitClientClose();
        }); HttpClient client = HttpClient.builder().expectContinueTimeout(Duration.ofSeconds(30)).build()) {
            Request upload = Request.newBuilder(server.uri("/")).POST(BodyPublisher.ofString("hello"))
                    .expectContinue(true).build();
            assertThat(client.send(upload, BodyHandler.ofString()).body()).isEqualTo("hello");
            assertThat(server.failures()).isEmpty();
        }
    }

    @Test
    void expectContinueAgainstShuttlesServerSendsTheBody() throws Exception {
        try (HttpServer server = HttpServer.builder().port(0)
                .handler((request, response) -> response.send(request.bodyBytes())).start();
             HttpClient client = HttpClient.create()) {
            Request upload = Request.newBuilder("http://127.0.0.1:" + server.port() + "/")
                    .PUT(BodyPublisher.ofBytes(new byte[300_000])).expectContinue(true).build();
            assertThat(client.send(upload, BodyHandler.ofBytes()).body()).hasSize(300_000);
        }
    }

    @Test
    void aServerThatIgnoresTheExpectationGetsTheBodyAfterTheTimeout() throws Exception {
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            InputStream in = conn.socket().getInputStream();
            readHead(in);
            byte[] body = in.readNBytes(5); // waits for the body without a 100 Continue, as old servers do
            conn.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n" + new String(body, StandardCharsets.US_ASCII));
            conn.awaitClientClose();
        }); HttpClient client = HttpClient.builder().expectContinueTimeout(Duration.ofMillis(20)).build()) {
            Request upload = Request.newBuilder(server.uri("/")).POST(BodyPublisher.ofString("later"))
                    .expectContinue(true).build();
            assertThat(client.send(upload, BodyHandler.ofString()).body()).isEqualTo("later");
        }
    }

    @Test
    void aFailingBodyIsTheCallsError() throws Exception {
        try (HttpServer server = HttpServer.builder().port(0)
                .handler((request, response) -> response.send(request.bodyBytes())).start();
             HttpClient client = HttpClient.create()) {
            BodyPublisher broken = BodyPublisher.ofStream(() -> new InputStream() {
                private int left = 100_000;

                @Override
                public int read() throws IOException {
                    byte[] one = new byte[1];
                    return read(one, 0, 1) < 0 ? -1 : one[0];
                }

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    if (left == 0) {
                        throw new IOException("disk gone");
                    }
                    int n = Math.min(len, left);
                    left -= n;
                    return n;
                }
            });
            Request upload = Request.newBuilder("http://127.0.0.1:" + server.port() + "/").POST(broken).build();
            assertThatThrownBy(() -> client.send(upload).close()).isInstanceOf(IOException.class)
                    .hasMessageContaining("disk gone");
        }
    }

    @Test
    void aServerThatAnsweredAndResetBeforeTheWriteIsHeard() throws Exception {
        // Staged: the server answers and resets once the client is connected and writing its request (its head
        // buffered, the body asked for), and the body comes only after the reset, so the one write fails.
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch reset = new CountDownLatch(1);
        try (ScriptedServer server = new ScriptedServer((conn, index) -> {
            await(writing);
            conn.write("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbusy");
            conn.socket().setSoLinger(true, 0);
            conn.socket().close(); // RST: the client's next write fails
            reset.countDown();
        }); HttpClient client = HttpClient.create()) {
            BodyPublisher afterTheReset = BodyPublisher.ofStream(() -> {
                writing.countDown();
                await(reset);
                return new java.io.ByteArrayInputStream("small".getBytes(StandardCharsets.US_ASCII));
            }, 5);
            Request request = Request.newBuilder(server.uri("/")).POST(afterTheReset).build();
            CompletedResponse<String> answer = client.send(request, BodyHandler.ofString());
            assertThat(answer.status()).isEqualTo(503);
            assertThat(answer.body()).isEqualTo("busy");
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(5, TimeUnit.SECONDS)) {
                throw new AssertionError("stage not reached");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Reads a request head up to its empty line, leaving any body unread. */
    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("client closed mid-head");
            }
            head.append((char) b);
            matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toString();
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition) throws InterruptedException {
        dev.shuttle.client.testing.Await.until("condition", condition);
    }
}
