package dev.shuttle.lab.reuse;

import dev.shuttle.lab.clients.ClientKind;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What every client of a {@code lab reuse} run speaks to the fixture. One protocol per run, so each table compares
 * clients on equal terms and its title says which protocol it is; HTTP/1.1 and HTTP/2 figures sit side by side as
 * two runs. Over HTTP/2 only the clients that speak it take part, each with HTTP/2 required (a response over
 * HTTP/1.1 counts as a failed call), and the fixture also counts the GOAWAY frames it sends.
 */
public enum ReuseProtocol {
    /** HTTP/1.1, plaintext or (with {@code --tls}) over TLS; {@code shuttle-h2} may still join with HTTP/2. */
    HTTP1("h1", "HTTP/1.1", List.of(ClientKind.SHUTTLE, ClientKind.SHUTTLE_BOUNDED, ClientKind.SHUTTLE_NONE,
            ClientKind.SHUTTLE_H2, ClientKind.JDK, ClientKind.OKHTTP, ClientKind.APACHE, ClientKind.JETTY)),
    /** HTTP/2 on a plaintext connection, with prior knowledge: the preface is the client's first byte. */
    H2C("h2c", "h2c, HTTP/2 with prior knowledge",
            List.of(ClientKind.SHUTTLE_H2, ClientKind.OKHTTP, ClientKind.JETTY)),
    /** HTTP/2 over TLS, chosen through ALPN. */
    H2("h2", "HTTP/2 over TLS, ALPN h2",
            List.of(ClientKind.SHUTTLE_H2, ClientKind.OKHTTP, ClientKind.JDK, ClientKind.JETTY));

    private final String cliName;
    private final String label;
    private final List<ClientKind> defaultClients;

    ReuseProtocol(String cliName, String label, List<ClientKind> defaultClients) {
        this.cliName = cliName;
        this.label = label;
        this.defaultClients = defaultClients;
    }

    public String cliName() {
        return cliName;
    }

    public String label() {
        return label;
    }

    public boolean isHttp2() {
        return this != HTTP1;
    }

    /** Every client that can speak this protocol to the fixture, in table order. */
    public List<ClientKind> defaultClients() {
        return defaultClients;
    }

    /**
     * Throws {@link IllegalArgumentException} saying why {@code client} cannot take part in a run of this protocol.
     */
    public void check(ClientKind client) {
        if (!isHttp2()) {
            return;
        }
        String refusal = client.http2Refusal(this == H2);
        if (refusal != null) {
            throw new IllegalArgumentException(client.cliName() + " cannot run with --protocol " + cliName + ": "
                    + refusal);
        }
    }

    public static ReuseProtocol byName(String name) {
        String wanted = name.trim().toLowerCase(Locale.ROOT);
        for (ReuseProtocol p : values()) {
            if (p.cliName.equals(wanted)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown protocol '" + name + "'; known protocols: "
                + Arrays.stream(values()).map(ReuseProtocol::cliName).collect(Collectors.joining(",")));
    }
}
