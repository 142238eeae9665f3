/**
 * Shuttle's protocol codecs: pure code, no sockets and no threads, shared by the client, the server and test peers.
 * {@code dev.shuttle.wire} (headers, versions, field syntax) is API; the protocol packages are exported only to
 * Shuttle's own modules, so their shapes can change with the protocols' needs. (Test peers, the lab and the
 * benchmarks run on the class path, where these restrictions do not apply.)
 */
module dev.shuttle.wire {
    exports dev.shuttle.wire;
    exports dev.shuttle.wire.http1 to dev.shuttle.client, dev.shuttle.server;
    exports dev.shuttle.wire.http2 to dev.shuttle.client, dev.shuttle.server;
    exports dev.shuttle.wire.hpack to dev.shuttle.client, dev.shuttle.server;
}
