package dev.shuttle.lab.idle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.lab.report.IdleReport;
import dev.shuttle.lab.report.ProgressSink;
import dev.shuttle.lab.servers.Protocol;
import dev.shuttle.lab.servers.ServerKind;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The experiments end to end with real child JVMs, kept small: 100 idle connections against Shuttle over HTTP/1.1
 * and Jetty over h2c, 50 over https against Shuttle, Jetty and Netty, one round, short settling. Every child JVM must
 * be gone afterwards.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
public class IdleExperimentTest {
    private static IdleSettings small(ServerKind server, Protocol protocol) {
        return IdleSettings.defaults(List.of(server), List.of(100), protocol, 1)
                .withTiming(Duration.ofSeconds(1), 2, 1, Duration.ofMillis(300));
    }

    @AfterEach
    void noChildJvmIsLeftBehind() throws InterruptedException {
        assertNoChildJvm();
    }

    /** Waits up to 15 s for this JVM's children to exit, then fails naming any still alive. */
    public static void assertNoChildJvm() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (ProcessHandle.current().children().anyMatch(ProcessHandle::isAlive)
                && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive)
                .map(p -> p.info().commandLine().orElse("?"))).isEmpty();
    }

    @Test
    void shuttleParksHundredIdleHttp1ConnectionsWithoutAThreadEach() throws Exception {
        IdleResult result = new IdleExperiment(small(ServerKind.SHUTTLE, Protocol.HTTP1), ProgressSink.NONE).run();
        IdleCell cell = result.cell(ServerKind.SHUTTLE, 100);
        assertThat(cell).isNotNull();
        assertThat(cell.lostConnections()).as(String.valueOf(cell.firstError())).isZero();
        assertThat(cell.virtualThreads()).isLessThan(20);
        assertThat(cell.threadsPerConnection()).isLessThan(0.2);
        assertThat(cell.heapPerConnection()).isBetween(0.0, 64.0 * 1024);
        assertThat(cell.rssBytes()).isGreaterThan(1L << 30); // the pre-touched 1 GiB heap is resident
        assertThat(IdleReport.text(result)).contains("shuttle").contains("Go 1.28, parking on †");
    }

    @Test
    void shuttleAndJettyHoldHundredIdleH2cConnectionsAndOnlyShuttleWithoutAThreadEach() throws Exception {
        IdleSettings settings = IdleSettings.defaults(List.of(ServerKind.SHUTTLE, ServerKind.JETTY), List.of(100),
                Protocol.H2C, 1).withTiming(Duration.ofSeconds(1), 2, 1, Duration.ofMillis(300));
        IdleResult result = new IdleExperiment(settings, ProgressSink.NONE).run();
        assertThat(result.measured()).containsExactly(ServerKind.SHUTTLE, ServerKind.JETTY);
        for (ServerKind server : List.of(ServerKind.SHUTTLE, ServerKind.JETTY)) {
            IdleCell cell = result.cell(server, 100);
            assertThat(cell.lostConnections()).as(server + ": " + cell.firstError()).isZero();
            assertThat(cell.heapPerConnection()).as(server.toString()).isPositive();
        }
        IdleCell shuttle = result.cell(ServerKind.SHUTTLE, 100);
        assertThat(shuttle.threadsPerConnection()).isLessThan(0.2);
        assertThat(shuttle.heapPerConnection()).isLessThan(64.0 * 1024);
        assertThat(IdleReport.text(result)).doesNotContain("not measured: shuttle");
    }

    @Test
    void shuttleJettyAndNettyHoldFiftyIdleHttpsConnectionsAndShuttleParksThem() throws Exception {
        List<ServerKind> servers = List.of(ServerKind.SHUTTLE, ServerKind.JETTY, ServerKind.NETTY,
                ServerKind.UNDERTOW);
        IdleSettings settings = IdleSettings.defaults(servers, List.of(50), Protocol.HTTPS, 1)
                .withTiming(Duration.ofSeconds(1), 2, 1, Duration.ofMillis(300));
        IdleResult result = new IdleExperiment(settings, ProgressSink.NONE).run();
        assertThat(result.measured()).containsExactly(ServerKind.SHUTTLE, ServerKind.JETTY, ServerKind.NETTY);
        assertThat(result.skipped()).containsKey(ServerKind.UNDERTOW);
        for (ServerKind server : result.measured()) {
            IdleCell cell = result.cell(server, 50);
            assertThat(cell.lostConnections()).as(server + ": " + cell.firstError()).isZero();
            assertThat(cell.firstError()).as(server.toString()).isNull();
            assertThat(cell.heapPerConnection()).as(server.toString()).isPositive();
        }
        IdleCell shuttle = result.cell(ServerKind.SHUTTLE, 50);
        assertThat(shuttle.threadsPerConnection()).isLessThan(0.2);
        assertThat(shuttle.virtualThreads()).isLessThan(10);
        assertThat(shuttle.heapPerConnection()).isLessThan(64.0 * 1024);
        assertThat(IdleReport.text(result)).contains("HTTP/1.1 keep-alive over TLS");
    }
}
