/**
 * Shuttle's HTTP server: virtual-thread handlers, idle connections parked without a thread.
 * Only {@code dev.shuttle.server} is API; {@code http1} and {@code io} are the implementation.
 */
module dev.shuttle.server {
    requires transitive dev.shuttle.wire;

    exports dev.shuttle.server;
}
