package dev.shuttle.wire.http2;

import java.util.List;

/**
 * SETTINGS (RFC 9113 section 6.5). Always on stream 0.
 *
 * <p>The parameters stay in the order they came, repeats included, because the receiver applies them in order and
 * HPACK must see every SETTINGS_HEADER_TABLE_SIZE value, not just the last (RFC 7541 section 4.2). Parameters with
 * identifiers this codec does not know are dropped by the reader, as the RFC says they must be ignored. Apply a frame
 * with {@link Http2Settings#apply(SettingsFrame)}.
 *
 * @param ack      the ACK flag; an ACK carries no parameters
 * @param settings the parameters, in wire order
 */
public record SettingsFrame(boolean ack, List<Setting> settings) implements Http2Frame {
    /** The acknowledgement of a peer's SETTINGS. */
    public static final SettingsFrame ACK = new SettingsFrame(true, List.of());
    /** Size of one parameter on the wire. */
    public static final int SETTING_LENGTH = 6;

    public SettingsFrame {
        settings = List.copyOf(settings);
        if (ack && !settings.isEmpty()) {
            throw new IllegalArgumentException("a SETTINGS ACK carries no parameters");
        }
    }

    /** A SETTINGS frame (not an ACK) with these parameters. */
    public static SettingsFrame of(List<Setting> settings) {
        return new SettingsFrame(false, settings);
    }

    @Override
    public int type() {
        return TYPE_SETTINGS;
    }

    @Override
    public int streamId() {
        return 0;
    }

    /**
     * One parameter.
     *
     * @param id    16-bit identifier; see the constants in {@link Http2Settings}
     * @param value 32-bit unsigned value
     */
    public record Setting(int id, long value) {
        public Setting {
            if (id < 0 || id > 0xffff) {
                throw new IllegalArgumentException("setting id must fit 16 bits: " + id);
            }
            if (value < 0 || value > 0xffff_ffffL) {
                throw new IllegalArgumentException("setting value must fit 32 bits unsigned: " + value);
            }
        }
    }
}
