package dev.shuttle.server;

import java.time.Duration;
import java.util.Objects;

/**
 * Time bounds that keep a slow or silent client from holding a connection forever. All durations are positive.
 * {@code ServerTimeouts.defaults()} is a valid configuration; each builder option states its default and its source.
 *
 * @param headerRead time from a connection's first readable byte (or from accept, for a new connection) to the end of
 *                   the request head; a client that sent part of a head gets 408 and the connection closes, a client
 *                   that sent nothing is closed silently (the slowloris defence)
 * @param bodyRead   longest wait for the next bytes of a request body (an inactivity timeout, per read); the
 *                   handler's read fails with a {@code SocketTimeoutException}, and the client gets 408 if nothing was
 *                   committed yet
 * @param idle       how long a keep-alive connection may wait for its next request before it is closed
 * @param write      longest time one write of response bytes may stay blocked (a client that stopped reading); the
 *                   connection is then closed
 * @param tlsHandshake time from accept to the end of the TLS handshake (TLS servers only); a client that is slower is
 *                   closed, and its first request head then gets {@code headerRead} of its own
 */
public record ServerTimeouts(Duration headerRead, Duration bodyRead, Duration idle, Duration write,
                             Duration tlsHandshake) {

    /** Checks that every timeout is positive. */
    public ServerTimeouts {
        requirePositive(headerRead, "headerRead");
        requirePositive(bodyRead, "bodyRead");
        requirePositive(idle, "idle");
        requirePositive(write, "write");
        requirePositive(tlsHandshake, "tlsHandshake");
    }

    private static void requirePositive(Duration duration, String name) {
        Objects.requireNonNull(duration, name);
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(name + " must be positive: " + duration);
        }
    }

    /** {@return the default timeouts} */
    public static ServerTimeouts defaults() {
        return builder().build();
    }

    /** {@return a builder starting from the defaults} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a builder holding these timeouts, to change some} */
    public Builder toBuilder() {
        return new Builder().headerRead(headerRead).bodyRead(bodyRead).idle(idle).write(write)
                .tlsHandshake(tlsHandshake);
    }

    /** Hand-written builder; every option has a default, so {@code builder().build()} is valid. */
    public static final class Builder {
        private Duration headerRead = Duration.ofSeconds(10);
        private Duration bodyRead = Duration.ofSeconds(30);
        private Duration idle = Duration.ofSeconds(60);
        private Duration write = Duration.ofSeconds(30);
        private Duration tlsHandshake = Duration.ofSeconds(10);

        private Builder() {
        }

        /**
         * Default 10 s: the common setting of Go's {@code ReadHeaderTimeout} (which Go leaves unset, a gap its
         * linters flag) and of Apache httpd's mod_reqtimeout ({@code header=20-40,MinRate=500}); nginx's
         * {@code client_header_timeout} is 60 s. Real clients send a head in one packet, so 10 s only stops the idle
         * trickle of slowloris.
         *
         * @param timeout the longest a request head may take to arrive
         * @return this builder
         */
        public Builder headerRead(Duration timeout) {
            this.headerRead = timeout;
            return this;
        }

        /**
         * Default 30 s: Jetty's idle timeout (30 s) is what bounds a stalled body read there; Tomcat's
         * connectionTimeout is 60 s (20 s in its shipped server.xml); nginx's {@code client_body_timeout} (between two
         * reads) is 60 s.
         *
         * @param timeout the longest wait for the next body bytes
         * @return this builder
         */
        public Builder bodyRead(Duration timeout) {
            this.bodyRead = timeout;
            return this;
        }

        /**
         * Default 60 s: nginx keeps idle keep-alive connections 75 s, Go's IdleTimeout falls back to ReadTimeout
         * (none by default), Jetty 30 s. Clients (Go 90 s, JDK 30 s, OkHttp 5 min) reuse for as long as the server
         * allows, and a parked connection here costs no thread, so a longer window buys reuse cheaply.
         *
         * @param timeout how long an idle connection is kept
         * @return this builder
         */
        public Builder idle(Duration timeout) {
            this.idle = timeout;
            return this;
        }

        /**
         * Default 30 s, as Jetty's idle timeout for a blocked write and nginx's {@code send_timeout} (60 s) halved.
         *
         * @param timeout the longest a write may make no progress
         * @return this builder
         */
        public Builder write(Duration timeout) {
            this.write = timeout;
            return this;
        }

        /**
         * Default 10 s: Go bounds the handshake by its read deadlines (the header timeout, when set), Jetty by its
         * 30 s idle timeout, nginx by {@code ssl_handshake_timeout} 60 s. A handshake is two round trips and some
         * milliseconds of CPU, so 10 s only stops clients that open a connection and stall, each holding a thread.
         *
         * @param timeout the longest a TLS handshake may take
         * @return this builder
         */
        public Builder tlsHandshake(Duration timeout) {
            this.tlsHandshake = timeout;
            return this;
        }

        /** {@return the timeouts} */
        public ServerTimeouts build() {
            return new ServerTimeouts(headerRead, bodyRead, idle, write, tlsHandshake);
        }
    }
}
