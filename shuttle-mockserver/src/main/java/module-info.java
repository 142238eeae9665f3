/**
 * A scriptable test server for HTTP/1.1 and HTTP/2, cleartext and TLS, that counts what connection reuse depends on:
 * new connections, requests per connection, TLS handshakes and the bytes each response cost. {@code dev.shuttle.mockserver}
 * is the server; {@code dev.shuttle.mockserver.junit} the JUnit 5 extension, which needs junit-jupiter-api at run time
 * only when it is used.
 */
module dev.shuttle.mockserver {
    requires transitive dev.shuttle.server;
    requires static org.junit.jupiter.api;

    exports dev.shuttle.mockserver;
    exports dev.shuttle.mockserver.junit;
}
