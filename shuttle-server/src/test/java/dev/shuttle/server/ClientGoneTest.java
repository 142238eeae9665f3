package dev.shuttle.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.server.RawConnection.RawResponse;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * HTTP/1.1: a client that closes its connection while the handler runs fires the request's cancellation, seen as it
 * happens (the handler only waits); a client that sends its next request meanwhile does not, and that request is
 * served after.
 */
class ClientGoneTest {
    private HttpServer server;
    private final CountDownLatch handlerWaits = new CountDownLatch(1);
    private final CompletableFuture<Throwable> outcome = new CompletableFuture<>();

    private void start(Handler handler) throws IOException {
        server = HttpServer.builder().handler(handler).http2(Http2Options.disabled()).start();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** Waits for the client to go away, at most 10 s, and reports what the signal says. */
    private Handler waitForTheClientToGo() {
        return (request, response) -> {
            Cancellation signal = request.cancellation();
            handlerWaits.countDown();
            if (signal.await(Duration.ofSeconds(10))) {
                outcome.complete(signal.cause());
            } else {
                outcome.complete(null);
                response.send("still here");
            }
        };
    }

    @Test
    void aPeerCloseWhileTheHandlerWaitsFiresTheSignal() throws Exception {
        start(waitForTheClientToGo());
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
            assertThat(handlerWaits.await(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(ClientGoneException.class)
                .hasMessageContaining("closed the connection");
    }

    @Test
    void aResetWhileTheHandlerWaitsFiresTheSignal() throws Exception {
        start(waitForTheClientToGo());
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
            assertThat(handlerWaits.await(10, TimeUnit.SECONDS)).isTrue();
            connection.socket().setSoLinger(true, 0);
        }
        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(ClientGoneException.class);
    }

    @Test
    void aTlsClientClosingIsSeenToo() throws Exception {
        SelfSignedCertificate certificate = SelfSignedCertificate.generate();
        server = HttpServer.builder().handler(waitForTheClientToGo()).tls(certificate.serverContext())
                .http2(Http2Options.disabled()).start();
        SSLContext trusting = certificate.clientContext();
        try (SSLSocket socket = (SSLSocket) trusting.getSocketFactory().createSocket("127.0.0.1", server.port())) {
            RawConnection connection = new RawConnection(socket);
            connection.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
            assertThat(handlerWaits.await(10, TimeUnit.SECONDS)).isTrue();
        } // close_notify, then FIN
        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(ClientGoneException.class);
    }

    @Test
    void theNextRequestArrivingMeanwhileIsKeptAndServed() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Boolean> cancelledMeanwhile = new CompletableFuture<>();
        start((request, response) -> {
            if (request.path().equals("/first")) {
                Cancellation signal = request.cancellation();
                handlerWaits.countDown();
                release.await();
                cancelledMeanwhile.complete(signal.isCancelled());
            }
            response.send(request.path());
        });
        try (LogCapture log = new LogCapture(); RawConnection connection = new RawConnection(server)) {
            connection.send("GET /first HTTP/1.1\r\nHost: t\r\n\r\n");
            assertThat(handlerWaits.await(10, TimeUnit.SECONDS)).isTrue();
            connection.send("GET /second HTTP/1.1\r\nHost: t\r\n\r\n");
            // The watch reads the second request off the socket (and says so at TRACE) while the first still runs.
            Await.until(() -> log.entries().stream()
                    .anyMatch(e -> e.message().contains("the next request arrived while the handler ran")));
            release.countDown();
            RawResponse first = connection.readResponse();
            RawResponse second = connection.readResponse();
            assertThat(first.bodyText()).isEqualTo("/first");
            assertThat(second.bodyText()).isEqualTo("/second");
        }
        assertThat(cancelledMeanwhile.get(10, TimeUnit.SECONDS)).isFalse();
    }

    @Test
    void aPeerCloseDuringABodyReadIsClientGone() throws Exception {
        start((request, response) -> {
            handlerWaits.countDown();
            try {
                request.bodyBytes();
                outcome.complete(null);
            } catch (IOException e) {
                outcome.complete(e);
            }
        });
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\npartial");
            assertThat(handlerWaits.await(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(ClientGoneException.class)
                .hasMessageContaining("7 request body bytes");
    }

    @Test
    void aSignalAskedForBeforeTheBodyEndedWatchesOnceItDoes() throws Exception {
        start((request, response) -> {
            Cancellation signal = request.cancellation(); // body not read yet: nothing to watch
            request.bodyBytes(); // now it ends, and the watch starts
            handlerWaits.countDown();
            outcome.complete(signal.await(Duration.ofSeconds(10)) ? signal.cause() : null);
        });
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nabc");
            assertThat(handlerWaits.await(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(ClientGoneException.class);
    }

    @Test
    void writesBetweenWaitsKeepTheWatchGoing() throws Exception {
        CountDownLatch clientRead = new CountDownLatch(1);
        start((request, response) -> {
            Cancellation signal = request.cancellation();
            response.body().write("event: one\n\n".getBytes());
            response.flush(); // takes the channel back from the watch and hands it back after
            handlerWaits.countDown();
            outcome.complete(signal.await(Duration.ofSeconds(10)) ? signal.cause() : null);
        });
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
            assertThat(connection.readLine()).startsWith("HTTP/1.1 200");
            assertThat(handlerWaits.await(10, TimeUnit.SECONDS)).isTrue();
            clientRead.countDown();
        }
        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(ClientGoneException.class);
    }

    @Test
    void aStillConnectedClientIsNotReportedGone() throws Exception {
        start((request, response) -> {
            Cancellation signal = request.cancellation();
            handlerWaits.countDown();
            boolean fired = signal.await(Duration.ofMillis(200));
            response.send(fired ? "fired" : "quiet");
        });
        try (RawConnection connection = new RawConnection(server)) {
            assertThat(connection.get("/").bodyText()).isEqualTo("quiet");
            assertThat(connection.get("/again").bodyText()).isEqualTo("quiet"); // the connection is reusable
        }
    }

    @Test
    void shutdownClosingTheConnectionFiresTheSignal() throws Exception {
        start(waitForTheClientToGo());
        try (RawConnection connection = new RawConnection(server)) {
            connection.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n");
            assertThat(handlerWaits.await(10, TimeUnit.SECONDS)).isTrue();
            server.shutdown(Duration.ofMillis(100)); // the handler outlives the deadline: its connection is closed
            assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(ClientGoneException.class);
        }
    }
}
