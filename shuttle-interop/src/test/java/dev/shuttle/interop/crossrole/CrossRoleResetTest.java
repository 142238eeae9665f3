package dev.shuttle.interop.crossrole;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.HttpClient;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.server.ClientGoneException;
import java.io.IOException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * RST_STREAM between Shuttle's client and Shuttle's server: a call the client gives up on reaches its handler as the
 * client gone, a handler that fails after committing its response reaches the client as a clear reset error, and
 * neither, however often, costs the connection the other streams share.
 */
@Timeout(60)
class CrossRoleResetTest {
    private static final long BOUND_SECONDS = CrossRoleServer.BOUND.toSeconds();
    /** Part of a response the handlers send before they wait or fail: less than any window. */
    private static final int COMMITTED = 64 * 1024;

    /**
     * How each waiting handler learnt its client had gone: its cancellation's cause, a write's exception, or
     * {@code "not cancelled"}.
     */
    private final BlockingQueue<Object> handlerOutcomes = new LinkedBlockingQueue<>();
    /** Opens when a handler waiting before its response head runs. */
    private final CountDownLatch headlessWaiting = new CountDownLatch(1);
    private CrossRoleServer server;
    private HttpClient client;

    @AfterEach
    void stop() throws InterruptedException {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /**
     * {@code /stream}: commits {@link #COMMITTED} octets of an unended body, then waits to be cancelled;
     * {@code /headless}: waits to be cancelled before any head; {@code /fail}: commits, then throws.
     */
    private void start(boolean tls) throws IOException {
        server = CrossRoleServer.start(tls, (request, response) -> {
            switch (request.path()) {
                case "/stream" -> {
                    try {
                        Bodies.writePattern(response.body(), COMMITTED);
                        response.flush();
                    } catch (ClientGoneException e) { // reset while the flush still ran: told by the write
                        handlerOutcomes.add(e);
                        return;
                    }
                    awaitCancellation(request);
                }
                case "/headless" -> {
                    headlessWaiting.countDown();
                    awaitCancellation(request);
                }
                case "/fail" -> {
                    Bodies.writePattern(response.body(), COMMITTED);
                    response.flush();
                    throw new IllegalStateException("the handler failed after its response was committed");
                }
                default -> Bodies.serve(request, response);
            }
        });
        client = server.client().build();
        try (Response warm = client.send(Request.get(server.url("/warm")))) {
            assertThat(warm.string()).isEqualTo("hello /warm");
        }
    }

    private void awaitCancellation(dev.shuttle.server.Request request) throws InterruptedException {
        boolean cancelled = request.cancellation().await(CrossRoleServer.BOUND);
        handlerOutcomes.add(cancelled ? request.cancellation().cause() : "not cancelled");
    }

    private Object nextHandlerOutcome() throws InterruptedException {
        Object outcome = handlerOutcomes.poll(BOUND_SECONDS + 5, TimeUnit.SECONDS);
        assertThat(outcome).as("a waiting handler's outcome").isNotNull();
        return outcome;
    }

    /** A call on the same connection after the resets: it works, and no connection was added on either side. */
    private void assertConnectionKept() throws IOException {
        try (Response response = client.send(Request.get(server.url("/after")))) {
            assertThat(response.string()).isEqualTo("hello /after");
            assertThat(response.connection().reused()).isTrue();
        }
        assertThat(client.stats().connectionsOpened()).isEqualTo(1);
        assertThat(server.connectionsOpened()).isEqualTo(1);
        assertThat(server.goAways()).as("GOAWAYs").isEmpty();
    }

    @ParameterizedTest(name = "tls={0}")
    @ValueSource(booleans = {false, true})
    void aCallClosedMidResponseReachesTheHandlerAsTheClientGone(boolean tls) throws Exception {
        start(tls);
        try (Response response = client.send(Request.get(server.url("/stream")))) {
            assertThat(response.body().readNBytes(1000)).hasSize(1000);
        }
        assertThat(nextHandlerOutcome()).isInstanceOf(ClientGoneException.class);
        assertConnectionKept();
    }

    @Test
    void aCallCancelledBeforeItsHeadReachesTheHandlerAsTheClientGone() throws Exception {
        start(false);
        CompletableFuture<Response> call = client.sendAsync(Request.get(server.url("/headless")));
        assertThat(headlessWaiting.await(BOUND_SECONDS, TimeUnit.SECONDS)).isTrue();
        call.cancel(true);
        assertThat(nextHandlerOutcome()).isInstanceOf(ClientGoneException.class);
        assertConnectionKept();
    }

    @Test
    void aHandlerFailingAfterCommitGivesTheClientAClearResetAndKeepsTheConnection() throws Exception {
        start(false);
        try (Response response = client.send(Request.get(server.url("/fail")))) {
            assertThat(response.status()).isEqualTo(200);
            assertThatThrownBy(response::bytes).isInstanceOf(IOException.class)
                    .hasMessageContaining("reset the stream");
        }
        assertConnectionKept();
    }

    @Test
    void manyCancellationsInARowDoNotCostTheConnection() throws Exception {
        start(false);
        for (int i = 0; i < 200; i++) {
            try (Response response = client.send(Request.get(server.url("/stream")))) {
                assertThat(response.body().read()).isNotNegative();
            }
            assertThat(nextHandlerOutcome()).as("call " + i).isInstanceOf(ClientGoneException.class);
        }
        assertConnectionKept();
    }
}
