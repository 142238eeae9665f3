package dev.shuttle.lab.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.lab.clients.ClientKind;
import dev.shuttle.lab.report.ProgressSink;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A reduced pool experiment against the fixture: 3 bursts of 8 calls, each held 150 ms by the server so that the calls
 * of a burst overlap even on a loaded machine, and 6 per-call clients.
 */
class PoolExperimentTest {

    @Test
    void idleLimitsDecideHowManyConnectionsEachBurstRedials() throws Exception {
        PoolSettings settings = new PoolSettings(List.of(ClientKind.SHUTTLE, ClientKind.OKHTTP, ClientKind.APACHE),
                3, 8, 150, Duration.ofMillis(100), 6, Duration.ofMillis(300), Duration.ZERO);
        PoolResult result = new PoolExperiment(settings, ProgressSink.NONE).run();

        assertThat(result.rows()).extracting(r -> r.subject().name())
                .containsExactly("shuttle", "shuttle (Go idle: 2/host)", "okhttp", "apache");
        for (PoolResult.Row row : result.rows()) {
            assertThat(row.burstErrors()).as(row.subject().name() + ": " + row.firstError()).isZero();
            assertThat(row.perCallErrors()).as(row.subject().name()).isZero();
            assertThat(row.perCallNewConnections()).as("a new client per call dials per call").isEqualTo(6);
        }
        PoolResult.Row shuttle = result.rows().get(0);
        PoolResult.Row goLike = result.rows().get(1);
        PoolResult.Row apache = result.rows().get(3);
        assertThat(shuttle.newConnectionsPerBurst()).containsExactly(8L, 0L, 0L);
        assertThat(goLike.newConnectionsPerBurst()).containsExactly(8L, 6L, 6L);
        // Apache allows 5 connections per route: the burst queues instead of dialing
        assertThat(apache.newConnectionsPerBurst().getFirst()).isEqualTo(5);
        // clients that keep their connection after a drained body leave them open when never closed
        assertThat(shuttle.perCallOpen()).isEqualTo(6);
    }
}
