package dev.shuttle.lab.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.lab.clients.ClientKind;
import dev.shuttle.lab.fixture.FixtureServer;
import dev.shuttle.lab.report.ProgressSink;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProbeExperimentTest {

    @Test
    void countsConnectionsFromEachClientsOwnTrace() throws Exception {
        try (FixtureServer fixture = FixtureServer.start(0)) {
            ProbeResult result = new ProbeExperiment(fixture.uri("/bytes?n=2048"), 8,
                    List.of(ClientKind.SHUTTLE, ClientKind.SHUTTLE_NONE, ClientKind.OKHTTP, ClientKind.JDK,
                            ClientKind.JETTY, ClientKind.APACHE),
                    Duration.ofSeconds(5), ProgressSink.NONE).run(3);
            assertThat(fixture.requests()).as("the warm-up uses the lab's own fixture, never the probed one")
                    .isEqualTo(8 * 6);
            ProbeResult.Row shuttle = result.rows().get(0);
            ProbeResult.Row none = result.rows().get(1);
            assertThat(shuttle.completed()).isEqualTo(8);
            assertThat(shuttle.statuses()).containsEntry(200, 8);
            assertThat(shuttle.connectionsOpened()).isEqualTo(1);
            assertThat(shuttle.reuseRatio()).isEqualTo(7 / 8.0);
            assertThat(shuttle.bytesDiscarded()).isGreaterThan(0);
            assertThat(none.connectionsOpened()).isEqualTo(8);
            assertThat(none.reuseRatio()).isZero();
            assertThat(result.rows().get(2).connectionsOpened()).as("okhttp drains and reuses").isEqualTo(1);
            assertThat(result.rows().get(3).connectionsOpened()).as("the JDK client has no hook").isEqualTo(-1);
            assertThat(result.rows().get(3).reuseRatio()).isNaN();
            // Jetty sometimes opens one more connection than it uses
            assertThat(result.rows().get(4).connectionsOpened()).as("jetty aborts unread bodies").isBetween(8L, 9L);
            assertThat(result.rows().get(5).connectionsOpened()).as("apache drains").isEqualTo(1);
            String text = ProbeReport.text(result);
            assertThat(text).contains("shuttle-none").contains("n/a").contains("88%");
            assertThat(ProbeReport.json(result).get("clients")).hasSize(6);
        }
    }

    @Test
    void refusedConnectionsAreReportedInPlainWords() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        ProbeResult result = new ProbeExperiment(URI.create("http://127.0.0.1:" + port + "/"), 3,
                List.of(ClientKind.SHUTTLE, ClientKind.JDK, ClientKind.OKHTTP), Duration.ofSeconds(2),
                ProgressSink.NONE).run();
        for (ProbeResult.Row row : result.rows()) {
            assertThat(row.completed()).isZero();
            assertThat(row.error()).as(row.client().cliName()).startsWith("connection refused by 127.0.0.1:" + port);
        }
    }

    @Test
    void aServerThatNeverAnswersTimesOut() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            ProbeResult result = new ProbeExperiment(URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/"),
                    2, List.of(ClientKind.SHUTTLE, ClientKind.OKHTTP), Duration.ofMillis(300),
                    ProgressSink.NONE).run();
            for (ProbeResult.Row row : result.rows()) {
                assertThat(row.error()).as(row.client().cliName()).contains("timed out");
            }
        }
    }

    @Test
    void badUrlsAreRejectedWithAReason() {
        assertThatThrownBy(() -> ProbeTarget.parse("ftp://example.com/")).hasMessageContaining("http://");
        assertThatThrownBy(() -> ProbeTarget.parse("example.com")).hasMessageContaining("scheme");
        assertThatThrownBy(() -> ProbeTarget.parse("http://")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProbeTarget.parse("http://exa mple.com/")).hasMessageContaining("not a valid URL");
        assertThat(ProbeTarget.parse("http://127.0.0.1:8080").getPath()).isEqualTo("/");
    }
}
