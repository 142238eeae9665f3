package dev.shuttle.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.client.testing.Await;
import dev.shuttle.client.testing.FixtureServer;
import dev.shuttle.client.testing.RecordingTrace;
import java.io.InterruptedIOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Cancelling a call closes its connection: nothing half-used ever goes back to the pool. */
class CancellationTest {
    @Test
    void cancellingSendAsyncLeavesNoBrokenConnectionInThePool() throws Exception {
        RecordingTrace trace = new RecordingTrace();
        try (FixtureServer server = new FixtureServer();
             HttpClient client = HttpClient.builder().trace(trace).build()) {
            CompletableFuture<Response> call = client.sendAsync(Request.get(server.uri("/slow-head/1000")));
            Await.until("request written", () -> trace.events.contains("wroteRequest"));
            assertThat(call.cancel(true)).isTrue();
            assertThatThrownBy(call::join).isInstanceOf(CancellationException.class);
            ClientInternals.awaitSettled(client);
            assertThat(ClientInternals.pool(client).idleCount()).isZero();
            assertThat(client.stats().connectionsClosed()).isEqualTo(1);
            try (Response next = client.send(Request.get(server.uri("/cl/10")))) {
                assertThat(next.string()).isEqualTo("xxxxxxxxxx");
                assertThat(next.connection().reused()).isFalse();
            }
        }
    }

    @Test
    void interruptingABlockedSendFailsItAndClosesItsConnection() throws Exception {
        RecordingTrace trace = new RecordingTrace();
        try (FixtureServer server = new FixtureServer();
             HttpClient client = HttpClient.builder().trace(trace).build()) {
            try (Response warm = client.send(Request.get(server.uri("/cl/10")))) {
                warm.discard(); // one idle connection, which the interrupted call will take
            }
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread caller = Thread.ofVirtual().start(() -> {
                try {
                    client.send(Request.get(server.uri("/slow-head/1000"))).close();
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            Await.until("second request written", () -> trace.events.stream()
                    .filter("wroteRequest"::equals).count() == 2);
            caller.interrupt();
            caller.join();
            assertThat(failure.get()).isInstanceOf(InterruptedIOException.class);
            ClientInternals.awaitSettled(client);
            assertThat(ClientInternals.pool(client).idleCount()).isZero();
            assertThat(client.stats().retries()).isZero();
        }
    }

    @Test
    void responseArrivingAfterCancellationIsClosed() throws Exception {
        try (FixtureServer server = new FixtureServer(); HttpClient client = HttpClient.create()) {
            for (int i = 0; i < 40; i++) {
                CompletableFuture<Response> call = client.sendAsync(Request.get(server.uri("/cl/100")));
                if (!call.cancel(true)) {
                    call.join().close(); // too late to cancel: the response is ours to close
                }
            }
            ClientInternals.awaitSettled(client);
        }
    }

    @Test
    void sendAsyncCompletesWithTheResponse() throws Exception {
        try (FixtureServer server = new FixtureServer(); HttpClient client = HttpClient.create()) {
            try (Response response = client.sendAsync(Request.get(server.uri("/cl/3"))).get()) {
                assertThat(response.string()).isEqualTo("xxx");
            }
        }
    }
}
