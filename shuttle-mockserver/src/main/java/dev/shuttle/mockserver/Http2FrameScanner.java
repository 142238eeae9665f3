package dev.shuttle.mockserver;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Finds the GOAWAY frames in one direction of a connection's plaintext, fed in pieces as they pass, without
 * decoding more than a frame's header (and a GOAWAY's payload). It works out by itself whether the direction speaks
 * HTTP/2: the client's side from the connection preface, the server's side from its first bytes (a SETTINGS frame,
 * or {@code HTTP/1.1 101} before the frames of an upgraded connection); anything else is HTTP/1.1, and the scanner
 * stops looking. Frames are not checked: the server's own codec does that, and a frame it would reject is still one
 * the peer sent.
 *
 * <p>Not thread-safe: one direction's bytes come in order from one thread at a time, and the caller orders them.
 */
final class Http2FrameScanner {
    /** A GOAWAY's debug data kept for the report; the rest is skipped. */
    static final int MAX_DEBUG_BYTES = 256;
    private static final int FRAME_HEADER = 9;
    private static final int GOAWAY = 0x7;
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SWITCHING = "HTTP/1.1 101".getBytes(StandardCharsets.US_ASCII);

    /** Told of each GOAWAY once its payload (up to {@link #MAX_DEBUG_BYTES} of debug data) has passed. */
    @FunctionalInterface
    interface GoAwayListener {
        void goAway(int lastStreamId, int errorCode, String debugData);
    }

    /** Which side's bytes this scanner reads. */
    enum Side { CLIENT, SERVER }

    private enum Mode {
        /** The first bytes, until they tell HTTP/2 from HTTP/1.1. */
        DETECT,
        /** The rest of an HTTP/1.1 101 head, up to its blank line; frames follow. */
        SKIP_HEAD,
        FRAME_HEADER,
        PAYLOAD,
        /** HTTP/1.1: nothing more to find. */
        OFF
    }

    private final Side side;
    private final GoAwayListener listener;
    private Mode mode = Mode.DETECT;
    private final byte[] start = new byte[PREFACE.length]; // DETECT: the first bytes
    private int startLength;
    private int headTail; // SKIP_HEAD: the last four bytes seen, for CRLF CRLF
    private final byte[] header = new byte[FRAME_HEADER];
    private int headerLength;
    private int payloadLeft; // PAYLOAD: bytes of the current frame still to pass
    private ByteBuffer goAway; // PAYLOAD of a GOAWAY: what is kept of it, else null

    Http2FrameScanner(Side side, GoAwayListener listener) {
        this.side = side;
        this.listener = listener;
    }

    /** Whether this direction turned out to be HTTP/1.1 (until then, and for HTTP/2, false). */
    boolean isHttp1() {
        return mode == Mode.OFF;
    }

    /** Scans {@code bytes}' remaining bytes; their position is left alone. */
    void feed(ByteBuffer bytes) {
        ByteBuffer in = bytes.duplicate();
        while (in.hasRemaining() && mode != Mode.OFF) {
            switch (mode) {
                case DETECT -> detect(in);
                case SKIP_HEAD -> skipHead(in);
                case FRAME_HEADER -> frameHeader(in);
                case PAYLOAD -> payload(in);
                case OFF -> {
                }
            }
        }
    }

    private void detect(ByteBuffer in) {
        start[startLength++] = in.get();
        if (side == Side.CLIENT) {
            if (start[startLength - 1] != PREFACE[startLength - 1]) {
                mode = Mode.OFF;
            } else if (startLength == PREFACE.length) {
                mode = Mode.FRAME_HEADER;
            }
        } else if (start[0] != 'H') {
            // a server's first HTTP/2 frame is SETTINGS, whose length's first byte is 0: these are frame bytes
            System.arraycopy(start, 0, header, 0, startLength);
            headerLength = startLength;
            mode = Mode.FRAME_HEADER;
        } else if (start[startLength - 1] != SWITCHING[startLength - 1]) {
            mode = Mode.OFF;
        } else if (startLength == SWITCHING.length) {
            mode = Mode.SKIP_HEAD;
        }
    }

    private void skipHead(ByteBuffer in) {
        while (in.hasRemaining()) {
            headTail = (headTail << 8) | (in.get() & 0xff);
            if (headTail == 0x0d0a0d0a) {
                mode = Mode.FRAME_HEADER;
                return;
            }
        }
    }

    private void frameHeader(ByteBuffer in) {
        int n = Math.min(in.remaining(), FRAME_HEADER - headerLength);
        in.get(header, headerLength, n);
        headerLength += n;
        if (headerLength < FRAME_HEADER) {
            return;
        }
        headerLength = 0;
        payloadLeft = (header[0] & 0xff) << 16 | (header[1] & 0xff) << 8 | (header[2] & 0xff);
        goAway = (header[3] & 0xff) == GOAWAY ? ByteBuffer.allocate(Math.min(payloadLeft, 8 + MAX_DEBUG_BYTES)) : null;
        mode = Mode.PAYLOAD;
        if (payloadLeft == 0) {
            endPayload();
        }
    }

    private void payload(ByteBuffer in) {
        int n = Math.min(in.remaining(), payloadLeft);
        if (goAway != null && goAway.hasRemaining()) {
            ByteBuffer kept = in.slice(in.position(), Math.min(n, goAway.remaining()));
            goAway.put(kept);
        }
        in.position(in.position() + n);
        payloadLeft -= n;
        if (payloadLeft == 0) {
            endPayload();
        }
    }

    private void endPayload() {
        mode = Mode.FRAME_HEADER;
        if (goAway == null) {
            return;
        }
        goAway.flip();
        if (goAway.remaining() >= 8) {
            int lastStreamId = goAway.getInt() & 0x7fff_ffff;
            int errorCode = goAway.getInt();
            listener.goAway(lastStreamId, errorCode, StandardCharsets.UTF_8.decode(goAway).toString());
        } else {
            listener.goAway(-1, -1, "(a GOAWAY of " + goAway.remaining() + " bytes: malformed)");
        }
        goAway = null;
    }
}
