package dev.shuttle.lab.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.lab.report.ProgressSink;
import dev.shuttle.lab.report.ProxyReport;
import dev.shuttle.lab.report.RunEnvironment;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Short runs of {@code lab proxy}: every proxy starts, carries whole and aborted requests, and is counted. */
class ProxyExperimentTest {
    @Test
    void shuttleCellsAreMeasuredAndReported() throws Exception {
        ProxySettings settings = new ProxySettings(List.of(ProxySubject.SHUTTLE), List.of(1024, 64 * 1024), 10, 2, 1);
        ProxyResult result = new ProxyExperiment(settings, ProgressSink.NONE).run();
        assertThat(result.cells()).hasSize(2);
        for (ProxyResult.Cell cell : result.cells()) {
            assertThat(cell.failed()).as(cell.firstFailure()).isZero();
            assertThat(cell.requests()).isEqualTo(10);
            assertThat(cell.upstreamConnections()).isBetween(0.0, 10.0);
            assertThat(cell.requestsPerSecond()).isPositive();
            assertThat(cell.version()).isEqualTo("shuttle");
        }
        String text = ProxyReport.text(result, RunEnvironment.capture());
        assertThat(text).contains("upstream conns").containsPattern("shuttle +1.00 KiB +\\d").contains("64.0 KiB");
        assertThat(ProxyReport.json(result, RunEnvironment.capture()).get("cells")).hasSize(2);
    }

    @Test
    void nginxStartsWithItsOwnConfigurationAndProxies() throws Exception {
        Assumptions.assumeTrue(NginxProxy.binary() != null, "nginx is not installed (Debian package nginx-light)");
        ProxyResult result = new ProxyExperiment(new ProxySettings(List.of(ProxySubject.NGINX), List.of(1024), 5, 1,
                1), ProgressSink.NONE).run();
        assertThat(result.cells()).singleElement().satisfies(cell -> {
            assertThat(cell.failed()).as(cell.firstFailure()).isZero();
            assertThat(cell.version()).startsWith("nginx/");
        });
    }

    @Test
    void goReverseProxyRunsWithGoRun() throws Exception {
        Assumptions.assumeTrue(GoProxy.binary() != null, "go is not installed (Debian package golang-go)");
        ProxyResult result = new ProxyExperiment(new ProxySettings(List.of(ProxySubject.GO), List.of(1024), 5, 1,
                1), ProgressSink.NONE).run();
        assertThat(result.cells()).singleElement().satisfies(cell -> {
            assertThat(cell.failed()).as(cell.firstFailure()).isZero();
            assertThat(cell.version()).startsWith("go");
        });
    }

    @Test
    void aMissingToolIsSkippedAndSaid() {
        assertThat(ProxyExperiment.missingTool(ProxySubject.SHUTTLE)).isNull();
        assertThat(ProxySubject.parseList("shuttle, GO,shuttle")).containsExactly(ProxySubject.SHUTTLE,
                ProxySubject.GO);
        assertThatThrownBy(() -> ProxySubject.parseList("haproxy")).hasMessageContaining("unknown proxy \"haproxy\"");
        assertThat(ProxySettings.abortAfter(1024)).isEqualTo(512);
        assertThat(ProxySettings.abortAfter(1024 * 1024)).isEqualTo(4096);
    }

    @Test
    void nginxConfigurationKeepsAnUpstreamPool() {
        String config = NginxProxy.config(java.nio.file.Path.of("/tmp/x"), 8081, 9090);
        assertThat(config).contains("server 127.0.0.1:9090;").contains("keepalive 32;")
                .contains("proxy_http_version 1.1;").contains("proxy_set_header Connection \"\";")
                .contains("listen 127.0.0.1:8081;");
    }
}
