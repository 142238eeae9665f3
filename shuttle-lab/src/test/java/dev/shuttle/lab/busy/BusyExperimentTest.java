package dev.shuttle.lab.busy;

import static org.assertj.core.api.Assertions.assertThat;

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

/** A 2-second hot run of the lab's own load generator against Jetty over h2c, with real child JVMs. */
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
        assertThat(BusyReport.text(result)).contains("hot: 32 connections × 4 concurrent streams").contains("jetty");
    }
}
