package dev.shuttle.client.exchange;

import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;

/**
 * A final response head, whatever protocol carried it (HTTP/2 has no reason phrase: it is empty there).
 *
 * @param streamId the HTTP/2 stream that carried the exchange; 0 over HTTP/1.1
 */
public record ResponseStart(int status, String reason, HttpVersion version, Headers headers, int streamId) {
    /** An HTTP/1.x head: no stream. */
    public ResponseStart(int status, String reason, HttpVersion version, Headers headers) {
        this(status, reason, version, headers, 0);
    }
}
