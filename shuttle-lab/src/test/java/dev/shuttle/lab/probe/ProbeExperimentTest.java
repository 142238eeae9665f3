package dev.shuttle.lab.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.lab.clients.ClientKind;
import dev.shuttle.lab.fixture.FixtureServer;
import dev.shuttle.lab.report.ProgressSink;
import dev.shuttle.lab.tls.ClientTrust;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProbeExperimentTest {
    private static final List<ClientKind> ALL_BUT_BOUNDED = List.of(ClientKind.SHUTTLE, ClientKind.SHUTTLE_NONE,
            ClientKind.JDK, ClientKind.OKHTTP, ClientKind.APACHE, ClientKind.JETTY);

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
    void probesHttpsWithEveryClientTrustingTheGivenAuthority(@TempDir Path dir) throws Exception {
        SelfSignedCertificate certificate = SelfSignedCertificate.generate();
        Path ca = dir.resolve("ca.pem");
        certificate.writeAuthorityPem(ca);
        try (FixtureServer fixture = FixtureServer.startTls(0, certificate.serverContext())) {
            ProbeResult result = new ProbeExperiment(fixture.uri("/bytes?n=2048"), 5, ALL_BUT_BOUNDED,
                    Duration.ofSeconds(5), ClientTrust.pemFile(ca), ProgressSink.NONE).run(2);
            assertThat(result.trust()).isEqualTo("the certificates in " + ca);
            for (ProbeResult.Row row : result.rows()) {
                assertThat(row.completed()).as(row.client().cliName() + ": " + row.error()).isEqualTo(5);
            }
            assertThat(result.rows().get(0).connectionsOpened()).isEqualTo(1);
            assertThat(result.rows().get(1).ownView()).as("shuttle-none: a handshake per call, resuming its own")
                    .containsEntry("tlsHandshakes", 5L).containsEntry("tlsResumed", 4L);
            assertThat(result.rows().get(3).connectionsOpened()).as("okhttp").isEqualTo(1);
            assertThat(result.rows().get(4).connectionsOpened()).as("apache").isEqualTo(1);
            assertThat(result.rows().get(5).connectionsOpened()).as("jetty counts HTTP connections, not TLS layers")
                    .isBetween(5L, 6L);
            assertThat(fixture.requests()).as("the warm-up ran on the lab's own TLS fixture").isEqualTo(5 * 6);
            assertThat(ProbeReport.text(result)).contains("HTTP/1.1 over TLS, trusting the certificates in")
                    .contains("shuttle-none: 5 TLS handshakes, 4 of them resumed");
            assertThat(ProbeReport.json(result).get("tlsTrust").asText()).contains(ca.toString());
        }
    }

    @Test
    void insecureSkipsTheHostNameCheckInEveryClientAndVerificationDoesNot() throws Exception {
        SelfSignedCertificate elsewhere = SelfSignedCertificate.generate(List.of("example.test"));
        try (FixtureServer fixture = FixtureServer.startTls(0, elsewhere.serverContext())) {
            ProbeResult insecure = new ProbeExperiment(fixture.uri("/json"), 2, ALL_BUT_BOUNDED,
                    Duration.ofSeconds(5), ClientTrust.insecure(), ProgressSink.NONE).run();
            for (ProbeResult.Row row : insecure.rows()) {
                assertThat(row.completed()).as(row.client().cliName() + ": " + row.error()).isEqualTo(2);
            }
            ProbeResult verified = new ProbeExperiment(fixture.uri("/json"), 2, ALL_BUT_BOUNDED,
                    Duration.ofSeconds(5), ClientTrust.authorities(List.of(elsewhere.authority()), "its authority"),
                    ProgressSink.NONE).run();
            for (ProbeResult.Row row : verified.rows()) {
                assertThat(row.completed()).as(row.client().cliName() + " must refuse a certificate for "
                        + "example.test at 127.0.0.1").isZero();
                assertThat(row.error()).as(row.client().cliName()).startsWith("TLS failed with 127.0.0.1:");
            }
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
