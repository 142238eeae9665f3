/**
 * Shuttle's HTTP server: virtual-thread handlers, idle connections parked without a thread, TLS on the shared
 * transport. API: {@code dev.shuttle.server} (server, handler, request, response), {@code .routing} (the router);
 * {@code core}, {@code http1}, {@code http2} and {@code io} are the implementation.
 */
module dev.shuttle.server {
    requires transitive dev.shuttle.wire;
    requires transitive dev.shuttle.transport;

    exports dev.shuttle.server;
    exports dev.shuttle.server.routing;
    exports dev.shuttle.server.files;
    exports dev.shuttle.server.compress;
    exports dev.shuttle.server.log;
}
