package dev.shuttle.lab.reuse;

import dev.shuttle.lab.clients.ClientKind;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Parameters of one {@code lab reuse} run.
 *
 * @param clients      columns, in order; default every client that speaks the protocol
 * @param cases        rows, in order; default every case (that the server serves)
 * @param requests     sequential requests per cell for ordinary cases; default 100, as seeds 000 and 003
 * @param slowRequests requests per cell for slow cases (100 ms tail, throttled body); default 20, as seed 003 ran
 *                     them, so clients that drain on the caller's thread do not stretch the run past two minutes
 * @param rounds       times each cell is measured with a fresh client; the tables show the median; default 3
 * @param dialDelay    simulated handshake per new connection, through the lab's relay; default 0 (direct)
 * @param tls          HTTPS to a fixture with a certificate generated for the run, TLS handshakes counted beside new
 *                     connections; default false (plaintext); true with protocol h2
 * @param protocol     what every client speaks ({@link ReuseProtocol}); default HTTP/1.1, the seeds' experiment
 * @param server       what the clients talk to ({@link ReuseServer}); default the lab's fixture, which serves every
 *                     case and counts everything; a peer server serves HTTP/2 and the cases it can
 * @param warmup       requests per client before measuring, unrecorded, so the JIT does not colour round 1;
 *                     default 50
 */
public record ReuseSettings(List<ClientKind> clients, List<ReuseCase> cases, int requests, int slowRequests,
                            int rounds, Duration dialDelay, boolean tls, ReuseProtocol protocol, ReuseServer server,
                            int warmup) {

    public ReuseSettings {
        clients = List.copyOf(clients);
        cases = List.copyOf(cases);
        Objects.requireNonNull(dialDelay, "dialDelay");
        if (clients.isEmpty() || cases.isEmpty()) {
            throw new IllegalArgumentException("at least one client and one case");
        }
        if (requests < 1 || slowRequests < 1 || rounds < 1 || warmup < 0) {
            throw new IllegalArgumentException("requests, slow requests and rounds must be at least 1");
        }
        if (dialDelay.isNegative()) {
            throw new IllegalArgumentException("dial delay must not be negative");
        }
        Objects.requireNonNull(protocol, "protocol");
        if (protocol == ReuseProtocol.H2C && tls) {
            throw new IllegalArgumentException("h2c is HTTP/2 without TLS; over TLS it is --protocol h2");
        }
        if (protocol == ReuseProtocol.H2 && !tls) {
            throw new IllegalArgumentException("h2 is HTTP/2 over TLS: tls must be on");
        }
        clients.forEach(protocol::check);
        Objects.requireNonNull(server, "server");
        server.check(protocol);
        cases.forEach(server::check);
    }

    /** Requests per cell for {@code reuseCase}. */
    public int requestsFor(ReuseCase reuseCase) {
        return reuseCase.slow() ? Math.min(slowRequests, requests) : requests;
    }

    /** Requests the whole run makes (without warm-up): the progress bar's 100 %. */
    public long totalRequests() {
        long perRound = 0;
        for (ReuseCase c : cases) {
            perRound += (long) requestsFor(c) * clients.stream().filter(c::appliesTo).count();
        }
        return perRound * rounds;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builder; every option starts at the default documented on the record. */
    public static final class Builder {
        private List<ClientKind> clients; // null: the protocol's default clients
        private List<ReuseCase> cases; // null: every case the server serves
        private int requests = 100;
        private int slowRequests = 20;
        private int rounds = 3;
        private Duration dialDelay = Duration.ZERO;
        private boolean tls;
        private ReuseProtocol protocol = ReuseProtocol.HTTP1;
        private ReuseServer server = ReuseServer.SHUTTLE;
        private int warmup = 50;

        public Builder clients(List<ClientKind> value) {
            this.clients = value;
            return this;
        }

        public Builder cases(List<ReuseCase> value) {
            this.cases = value;
            return this;
        }

        public Builder requests(int value) {
            this.requests = value;
            return this;
        }

        public Builder slowRequests(int value) {
            this.slowRequests = value;
            return this;
        }

        public Builder rounds(int value) {
            this.rounds = value;
            return this;
        }

        public Builder dialDelay(Duration value) {
            this.dialDelay = value;
            return this;
        }

        public Builder tls(boolean value) {
            this.tls = value;
            return this;
        }

        /** Also sets {@code tls} for h2 (HTTP/2 over TLS). */
        public Builder protocol(ReuseProtocol value) {
            this.protocol = value;
            if (value == ReuseProtocol.H2) {
                this.tls = true;
            }
            return this;
        }

        public Builder server(ReuseServer value) {
            this.server = value;
            return this;
        }

        public Builder warmup(int value) {
            this.warmup = value;
            return this;
        }

        public ReuseSettings build() {
            return new ReuseSettings(clients != null ? clients : protocol.defaultClients(), cases != null ? cases
                    : Arrays.stream(ReuseCase.values()).filter(server::serves).toList(),
                    requests, slowRequests, rounds, dialDelay, tls, protocol, server, warmup);
        }
    }
}
