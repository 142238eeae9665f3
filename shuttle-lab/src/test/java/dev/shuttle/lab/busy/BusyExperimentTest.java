package dev.shuttle.lab.busy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.shuttle.lab.report.BusyReport;
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
 * 2-second hot runs with real child JVMs: the lab's own load generator against Jetty over h2c, Shuttle's own
 * client ({@code --generator shuttle}) against Shuttle's server over h2c and HTTP/1.1, and wrk (when installed)
 * against Shuttle's server over HTTP/1.1.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class BusyExperimentTest {
    @AfterEach
    void noChildJvmIsLeftBehind() throws InterruptedException {
        dev.shuttle.lab.idle.IdleExperimentTest.assertNoChildJvm();
    }

    @Test
    void hotLoadFromTheLabsGeneratorCountsRequestsAndServerCpu() throws Exception {
        BusySettings settings = new BusySettings(List.of(ServerKind.JETTY), List.of(BusyScenario.HOT), Protocol.H2C,
                1, Duration.ofSeconds(2), null, "lab");
        BusyResult result = new BusyExperiment(settings, ProgressSink.NONE).run();
        BusyCell cell = result.cell(ServerKind.JETTY, BusyScenario.HOT);
        assertThat(cell.errors()).as(String.valueOf(cell.firstError())).isZero();
        assertThat(cell.requestsPerSecond()).isGreaterThan(100);
        assertThat(cell.p50Micros()).isPositive();
        assertThat(cell.p99Micros()).isGreaterThanOrEqualTo(cell.p50Micros());
        assertThat(cell.cpuCores()).isBetween(0.01, 2.5);
        assertThat(cell.generator()).isEqualTo("lab");
        assertThat(cell.liveHeapBytes()).isPositive();
        assertThat(cell.baselineLiveHeapBytes()).isPositive();
        assertThat(cell.rounds().getFirst().baseline().rssBytes()).isPositive();
        assertThat(BusyReport.text(result)).contains("hot: 32 connections × 4 concurrent streams").contains("jetty");
    }

    @Test
    void hotLoadFromShuttlesOwnClientOverH2c() throws Exception {
        BusySettings settings = new BusySettings(List.of(ServerKind.SHUTTLE), List.of(BusyScenario.HOT), Protocol.H2C,
                1, Duration.ofSeconds(2), null, "shuttle");
        BusyResult result = new BusyExperiment(settings, ProgressSink.NONE).run();
        BusyCell cell = result.cell(ServerKind.SHUTTLE, BusyScenario.HOT);
        assertThat(cell.errors()).as(String.valueOf(cell.firstError())).isZero();
        assertThat(cell.requestsPerSecond()).isPositive();
        assertThat(cell.p50Micros()).isPositive();
        assertThat(cell.generator()).isEqualTo("shuttle-h2");
        assertThat(result.notes()).noneMatch(note -> note.contains("h2load"));
        assertThat(BusyReport.text(result)).contains("shuttle-h2");
    }

    @Test
    void hotLoadFromShuttlesOwnClientOverHttp1() throws Exception {
        BusySettings settings = new BusySettings(List.of(ServerKind.SHUTTLE), List.of(BusyScenario.HOT),
                Protocol.HTTP1, 1, Duration.ofSeconds(2), null, "shuttle");
        BusyResult result = new BusyExperiment(settings, ProgressSink.NONE).run();
        BusyCell cell = result.cell(ServerKind.SHUTTLE, BusyScenario.HOT);
        assertThat(cell.errors()).as(String.valueOf(cell.firstError())).isZero();
        assertThat(cell.requestsPerSecond()).isPositive();
        assertThat(cell.generator()).isEqualTo("shuttle-http1");
    }

    @Test
    void hotLoadFromWrkOverHttp1() throws Exception {
        assumeTrue(Wrk.find() != null, "wrk is not installed");
        BusySettings settings = new BusySettings(List.of(ServerKind.SHUTTLE), List.of(BusyScenario.HOT),
                Protocol.HTTP1, 1, Duration.ofSeconds(2), null, "wrk");
        BusyResult result = new BusyExperiment(settings, ProgressSink.NONE).run();
        BusyCell cell = result.cell(ServerKind.SHUTTLE, BusyScenario.HOT);
        assertThat(cell.errors()).as(String.valueOf(cell.firstError())).isZero();
        assertThat(cell.generator()).isEqualTo("wrk");
        assertThat(cell.connections()).isEqualTo(128);
        assertThat(cell.requestsPerSecond()).isGreaterThan(100);
        assertThat(cell.p50Micros()).isPositive();
        assertThat(cell.p999Micros()).isGreaterThanOrEqualTo(cell.p99Micros()).isGreaterThanOrEqualTo(cell.p50Micros());
        assertThat(cell.cpuMicrosPerRequest()).isPositive();
        assertThat(BusyReport.text(result)).contains("wrk");
    }

    @Test
    void theShuttleGeneratorRefusesTlsInOneLine() {
        assertThatThrownBy(() -> new BusySettings(List.of(ServerKind.SHUTTLE), List.of(BusyScenario.HOT),
                Protocol.HTTPS, 1, Duration.ofSeconds(2), null, "shuttle"))
                .hasMessage("--generator shuttle works over h2c and http1 only, not https");
    }
}
