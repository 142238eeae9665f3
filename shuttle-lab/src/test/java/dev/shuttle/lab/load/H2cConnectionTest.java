package dev.shuttle.lab.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class H2cConnectionTest {
    @Test
    void requestIsGetSlashWithStaticIndicesAndALiteralAuthority() {
        byte[] block = H2cConnection.requestBlock("127.0.0.1:8080");
        assertThat(block).startsWith((byte) 0x82, (byte) 0x86, (byte) 0x84, (byte) 0x01, (byte) 14);
        assertThat(new String(block, 5, 14, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("127.0.0.1:8080");
    }

    @Test
    void frameHeaderCarriesLengthTypeFlagsAndStream() {
        byte[] frame = H2cConnection.frame(0x1, 0x5, 3, new byte[] {1, 2, 3});
        assertThat(frame).containsExactly(0, 0, 3, 1, 5, 0, 0, 0, 3, 1, 2, 3);
    }

    @Test
    void statusIsReadFromAnIndexedFirstFieldAfterPaddingPriorityAndTableSizeUpdates() {
        assertThat(H2cConnection.status(new byte[] {(byte) 0x88, 0x5f}, 0x4)).isEqualTo(200);
        assertThat(H2cConnection.status(new byte[] {(byte) 0x8d}, 0x4)).isEqualTo(404);
        // PADDED: pad length 2, then the block, then 2 bytes of padding
        assertThat(H2cConnection.status(new byte[] {2, (byte) 0x8e, 0, 0}, 0x8 | 0x4)).isEqualTo(500);
        // PRIORITY: 5 bytes of dependency and weight first
        assertThat(H2cConnection.status(new byte[] {0, 0, 0, 0, 16, (byte) 0x88}, 0x20 | 0x4)).isEqualTo(200);
        // dynamic table size update to 0 (0x20), then :status 200
        assertThat(H2cConnection.status(new byte[] {0x20, (byte) 0x88}, 0x4)).isEqualTo(200);
        // a literal :status the lab does not decode
        assertThat(H2cConnection.status(new byte[] {0x48, 3, '2', '0', '0'}, 0x4)).isZero();
    }
}
