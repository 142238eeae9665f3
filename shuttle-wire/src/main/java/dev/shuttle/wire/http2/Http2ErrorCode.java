package dev.shuttle.wire.http2;

/**
 * The error codes of RFC 9113 section 7, carried by RST_STREAM and GOAWAY and by {@link Http2Exception}.
 *
 * <p>Frames keep the raw 32-bit code they carried, because a peer may send codes that this list does not know; the
 * RFC says those must not trigger special behaviour and may be treated as {@link #INTERNAL_ERROR}, which is what
 * {@link #fromCode(int)} does.
 */
public enum Http2ErrorCode {
    NO_ERROR(0x0),
    PROTOCOL_ERROR(0x1),
    INTERNAL_ERROR(0x2),
    FLOW_CONTROL_ERROR(0x3),
    SETTINGS_TIMEOUT(0x4),
    STREAM_CLOSED(0x5),
    FRAME_SIZE_ERROR(0x6),
    REFUSED_STREAM(0x7),
    CANCEL(0x8),
    COMPRESSION_ERROR(0x9),
    CONNECT_ERROR(0xa),
    ENHANCE_YOUR_CALM(0xb),
    INADEQUATE_SECURITY(0xc),
    HTTP_1_1_REQUIRED(0xd);

    private static final Http2ErrorCode[] BY_CODE = values();

    private final int code;

    Http2ErrorCode(int code) {
        this.code = code;
    }

    /** The code as sent on the wire. */
    public int code() {
        return code;
    }

    /** True when {@code code} is one of the codes above. */
    public static boolean isKnown(int code) {
        return code >= 0 && code < BY_CODE.length;
    }

    /** The enum for a wire code; an unknown code reads as {@link #INTERNAL_ERROR} (RFC 9113 section 7). */
    public static Http2ErrorCode fromCode(int code) {
        return isKnown(code) ? BY_CODE[code] : INTERNAL_ERROR;
    }

    /** The name of a wire code for logs: the enum name, or the code in hex when it is unknown. */
    public static String describe(int code) {
        return isKnown(code) ? BY_CODE[code].name() : "0x" + Integer.toHexString(code);
    }
}
