package dev.shuttle.server;

/**
 * A GOAWAY the server sent on an HTTP/2 connection ({@link ConnectionListener#onGoAway}).
 *
 * @param lastStreamId the last client stream the server says it processes; {@code 2^31-1} in the first GOAWAY of a
 *                     graceful shutdown, which takes every stream still on its way
 * @param errorCode    RFC 9113 section 7's code: 0 NO_ERROR, 0x1 PROTOCOL_ERROR, 0xb ENHANCE_YOUR_CALM, ...
 * @param errorName    that code's name ({@code NO_ERROR}), or {@code 0x} and the number for codes without one
 * @param reason       why the server ends the connection, for logs: {@code idle}, {@code shutdown}, {@code client
 *                     GOAWAY}, or the rule a client broke (never the client's bytes)
 * @param clientFirst  the client had sent its own GOAWAY before: this one answers it. A well-behaved client sees no
 *                     other GOAWAY before it closes, except at the idle timeout and at shutdown
 */
public record GoAwayEvent(int lastStreamId, int errorCode, String errorName, String reason, boolean clientFirst) {
}
