/**
 * Shuttle's transport, shared by the client and the server: socket I/O in plaintext or TLS ({@code SSLEngine}), the
 * pool of I/O buffers, and the readiness watcher that lets an idle connection hold no thread and no buffer.
 * {@code dev.shuttle.transport.tls} is API (TLS details, key material, self-signed certificates); the rest is for
 * Shuttle's own modules.
 */
module dev.shuttle.transport {
    exports dev.shuttle.transport.tls;
    exports dev.shuttle.transport to dev.shuttle.server, dev.shuttle.client;
}
