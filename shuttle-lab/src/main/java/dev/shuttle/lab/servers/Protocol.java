package dev.shuttle.lab.servers;

import java.util.Locale;

/** The protocol a server under test speaks to the lab's clients. */
public enum Protocol {
    /** HTTP/2 over cleartext TCP with prior knowledge: the client starts with the connection preface. */
    H2C("h2c", "HTTP/2 cleartext, prior knowledge"),
    /** HTTP/1.1 with keep-alive. */
    HTTP1("http1", "HTTP/1.1 keep-alive"),
    /** HTTP/2 over TLS negotiated with ALPN. */
    H2("h2", "HTTP/2 over TLS (ALPN)");

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
        return this != HTTP1;
    }

    public static Protocol parse(String text) {
        String wanted = text.trim().toLowerCase(Locale.ROOT);
        for (Protocol p : values()) {
            if (p.cliName.equals(wanted)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown protocol '" + text + "' (known: h2c, http1, h2)");
    }

    @Override
    public String toString() {
        return cliName;
    }
}
