package dev.shuttle.lab.servers;

import java.util.Locale;

/** The protocol a server under test speaks to the lab's clients. */
public enum Protocol {
    /** HTTP/2 over cleartext TCP with prior knowledge: the client starts with the connection preface. */
    H2C("h2c", "HTTP/2 cleartext, prior knowledge"),
    /** HTTP/1.1 with keep-alive. */
    HTTP1("http1", "HTTP/1.1 keep-alive"),
    /** HTTP/2 over TLS negotiated with ALPN. */
    H2("h2", "HTTP/2 over TLS (ALPN)"),
    /**
     * HTTP/1.1 keep-alive over TLS: every server has HTTP/2 off, so ALPN (offered by the lab's client with
     * {@code http/1.1} only) can say nothing else. The certificate is the lab's, generated per run ({@link LabTls}).
     */
    HTTPS("https", "HTTP/1.1 keep-alive over TLS");

    private final String cliName;
    private final String label;

    Protocol(String cliName, String label) {
        this.cliName = cliName;
        this.label = label;
    }

    public String cliName() {
        return cliName;
    }

    public String label() {
        return label;
    }

    public boolean isHttp2() {
        return this == H2C || this == H2;
    }

    /** Over TLS: the server needs the lab's key store, the client its authority. */
    public boolean isTls() {
        return this == H2 || this == HTTPS;
    }

    public static Protocol parse(String text) {
        String wanted = text.trim().toLowerCase(Locale.ROOT);
        for (Protocol p : values()) {
            if (p.cliName.equals(wanted)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown protocol '" + text + "' (known: h2c, http1, https, h2)");
    }

    @Override
    public String toString() {
        return cliName;
    }
}
