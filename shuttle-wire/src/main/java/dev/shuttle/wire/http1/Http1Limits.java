package dev.shuttle.wire.http1;

/**
 * Bounds on what a peer may make us buffer while parsing HTTP/1. Every limit is in bytes unless named a count.
 *
 * @param maxStartLineBytes    request or status line, without CRLF; over it a server answers 414
 * @param maxHeadBytes         start line plus all field lines; over it a server answers 431
 * @param maxHeaderCount       field lines in one head; over it a server answers 431
 * @param maxChunkLineBytes    one chunk-size line including its extensions; over it: 400
 * @param maxTrailerBytes      all trailer field lines of a chunked body together; over it: 400
 */
public record Http1Limits(int maxStartLineBytes,
                          int maxHeadBytes,
                          int maxHeaderCount,
                          int maxChunkLineBytes,
                          int maxTrailerBytes) {

    /**
     * Server defaults: 8 KiB request line and 16 KiB head, as Jetty, Netty and Tomcat bound theirs (8 KiB each) with
     * room for today's cookie-heavy browsers; 100 fields as Tomcat and Undertow; 4 KiB chunk lines and 16 KiB of
     * trailers, far above real use and far below what could hurt.
     */
    public static Http1Limits serverDefaults() {
        return new Http1Limits(8 * 1024, 16 * 1024, 100, 4 * 1024, 16 * 1024);
    }

    /**
     * Client defaults: responses may carry large heads (Set-Cookie, CSP), so 64 KiB and 256 fields, as OkHttp
     * (256 KiB) and Go (10 MiB default MaxResponseHeaderBytes, far above) bound theirs generously.
     */
    public static Http1Limits clientDefaults() {
        return new Http1Limits(8 * 1024, 64 * 1024, 256, 4 * 1024, 64 * 1024);
    }

    public Http1Limits {
        if (maxStartLineBytes <= 0 || maxHeadBytes <= 0 || maxHeaderCount <= 0
                || maxChunkLineBytes <= 0 || maxTrailerBytes < 0) {
            throw new IllegalArgumentException("limits must be positive: " + this);
        }
    }
}
