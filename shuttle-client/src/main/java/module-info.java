/** Shuttle's HTTP client: pooled connections, drain on close, trace hooks. */
module dev.shuttle.client {
    requires transitive dev.shuttle.wire;

    exports dev.shuttle.client;
}
