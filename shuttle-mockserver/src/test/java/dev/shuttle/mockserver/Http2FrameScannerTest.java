package dev.shuttle.mockserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class Http2FrameScannerTest {
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final List<String> goAways = new ArrayList<>();

    private Http2FrameScanner scanner(Http2FrameScanner.Side side) {
        return new Http2FrameScanner(side, (last, code, debug) -> goAways.add(last + "/" + code + "/" + debug));
    }

    @Test
    void findsTheServersGoAwayAmongItsFramesFedWhole() {
        byte[] bytes = serverBytes();
        Http2FrameScanner scanner = scanner(Http2FrameScanner.Side.SERVER);
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        scanner.feed(buffer);
        assertThat(buffer.position()).as("the caller's position is left alone").isZero();
        assertThat(goAways).containsExactly("7/11/too many control frames");
        assertThat(scanner.isHttp1()).isFalse();
    }

    @Test
    void findsTheSameFedOneByteAtATime() {
        byte[] bytes = serverBytes();
        Http2FrameScanner scanner = scanner(Http2FrameScanner.Side.SERVER);
        for (byte b : bytes) {
            scanner.feed(ByteBuffer.wrap(new byte[] {b}));
        }
        assertThat(goAways).containsExactly("7/11/too many control frames");
    }

    @Test
    void readsFramesAfterAnUpgradesSwitchingProtocolsHead() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(serverBytes());
        Http2FrameScanner scanner = scanner(Http2FrameScanner.Side.SERVER);
        scanner.feed(ByteBuffer.wrap(out.toByteArray()));
        assertThat(goAways).containsExactly("7/11/too many control frames");
    }

    @Test
    void stopsLookingAtAnHttp1Response() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("HTTP/1.1 200 OK\r\nContent-Length: 17\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(goAway(1, 0, "")); // body bytes that happen to look like a frame
        Http2FrameScanner scanner = scanner(Http2FrameScanner.Side.SERVER);
        scanner.feed(ByteBuffer.wrap(out.toByteArray()));
        assertThat(scanner.isHttp1()).isTrue();
        assertThat(goAways).isEmpty();
    }

    @Test
    void findsTheClientsGoAwayAfterThePreface() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(PREFACE);
        out.writeBytes(frame(0x4, 0, 0, new byte[0]));
        out.writeBytes(frame(0x8, 0, 0, new byte[] {0, 0, 0, 9})); // WINDOW_UPDATE
        out.writeBytes(goAway(0, 0, "bye"));
        Http2FrameScanner scanner = scanner(Http2FrameScanner.Side.CLIENT);
        byte[] bytes = out.toByteArray();
        scanner.feed(ByteBuffer.wrap(bytes, 0, 30));
        scanner.feed(ByteBuffer.wrap(bytes, 30, bytes.length - 30));
        assertThat(goAways).containsExactly("0/0/bye");
    }

    @Test
    void stopsLookingAtAnHttp1Request() {
        Http2FrameScanner scanner = scanner(Http2FrameScanner.Side.CLIENT);
        scanner.feed(ByteBuffer.wrap("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
        assertThat(scanner.isHttp1()).isTrue();
    }

    @Test
    void keepsOnlyTheStartOfALongDebugText() {
        Http2FrameScanner scanner = scanner(Http2FrameScanner.Side.SERVER);
        scanner.feed(ByteBuffer.wrap(goAway(3, 1, "x".repeat(1000))));
        scanner.feed(ByteBuffer.wrap(goAway(5, 0, "")));
        assertThat(goAways).containsExactly("3/1/" + "x".repeat(Http2FrameScanner.MAX_DEBUG_BYTES), "5/0/");
    }

    /** SETTINGS, its ACK, HEADERS and DATA of stream 1, a PING, and a GOAWAY ENHANCE_YOUR_CALM. */
    private static byte[] serverBytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(frame(0x4, 0, 0, new byte[] {0, 3, 0, 0, 0, 100}));
        out.writeBytes(frame(0x4, 1, 0, new byte[0]));
        out.writeBytes(frame(0x1, 4, 1, new byte[] {(byte) 0x88}));
        out.writeBytes(frame(0x0, 1, 1, new byte[20_000]));
        out.writeBytes(frame(0x6, 0, 0, new byte[8]));
        out.writeBytes(goAway(7, 11, "too many control frames"));
        return out.toByteArray();
    }

    private static byte[] goAway(int lastStreamId, int code, String debug) {
        byte[] text = debug.getBytes(StandardCharsets.UTF_8);
        ByteBuffer payload = ByteBuffer.allocate(8 + text.length).putInt(lastStreamId).putInt(code).put(text);
        return frame(0x7, 0, 0, payload.array());
    }

    private static byte[] frame(int type, int flags, int streamId, byte[] payload) {
        ByteBuffer frame = ByteBuffer.allocate(9 + payload.length);
        frame.put((byte) (payload.length >>> 16)).put((byte) (payload.length >>> 8)).put((byte) payload.length);
        frame.put((byte) type).put((byte) flags).putInt(streamId).put(payload);
        return frame.array();
    }
}
