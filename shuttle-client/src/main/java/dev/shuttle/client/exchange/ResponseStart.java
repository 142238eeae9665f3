package dev.shuttle.client.exchange;

import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;

/** A final response head, whatever protocol carried it (HTTP/2 has no reason phrase: it is empty there). */
public record ResponseStart(int status, String reason, HttpVersion version, Headers headers) {
}
