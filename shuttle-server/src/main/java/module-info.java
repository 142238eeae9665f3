/**
 * Shuttle's HTTP server: virtual-thread handlers, idle connections parked without a thread, TLS on the shared
 * transport. Only {@code dev.shuttle.server} is API; {@code core}, {@code http1} and {@code io} are the implementation.
 */
module dev.shuttle.server {
    requires transitive dev.shuttle.wire;
    requires transitive dev.shuttle.transport;

    exports dev.shuttle.server;
}
