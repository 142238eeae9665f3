package dev.shuttle.mockserver;

/**
 * A GOAWAY frame the server sent, as the mock server's frame tap saw it ({@link MockServer.Builder#countFrames()}).
 *
 * @param lastStreamId       the last stream the server said it processes; -1 when the frame was too short to say
 * @param errorCode          the error code (0 NO_ERROR, 0xb ENHANCE_YOUR_CALM, ...); -1 when too short
 * @param debugData          the frame's debug data as UTF-8, at most its first 256 bytes
 * @param beforeClientClosed whether the client had neither sent a GOAWAY of its own nor closed its side yet: the
 *                           server chose to end a connection the client still wanted (a well-behaved client should
 *                           never see one before it closes)
 */
public record GoAway(int lastStreamId, int errorCode, String debugData, boolean beforeClientClosed) {
    private static final String[] NAMES = {"NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR",
        "SETTINGS_TIMEOUT", "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR",
        "CONNECT_ERROR", "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED"};

    /** The error code's name from RFC 9113 section 7, or its number in hex when it has none. */
    public String errorName() {
        return errorCode >= 0 && errorCode < NAMES.length ? NAMES[errorCode]
                : "0x" + Integer.toHexString(errorCode);
    }

    @Override
    public String toString() {
        return "GOAWAY " + errorName() + " last-stream " + lastStreamId
                + (debugData.isEmpty() ? "" : " \"" + debugData + "\"")
                + (beforeClientClosed ? " (before the client closed)" : " (after the client closed)");
    }
}
