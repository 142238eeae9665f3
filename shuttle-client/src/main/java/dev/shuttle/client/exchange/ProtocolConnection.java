package dev.shuttle.client.exchange;

import dev.shuttle.client.Request;
import dev.shuttle.client.pool.Lease;
import dev.shuttle.client.pool.PooledConnection;
import dev.shuttle.transport.tls.TlsInfo;
import dev.shuttle.wire.HttpVersion;

/** A pooled connection that carries exchanges of one protocol: HTTP/1.1 or HTTP/2. */
public interface ProtocolConnection extends PooledConnection {
    HttpVersion protocol();

    /** The TLS session's details, or null for plaintext. */
    TlsInfo tls();

    /** A new exchange for {@code request} on this connection, under {@code lease}. */
    ExchangeCodec newExchange(Lease lease, Request request, ExchangeContext context);
}
