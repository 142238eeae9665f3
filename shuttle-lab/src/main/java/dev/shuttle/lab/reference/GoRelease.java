package dev.shuttle.lab.reference;

/**
 * The Go releases whose published figures the lab shows beside its own, and the Shuttle drain policy that
 * reproduces each one's behaviour (so the figures sit under that client's column).
 */
public enum GoRelease {
    GO_1_26("Go 1.26", "shuttle-none"),
    GO_1_27("Go 1.27", "shuttle-bounded"),
    /** Seed 001's HTTP/2 server parking: a server-side change, so no client column matches it. */
    GO_1_28("Go 1.28", null);

    private final String label;
    private final String matchingClient;

    GoRelease(String label, String matchingClient) {
        this.label = label;
        this.matchingClient = matchingClient;
    }

    public String label() {
        return label;
    }

    /** The command-line name of the Shuttle client that behaves like this release, or null when none does. */
    public String matchingClient() {
        return matchingClient;
    }
}
