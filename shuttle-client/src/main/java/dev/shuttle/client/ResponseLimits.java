package dev.shuttle.client;

/**
 * Bounds on what a server can make the client hold for one response, the same for every protocol. Over a bound the
 * call fails with an {@code IOException} and the connection is closed. {@link #defaults()} is valid and generous:
 * responses carry large {@code Set-Cookie} and security headers.
 *
 * <p>A body the client decompresses by itself (see {@link HttpClient.Builder#compression}) is bounded too, against
 * decompression bombs: reading fails with an {@code IOException} naming the bound once the decoded body passes
 * {@code maxDecodedBytes}, or, past its first {@link #RATIO_FREE_BYTES}, once it is more than
 * {@code maxDecompressionRatio} times the compressed bytes read so far. The connection then goes to the drain policy
 * as for any body closed early.
 *
 * @param maxHeaderBytes        the response head: HTTP/1.1's status line and header lines as received, HTTP/2's
 *                              decoded header list (RFC 9113's count: name + value + 32 per field). Default 64 KiB
 * @param maxHeaderCount        header fields in one response head. Default 256
 * @param maxTrailerBytes       trailer fields after a body, counted the same way. Default 64 KiB
 * @param maxDecodedBytes       a decompressed body, in all. Default 1 GiB: bodies served compressed are text, and
 *                              text past that is an export the caller knows to expect (and raises this for)
 * @param maxDecompressionRatio decoded bytes per compressed byte. Default 100: text and JSON compress 5 to 20 times,
 *                              highly repetitive logs rarely past 100; gzip's ceiling, a run of zeros, is about 1 000
 */
public record ResponseLimits(int maxHeaderBytes, int maxHeaderCount, int maxTrailerBytes, long maxDecodedBytes,
                             int maxDecompressionRatio) {
    /** Decoded bytes that pass whatever their ratio: a small body of repeated bytes is not a bomb. */
    public static final long RATIO_FREE_BYTES = 1024 * 1024;

    private static final long DEFAULTS_DECODED = 1L << 30;
    private static final int DEFAULTS_RATIO = 100;
    private static final ResponseLimits DEFAULTS = new ResponseLimits(64 * 1024, 256, 64 * 1024, DEFAULTS_DECODED,
            DEFAULTS_RATIO);

    /** Checks the bounds: positive, trailers 0 or more (0 refuses any trailer). */
    public ResponseLimits {
        if (maxHeaderBytes <= 0 || maxHeaderCount <= 0 || maxTrailerBytes < 0 || maxDecodedBytes <= 0
                || maxDecompressionRatio <= 0) {
            throw new IllegalArgumentException("invalid response limits: " + maxHeaderBytes + ", " + maxHeaderCount
                    + ", " + maxTrailerBytes + ", " + maxDecodedBytes + ", " + maxDecompressionRatio);
        }
    }

    /**
     * The head and trailer bounds, with the default decompression bounds.
     *
     * @param maxHeaderBytes the most bytes of a response head
     * @param maxHeaderCount the most fields in a response head
     * @param maxTrailerBytes the most bytes of trailer fields
     */
    public ResponseLimits(int maxHeaderBytes, int maxHeaderCount, int maxTrailerBytes) {
        this(maxHeaderBytes, maxHeaderCount, maxTrailerBytes, DEFAULTS_DECODED, DEFAULTS_RATIO);
    }

    /**
     * These limits with other decompression bounds.
     *
     * @param maxDecodedBytes the most bytes a decoded body may grow to
     * @param maxDecompressionRatio the most decoded bytes per compressed byte
     * @return a copy with these decompression bounds
     */
    public ResponseLimits withDecompression(long maxDecodedBytes, int maxDecompressionRatio) {
        return new ResponseLimits(maxHeaderBytes, maxHeaderCount, maxTrailerBytes, maxDecodedBytes,
                maxDecompressionRatio);
    }

    /**
     * 64 KiB of head, 256 fields, 64 KiB of trailers (Go's default head limit is 1 MiB, OkHttp's 256 KiB); decoded
     * bodies up to 1 GiB and 100 times their compressed size.
     *
     * @return the default limits
     */
    public static ResponseLimits defaults() {
        return DEFAULTS;
    }
}
