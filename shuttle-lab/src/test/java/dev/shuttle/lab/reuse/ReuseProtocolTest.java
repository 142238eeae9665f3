package dev.shuttle.lab.reuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.lab.ShuttleCommand;
import dev.shuttle.lab.clients.ClientKind;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** Which client may run over which protocol, and what the command line says when one may not. */
class ReuseProtocolTest {

    @Test
    void theDefaultClientsAreEveryClientThatSpeaksTheProtocol() {
        assertThat(ReuseSettings.builder().build().clients()).containsExactly(ClientKind.values());
        for (ReuseProtocol protocol : ReuseProtocol.values()) {
            for (ClientKind client : ClientKind.values()) {
                boolean listed = protocol.defaultClients().contains(client);
                boolean allowed = !protocol.isHttp2() || client.http2Refusal(protocol == ReuseProtocol.H2) == null;
                assertThat(listed).as(protocol + " lists " + client).isEqualTo(allowed);
            }
        }
    }

    @Test
    void h2TurnsTlsOnAndH2cRefusesIt() {
        assertThat(ReuseSettings.builder().protocol(ReuseProtocol.H2).build().tls()).isTrue();
        assertThatThrownBy(() -> ReuseSettings.builder().tls(true).protocol(ReuseProtocol.H2C).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--protocol h2");
    }

    @Test
    void http1AcceptsShuttleH2BesideTheRest() {
        assertThat(ReuseSettings.builder().clients(List.of(ClientKind.SHUTTLE, ClientKind.SHUTTLE_H2)).build()
                .clients()).hasSize(2);
    }

    @ParameterizedTest(name = "--protocol {0} --clients {1}")
    @CsvSource({
        "h2c, jdk, 'jdk cannot run with --protocol h2c: the JDK client has no h2c prior knowledge'",
        "h2, apache, 'apache cannot run with --protocol h2: Apache HttpClient 5 classic speaks HTTP/1.1 only'",
        "h2c, shuttle, 'shuttle cannot run with --protocol h2c: drain policies are HTTP/1.1''s'",
        "h2, shuttle-none, 'Shuttle over HTTP/2 is shuttle-h2'",
        "h3, okhttp, 'unknown protocol ''h3''; known protocols: h1,h2c,h2'"})
    void theCommandLineSaysWhyAClientCannotRun(String protocol, String client, String message) {
        assertThat(runReuse("--protocol", protocol, "--clients", client)).startsWith("shuttle: ").contains(message);
    }

    @Test
    void h2cWithTlsIsAContradiction() {
        assertThat(runReuse("--protocol", "h2c", "--tls")).contains("over TLS use --protocol h2");
    }

    private static String runReuse(String... options) {
        StringWriter err = new StringWriter();
        CommandLine line = ShuttleCommand.commandLine();
        line.setErr(new PrintWriter(err, true));
        String[] args = new String[options.length + 3];
        args[0] = "lab";
        args[1] = "reuse";
        System.arraycopy(options, 0, args, 2, options.length);
        args[args.length - 1] = "--no-progress";
        assertThat(line.execute(args)).isNotZero();
        return err.toString();
    }
}
