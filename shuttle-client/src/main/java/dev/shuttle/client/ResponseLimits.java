package dev.shuttle.client;

/**
 * Bounds on what a server can make the client hold for one response, the same for every protocol. Over a bound the
 * call fails with an {@code IOException} and the connection is closed. {@link #defaults()} is valid and generous:
 * responses carry large {@code Set-Cookie} and security headers.
 *
 * @param maxHeaderBytes  the response head: HTTP/1.1's status line and header lines as received, HTTP/2's decoded
 *                        header list (RFC 9113's count: name + value + 32 per field). Default 64 KiB
 * @param maxHeaderCount  header fields in one response head. Default 256
 * @param maxTrailerBytes trailer fields after a body, counted the same way. Default 64 KiB
 */
public record ResponseLimits(int maxHeaderBytes, int maxHeaderCount, int maxTrailerBytes) {
    private static final ResponseLimits DEFAULTS = new ResponseLimits(64 * 1024, 256, 64 * 1024);

    public ResponseLimits {
        if (maxHeaderBytes <= 0 || maxHeaderCount <= 0 || maxTrailerBytes < 0) {
            throw new IllegalArgumentException("invalid response limits: " + maxHeaderBytes + ", " + maxHeaderCount
                    + ", " + maxTrailerBytes);
        }
    }

    /** 64 KiB of head, 256 fields, 64 KiB of trailers: Go's default head limit is 1 MiB, OkHttp's 256 KiB. */
    public static ResponseLimits defaults() {
        return DEFAULTS;
    }
}
