/**
 * Shuttle's reverse proxy: a server {@code Handler} that forwards requests to an upstream on Shuttle's client, so a
 * downstream client that aborts mid-body costs the upstream no connection (the client drains and keeps it). Its API
 * names the server's {@code Handler} and the client's {@code HttpClient}, hence both are required transitively.
 */
module dev.shuttle.proxy {
    requires transitive dev.shuttle.server;
    requires transitive dev.shuttle.client;

    exports dev.shuttle.proxy;
}
