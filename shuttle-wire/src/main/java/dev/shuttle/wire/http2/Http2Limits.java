package dev.shuttle.wire.http2;

/**
 * Bounds on what a peer may make us buffer or decode on one HTTP/2 connection. The first, second and last are also
 * what we announce in SETTINGS ({@link #announceIn(Http2Settings)}); the other two are local only.
 *
 * @param maxFrameSize          our SETTINGS_MAX_FRAME_SIZE: largest frame payload accepted by
 *                              {@link Http2FrameReader}; over it: connection FRAME_SIZE_ERROR
 * @param maxHeaderListSize     our SETTINGS_MAX_HEADER_LIST_SIZE: largest decoded field list, counted as the RFC
 *                              counts it (name + value + 32 octets per field); over it the HPACK decoder finishes the
 *                              block but reports it too large, and a server answers 431, a client resets the stream
 * @param maxHeaderBlockBytes   largest compressed field block {@link HeaderBlockAssembler} joins from HEADERS and
 *                              CONTINUATION; over it: connection ENHANCE_YOUR_CALM. Must be at least
 *                              {@code maxHeaderListSize}, so that an over-large list can still be decoded and
 *                              refused without losing the connection
 * @param maxContinuationFrames most CONTINUATION frames in one field block, empty ones included; over it: connection
 *                              ENHANCE_YOUR_CALM
 * @param headerTableSize       our SETTINGS_HEADER_TABLE_SIZE: largest HPACK dynamic table the peer's encoder may
 *                              use for what it sends us
 */
public record Http2Limits(int maxFrameSize,
                          int maxHeaderListSize,
                          int maxHeaderBlockBytes,
                          int maxContinuationFrames,
                          int headerTableSize) {

    /**
     * Server defaults:
     * <ul>
     *   <li>16 KiB frames: the RFC's default, which every peer must support, and what Jetty, Netty and OkHttp use
     *       (Go announces 1 MiB). Larger frames save little and need larger read buffers per connection.</li>
     *   <li>16 KiB field lists, like Shuttle's HTTP/1 {@code maxHeadBytes}; Netty and Jetty allow 8 KiB, Go 1 MiB.
     *       The 32 octets per field that HPACK counts cap a list at 512 fields.</li>
     *   <li>32 KiB compressed blocks: twice the list limit. A sane encoder's block is smaller than its decoded list
     *       (each field costs at least 32 in the list and a few octets of framing on the wire), so blocks in between
     *       are decoded and refused with 431 while the connection lives on; beyond it the peer is hostile.</li>
     *   <li>32 CONTINUATION frames: a peer that fills its frames needs 2 for a 32 KiB block; 32 leaves room for
     *       peers that split small and still ends an empty-CONTINUATION flood after 32 frames.</li>
     *   <li>4096-octet HPACK table: the RFC default, used by Go, Netty, Jetty and OkHttp.</li>
     * </ul>
     */
    public static Http2Limits serverDefaults() {
        return new Http2Limits(Http2Settings.MIN_MAX_FRAME_SIZE, 16 * 1024, 32 * 1024, 32,
                Http2Settings.DEFAULT_HEADER_TABLE_SIZE);
    }

    /**
     * Client defaults: as the server's, but 64 KiB field lists (128 KiB blocks), like Shuttle's HTTP/1 client,
     * because responses carry large Set-Cookie and CSP fields.
     */
    public static Http2Limits clientDefaults() {
        return new Http2Limits(Http2Settings.MIN_MAX_FRAME_SIZE, 64 * 1024, 128 * 1024, 32,
                Http2Settings.DEFAULT_HEADER_TABLE_SIZE);
    }

    public Http2Limits {
        if (maxFrameSize < Http2Settings.MIN_MAX_FRAME_SIZE || maxFrameSize > Http2Settings.MAX_MAX_FRAME_SIZE) {
            throw new IllegalArgumentException("maxFrameSize must be 16384..16777215: " + maxFrameSize);
        }
        if (maxHeaderListSize <= 0 || maxHeaderBlockBytes < maxHeaderListSize || maxContinuationFrames < 0
                || headerTableSize < 0) {
            throw new IllegalArgumentException("invalid limits (maxHeaderBlockBytes must be >= maxHeaderListSize): "
                    + this);
        }
    }

    /** {@code base} with the three limits that are announced in SETTINGS set to ours. */
    public Http2Settings announceIn(Http2Settings base) {
        return base.with(Http2Settings.MAX_FRAME_SIZE, maxFrameSize)
                .with(Http2Settings.MAX_HEADER_LIST_SIZE, maxHeaderListSize)
                .with(Http2Settings.HEADER_TABLE_SIZE, headerTableSize);
    }
}
