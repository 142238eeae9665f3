package dev.shuttle.lab.clients;

import dev.shuttle.lab.tls.ClientTrust;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * How the lab builds a client. Everything not listed here is the client's own default, on purpose: the lab
 * measures what users get.
 *
 * @param goIdleDefaults   Shuttle only: keep at most 2 idle connections per host, as Go's DefaultTransport does
 *                         (seed 003); default false, Shuttle's own sizing
 * @param connectTimeout   connect timeout; default 5 s, so a dead endpoint fails fast in {@code probe}
 * @param requestTimeout   whole-exchange timeout up to the response head; default 30 s, past any fixture case
 * @param trust            for https: whom every client trusts, each client with a TLS context (and so a session
 *                         cache) of its own; default null: each client's own TLS defaults, for plain-http runs that
 *                         never dial TLS
 * @param http2            HTTP/2 only: prior knowledge on http (h2c), ALPN h2 on https, and a response over any other
 *                         protocol is a failed call; default false: HTTP/1.1 (but {@code shuttle-h2}, always
 *                         HTTP/2). Only for clients whose {@link ClientKind#http2Refusal} is null
 * @param followRedirects  follow redirects: the one client that does not by default (the JDK's) is told to
 *                         ({@code NORMAL}); the others follow anyway; default false
 * @param proxy            an HTTP proxy every request goes through; default null: direct
 */
public record ClientOptions(boolean goIdleDefaults, Duration connectTimeout, Duration requestTimeout,
                            ClientTrust trust, boolean http2, boolean followRedirects, InetSocketAddress proxy) {

    public ClientOptions {
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
    }

    public static ClientOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builder; every option starts at the default documented on the record. */
    public static final class Builder {
        private boolean goIdleDefaults;
        private Duration connectTimeout = Duration.ofSeconds(5);
        private Duration requestTimeout = Duration.ofSeconds(30);
        private ClientTrust trust;
        private boolean http2;
        private boolean followRedirects;
        private InetSocketAddress proxy;

        public Builder goIdleDefaults(boolean value) {
            this.goIdleDefaults = value;
            return this;
        }

        public Builder connectTimeout(Duration value) {
            this.connectTimeout = value;
            return this;
        }

        public Builder requestTimeout(Duration value) {
            this.requestTimeout = value;
            return this;
        }

        public Builder trust(ClientTrust value) {
            this.trust = value;
            return this;
        }

        public Builder http2(boolean value) {
            this.http2 = value;
            return this;
        }

        public Builder followRedirects(boolean value) {
            this.followRedirects = value;
            return this;
        }

        public Builder proxy(InetSocketAddress value) {
            this.proxy = value;
            return this;
        }

        public ClientOptions build() {
            return new ClientOptions(goIdleDefaults, connectTimeout, requestTimeout, trust, http2, followRedirects,
                    proxy);
        }
    }
}
