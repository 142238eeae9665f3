/**
 * Shuttle's protocol codecs: pure code, no sockets and no threads, shared by the client, the server and test peers.
 */
module dev.shuttle.wire {
    exports dev.shuttle.wire;
    exports dev.shuttle.wire.http1;
    exports dev.shuttle.wire.http2;
    exports dev.shuttle.wire.hpack;
}
