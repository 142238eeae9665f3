package dev.shuttle.mockserver;

/**
 * One connection the mock server accepted, as of a {@link ReuseStats} snapshot.
 *
 * @param id           1 for the server's first connection, in accept order
 * @param requests     requests received on it
 * @param tls          whether a TLS handshake completed on it
 * @param resumed      whether that handshake resumed an earlier session (no certificate sent)
 * @param bytesWritten bytes the socket accepted for sending (heads, framing and bodies, inside TLS): what the client's
 *                     side took, at most its socket buffers more than what the client application read
 * @param bytesRead    bytes received from the client (inside TLS)
 * @param open         whether it was still open
 */
public record ConnectionRecord(long id, long requests, boolean tls, boolean resumed, long bytesWritten,
                               long bytesRead, boolean open) {
}
