package dev.shuttle.lab.busy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.lab.report.ProgressSink;
import dev.shuttle.lab.servers.Protocol;
import dev.shuttle.lab.servers.ServerKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --generator}: which protocols each external generator takes, and what {@code auto} picks. */
class BusySettingsTest {
    @Test
    void wrkIsRefusedOverAnythingButHttp1() {
        for (Protocol protocol : List.of(Protocol.H2C, Protocol.HTTPS, Protocol.H2)) {
            assertThatThrownBy(() -> hot(protocol, "wrk"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("--generator wrk works for http1 only, not " + protocol.cliName());
        }
        assertThat(hot(Protocol.HTTP1, "wrk").generator()).isEqualTo("wrk");
    }

    @Test
    void h2loadIsRefusedOverAnythingButH2c() {
        assertThatThrownBy(() -> hot(Protocol.HTTP1, "h2load"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--generator h2load works for h2c only, not http1");
        assertThat(hot(Protocol.H2C, "h2load").generator()).isEqualTo("h2load");
    }

    @Test
    void anUnknownGeneratorListsTheKnownOnes() {
        assertThatThrownBy(() -> hot(Protocol.HTTP1, "ab"))
                .hasMessage("unknown generator 'ab' (auto, lab, h2load, wrk, shuttle)");
    }

    @Test
    void autoPicksWrkOverHttp1AndH2loadOverH2cWhenInstalled() throws Exception {
        String overHttp1 = new BusyExperiment(hot(Protocol.HTTP1, "auto"), ProgressSink.NONE).hotExternalGenerator();
        assertThat(overHttp1).isEqualTo(Wrk.find() != null ? "wrk" : null);
        String overH2c = new BusyExperiment(hot(Protocol.H2C, "auto"), ProgressSink.NONE).hotExternalGenerator();
        assertThat(overH2c).isEqualTo(H2Load.find() != null ? "h2load" : null);
    }

    @Test
    void autoOverTlsAndTheJvmGeneratorsUseNoExternalOne() throws Exception {
        for (BusySettings settings : List.of(hot(Protocol.HTTPS, "auto"), hot(Protocol.HTTP1, "lab"),
                hot(Protocol.HTTP1, "shuttle"), hot(Protocol.H2C, "lab"))) {
            BusyExperiment experiment = new BusyExperiment(settings, ProgressSink.NONE);
            assertThat(experiment.hotExternalGenerator()).as(settings.toString()).isNull();
        }
    }

    private static BusySettings hot(Protocol protocol, String generator) {
        return new BusySettings(List.of(ServerKind.SHUTTLE), List.of(BusyScenario.HOT), protocol, 1,
                Duration.ofSeconds(2), null, generator);
    }
}
