package dev.shuttle.interop.crossrole;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.HttpClient;
import dev.shuttle.client.HttpTimeoutException;
import dev.shuttle.client.Request;
import dev.shuttle.client.Response;
import dev.shuttle.server.GoAwayEvent;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * GOAWAY between Shuttle's client and Shuttle's server: a graceful shutdown finishes the streams it took and no
 * other, and a client that closes leaves the server nothing open.
 */
@Timeout(60)
class CrossRoleGoAwayTest {
    private static final long BOUND_SECONDS = CrossRoleServer.BOUND.toSeconds();

    private final CountDownLatch release = new CountDownLatch(1);
    private CrossRoleServer server;

    @AfterEach
    void stop() throws InterruptedException {
        release.countDown();
        if (server != null) {
            server.close();
        }
    }

    /** {@code /slow/…} counts down {@code started} and answers once {@link #release} opens; the rest as usual. */
    private void start(CountDownLatch started) throws IOException {
        server = CrossRoleServer.start(false, (request, response) -> {
            if (request.path().startsWith("/slow/")) {
                started.countDown();
                assertThat(release.await(BOUND_SECONDS, TimeUnit.SECONDS)).isTrue();
                response.send("done " + request.path());
            } else {
                Bodies.serve(request, response);
            }
        });
    }

    private void warmUp(HttpClient client) throws IOException {
        try (Response warm = client.send(Request.get(server.url("/warm")))) {
            assertThat(warm.streamId()).isEqualTo(1);
            assertThat(warm.string()).isEqualTo("hello /warm");
        }
    }

    @Test
    void gracefulShutdownFinishesTheStreamsInFlightAndFailsALaterOneClearly() throws Exception {
        int slow = 5;
        CountDownLatch started = new CountDownLatch(slow);
        start(started);
        try (HttpClient client = server.client().build()) {
            warmUp(client);
            List<CompletableFuture<Response>> calls = new ArrayList<>();
            for (int i = 0; i < slow; i++) {
                calls.add(client.sendAsync(Request.get(server.url("/slow/" + i))));
            }
            assertThat(started.await(BOUND_SECONDS, TimeUnit.SECONDS)).as("every slow handler runs").isTrue();

            CompletableFuture<Boolean> shutdown = new CompletableFuture<>();
            Thread.ofVirtual().start(() -> {
                try {
                    shutdown.complete(server.server().shutdown(Duration.ofSeconds(30)));
                } catch (Throwable t) {
                    shutdown.completeExceptionally(t);
                }
            });
            GoAwayEvent goAway = server.awaitFinalGoAway();
            assertThat(goAway.lastStreamId()).as("the last of streams 1, 3 … 11").isEqualTo(1 + 2 * slow);
            assertThat(goAway.errorName()).isEqualTo("NO_ERROR");

            // Above the last stream id, and the server accepts no new connection: it can only fail, and clearly.
            CompletableFuture<Response> late = client.sendAsync(Request.get(server.url("/late")));
            release.countDown();
            for (int i = 0; i < slow; i++) {
                try (Response response = calls.get(i).get(BOUND_SECONDS, TimeUnit.SECONDS)) {
                    assertThat(response.string()).isEqualTo("done /slow/" + i);
                }
            }
            assertThatThrownBy(() -> late.get(BOUND_SECONDS, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(IOException.class)
                    .isNotInstanceOf(HttpTimeoutException.class);
            assertThat(shutdown.get(BOUND_SECONDS, TimeUnit.SECONDS)).as("shut down before its deadline").isTrue();
        }
        assertThat(server.connectionsOpened()).isEqualTo(1);
    }

    @Test
    void closingAnIdleClientClosesItsConnectionOnTheServer() throws Exception {
        start(new CountDownLatch(0));
        HttpClient client = server.client().build();
        warmUp(client);
        client.close();
        server.awaitClosed(1);
        assertThat(server.goAways()).as("GOAWAYs the server started").noneMatch(goAway -> !goAway.clientFirst());
        assertThat(server.connectionsOpened()).isEqualTo(1);
        assertThat(server.server().stats().open()).isZero();
    }

    @Test
    void closingAClientRefusesNewCallsFinishesTheOneInFlightThenClosesItsConnection() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        start(started);
        HttpClient client = server.client().build();
        warmUp(client);
        CompletableFuture<Response> call = client.sendAsync(Request.get(server.url("/slow/in-flight")));
        assertThat(started.await(BOUND_SECONDS, TimeUnit.SECONDS)).isTrue();
        client.close();
        assertThatThrownBy(() -> client.send(Request.get(server.url("/after")))).hasMessageContaining("closed");

        release.countDown();
        try (Response response = call.get(BOUND_SECONDS, TimeUnit.SECONDS)) {
            assertThat(response.string()).isEqualTo("done /slow/in-flight");
        }
        server.awaitClosed(1);
        assertThat(server.connectionsOpened()).isEqualTo(1);
    }
}
