/** Shuttle's HTTP server: virtual-thread handlers, idle connections parked without a thread. */
module dev.shuttle.server {
    requires transitive dev.shuttle.wire;

    exports dev.shuttle.server;
}
