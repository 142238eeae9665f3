package dev.shuttle.wire.http2;

import java.util.ArrayList;
import java.util.List;

/**
 * The six parameters of RFC 9113 section 6.5.2, as one immutable value: what one side has announced. A connection
 * keeps two, its own and the peer's, both starting at {@link #DEFAULTS} until a SETTINGS frame changes them.
 *
 * <p>{@link #UNLIMITED} stands for the initial "no limit" of SETTINGS_MAX_CONCURRENT_STREAMS and
 * SETTINGS_MAX_HEADER_LIST_SIZE; it is never sent (a value that must be sent goes out as 2^32-1).
 *
 * <p>Role rules are the connection's: a client must treat SETTINGS_ENABLE_PUSH = 1 from a server as a connection
 * PROTOCOL_ERROR, and only the values acknowledged by the peer bind it (section 6.5.3).
 *
 * @param headerTableSize      HPACK dynamic table limit the sender's decoder allows, default 4096
 * @param enablePush           default true
 * @param maxConcurrentStreams default unlimited
 * @param initialWindowSize    initial stream flow-control window, default 65535, at most 2^31-1
 * @param maxFrameSize         largest frame payload the sender accepts, 16384..16777215, default 16384
 * @param maxHeaderListSize    largest field list (name + value + 32 per field) the sender accepts, default unlimited
 */
public record Http2Settings(long headerTableSize,
                            boolean enablePush,
                            long maxConcurrentStreams,
                            int initialWindowSize,
                            int maxFrameSize,
                            long maxHeaderListSize) {

    public static final int HEADER_TABLE_SIZE = 0x1;
    public static final int ENABLE_PUSH = 0x2;
    public static final int MAX_CONCURRENT_STREAMS = 0x3;
    public static final int INITIAL_WINDOW_SIZE = 0x4;
    public static final int MAX_FRAME_SIZE = 0x5;
    public static final int MAX_HEADER_LIST_SIZE = 0x6;

    /** "No limit": the initial value of MAX_CONCURRENT_STREAMS and MAX_HEADER_LIST_SIZE. */
    public static final long UNLIMITED = Long.MAX_VALUE;
    public static final int DEFAULT_HEADER_TABLE_SIZE = 4096;
    public static final int DEFAULT_INITIAL_WINDOW_SIZE = 65_535;
    public static final int MAX_WINDOW_SIZE = Integer.MAX_VALUE;
    /** The smallest SETTINGS_MAX_FRAME_SIZE, which is also its default: every endpoint must accept 2^14. */
    public static final int MIN_MAX_FRAME_SIZE = 1 << 14;
    public static final int MAX_MAX_FRAME_SIZE = Http2Frame.MAX_PAYLOAD_LENGTH;
    private static final long MAX_UINT32 = 0xffff_ffffL;

    /** The values every endpoint assumes before the peer's first SETTINGS frame. */
    public static final Http2Settings DEFAULTS = new Http2Settings(DEFAULT_HEADER_TABLE_SIZE, true, UNLIMITED,
            DEFAULT_INITIAL_WINDOW_SIZE, MIN_MAX_FRAME_SIZE, UNLIMITED);

    public Http2Settings {
        requireUint32("headerTableSize", headerTableSize, false);
        requireUint32("maxConcurrentStreams", maxConcurrentStreams, true);
        requireUint32("maxHeaderListSize", maxHeaderListSize, true);
        if (initialWindowSize < 0) {
            throw new IllegalArgumentException("initialWindowSize must be 0..2^31-1: " + initialWindowSize);
        }
        if (maxFrameSize < MIN_MAX_FRAME_SIZE || maxFrameSize > MAX_MAX_FRAME_SIZE) {
            throw new IllegalArgumentException("maxFrameSize must be 16384..16777215: " + maxFrameSize);
        }
    }

    /**
     * Checks one received parameter (section 6.5.2); the frame reader calls this for every known identifier, so a
     * {@link SettingsFrame} from the reader is always valid. Unknown identifiers are fine: they are ignored.
     */
    public static void validate(int id, long value) throws Http2Exception {
        switch (id) {
            case ENABLE_PUSH -> {
                if (value != 0 && value != 1) {
                    throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR,
                            "SETTINGS_ENABLE_PUSH must be 0 or 1, got " + value);
                }
            }
            case INITIAL_WINDOW_SIZE -> {
                if (value > MAX_WINDOW_SIZE) {
                    throw Http2Exception.connectionError(Http2ErrorCode.FLOW_CONTROL_ERROR,
                            "SETTINGS_INITIAL_WINDOW_SIZE above 2^31-1: " + value);
                }
            }
            case MAX_FRAME_SIZE -> {
                if (value < MIN_MAX_FRAME_SIZE || value > MAX_MAX_FRAME_SIZE) {
                    throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR,
                            "SETTINGS_MAX_FRAME_SIZE outside 16384..16777215: " + value);
                }
            }
            default -> {
            }
        }
    }

    /** True for the six identifiers above. */
    public static boolean isKnown(int id) {
        return id >= HEADER_TABLE_SIZE && id <= MAX_HEADER_LIST_SIZE;
    }

    /**
     * These settings with one parameter changed; an unknown identifier changes nothing.
     *
     * @throws IllegalArgumentException if the value is out of the parameter's range
     */
    public Http2Settings with(int id, long value) {
        return switch (id) {
            case HEADER_TABLE_SIZE -> new Http2Settings(value, enablePush, maxConcurrentStreams, initialWindowSize,
                    maxFrameSize, maxHeaderListSize);
            case ENABLE_PUSH -> {
                if (value != 0 && value != 1) {
                    throw new IllegalArgumentException("enablePush must be 0 or 1: " + value);
                }
                yield new Http2Settings(headerTableSize, value == 1, maxConcurrentStreams, initialWindowSize,
                        maxFrameSize, maxHeaderListSize);
            }
            case MAX_CONCURRENT_STREAMS -> new Http2Settings(headerTableSize, enablePush, value, initialWindowSize,
                    maxFrameSize, maxHeaderListSize);
            case INITIAL_WINDOW_SIZE -> new Http2Settings(headerTableSize, enablePush, maxConcurrentStreams,
                    toInt("initialWindowSize", value), maxFrameSize, maxHeaderListSize);
            case MAX_FRAME_SIZE -> new Http2Settings(headerTableSize, enablePush, maxConcurrentStreams,
                    initialWindowSize, toInt("maxFrameSize", value), maxHeaderListSize);
            case MAX_HEADER_LIST_SIZE -> new Http2Settings(headerTableSize, enablePush, maxConcurrentStreams,
                    initialWindowSize, maxFrameSize, value);
            default -> this;
        };
    }

    /** Applies a received SETTINGS frame, parameter by parameter in order; an ACK changes nothing. */
    public Http2Settings apply(SettingsFrame frame) throws Http2Exception {
        Http2Settings result = this;
        for (SettingsFrame.Setting setting : frame.settings()) {
            validate(setting.id(), setting.value());
            result = result.with(setting.id(), setting.value());
        }
        return result;
    }

    /** The value of one parameter as it would be sent; {@link #UNLIMITED} goes out as 2^32-1. */
    public long value(int id) {
        long value = switch (id) {
            case HEADER_TABLE_SIZE -> headerTableSize;
            case ENABLE_PUSH -> enablePush ? 1 : 0;
            case MAX_CONCURRENT_STREAMS -> maxConcurrentStreams;
            case INITIAL_WINDOW_SIZE -> initialWindowSize;
            case MAX_FRAME_SIZE -> maxFrameSize;
            case MAX_HEADER_LIST_SIZE -> maxHeaderListSize;
            default -> throw new IllegalArgumentException("unknown setting id " + id);
        };
        return Math.min(value, MAX_UINT32);
    }

    /**
     * The parameters whose values differ from {@code previous}, in identifier order: what a SETTINGS frame must carry
     * to move the peer's view from {@code previous} to this. A connection's first SETTINGS is
     * {@code ours.changesFrom(Http2Settings.DEFAULTS)}.
     */
    public List<SettingsFrame.Setting> changesFrom(Http2Settings previous) {
        List<SettingsFrame.Setting> changes = new ArrayList<>(6);
        for (int id = HEADER_TABLE_SIZE; id <= MAX_HEADER_LIST_SIZE; id++) {
            if (value(id) != previous.value(id)) {
                changes.add(new SettingsFrame.Setting(id, value(id)));
            }
        }
        return changes;
    }

    private static void requireUint32(String name, long value, boolean unlimitedAllowed) {
        if (value < 0 || (value > MAX_UINT32 && !(unlimitedAllowed && value == UNLIMITED))) {
            throw new IllegalArgumentException(name + " must be 0..2^32-1: " + value);
        }
    }

    private static int toInt(String name, long value) {
        if (value < 0 || value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(name + " out of range: " + value);
        }
        return (int) value;
    }
}
