/** Shuttle's HTTP client: pooled connections, plaintext and TLS, drain on close, trace hooks. */
module dev.shuttle.client {
    requires transitive dev.shuttle.wire;
    requires transitive dev.shuttle.transport;

    exports dev.shuttle.client;
}
