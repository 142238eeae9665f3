package dev.shuttle.wire.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.wire.hpack.HpackDecoder;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A minimal HTTP/2 receiver on the wire state core, server or client, applying frames as the two sides'
 * {@code FrameReceiver}s and {@code Http2Streams} do, with models of the send windows and of every body to check the
 * core against ({@link Http2StreamCoreFuzzTest}). Not the real connections: no writer, no handler threads, no abuse
 * budgets; what they would send is dropped, what they would wait for is an {@link #act application action}.
 */
final class CoreReceiver {
    /** Our windows, chosen by the setup octet: small ones reach every overrun; at most 64 KiB of buffered bodies. */
    private static final int[] STREAM_WINDOWS = {100, 1_000, 16_384, 65_535};
    private static final int[] CONNECTION_WINDOWS = {1_000, 16_384, 65_535, 65_535};
    /**
     * Streams open at once (the server's MAX_CONCURRENT_STREAMS, the client's own limit): with 64 KiB of bodies, at
     * most 16 + 2 per stream of the pool's 64 chunks are out, so no chunk is ever made or dropped by the pool.
     */
    private static final int MAX_STREAMS = 8;

    final Http2FrameReader reader = new Http2FrameReader();
    private final HeaderBlockAssembler blocks = new HeaderBlockAssembler(4_096, 4);
    private final HpackDecoder decoder = new HpackDecoder(4_096, 4_096);
    private final boolean server;
    private final int streamWindow;
    private final int connectionWindow;
    private final ChunkPool pool;
    private final StreamTable<CoreStream> table = new StreamTable<>();
    private final PeerStreamIds peerIds = new PeerStreamIds();
    private final OwnStreamIds ownIds = new OwnStreamIds(true);
    private final ReceiveWindows receiveWindows;
    private final SendWindows sendWindows = new SendWindows();
    /** Streams the application still holds (removed from the table or not), oldest first. */
    private final List<CoreStream> held = new ArrayList<>();
    private Http2Settings peer = Http2Settings.DEFAULTS;
    private boolean prefaceSeen;
    /** The peer acknowledged our SETTINGS: new streams get exactly {@link #streamWindow}. */
    private boolean settingsAcknowledged;
    /** Model: the connection send window. */
    private long connectionSendWindow = Http2Settings.DEFAULT_INITIAL_WINDOW_SIZE;
    /** Octets that counted against the connection receive window, and those credited back by WINDOW_UPDATE. */
    private long arrived;
    private long credited;

    /** @param setup bit 0: a server (else a client); bits 1-2: our stream window; bits 3-4: our connection window */
    CoreReceiver(byte setup, ChunkPool pool) {
        this.server = (setup & 1) != 0;
        this.streamWindow = STREAM_WINDOWS[(setup >> 1) & 3];
        this.connectionWindow = CONNECTION_WINDOWS[(setup >> 3) & 3];
        this.pool = pool;
        this.receiveWindows = new ReceiveWindows(connectionWindow, streamWindow);
    }

    // ---- frames from the peer ----

    void receive(Http2Frame read) throws Http2Exception {
        Http2Frame frame = blocks.accept(read);
        if (frame == null) {
            return;
        }
        if (!server && !prefaceSeen) {
            if (!(frame instanceof SettingsFrame settings) || settings.ack()) {
                throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR, "first frame not SETTINGS");
            }
            prefaceSeen = true;
        }
        try {
            switch (frame) {
                case DataFrame data -> data(data);
                case HeadersFrame headers -> {
                    if (server) {
                        requestHeaders(headers);
                    } else {
                        responseHeaders(headers);
                    }
                }
                case SettingsFrame settings -> settings(settings);
                case WindowUpdateFrame update -> windowUpdate(update);
                case RstStreamFrame reset -> peerReset(reset);
                case PushPromiseFrame push -> throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR,
                        "PUSH_PROMISE");
                default -> {
                    // PING, GOAWAY, PRIORITY, unknown types: nothing for the state core
                }
            }
        } catch (Http2Exception e) {
            if (e.isConnectionError()) {
                throw e;
            }
            streamError(e);
            return;
        }
        credited += receiveWindows.takeConnectionUpdate();
    }

    /** A stream error: we reset the stream (its unread body is dropped and its credit goes back). */
    void streamError(Http2Exception e) {
        assertThat(e.isConnectionError()).isFalse();
        CoreStream stream = table.get(e.streamId());
        if (stream != null) {
            reset(stream, false);
        }
        credited += receiveWindows.takeConnectionUpdate();
    }

    /** As the server's {@code Http2Streams.dataReceived} and the client's {@code FrameReceiver.onData}. */
    private void data(DataFrame frame) throws Http2Exception {
        int id = frame.streamId();
        CoreStream stream = table.get(id);
        if (stream == null && !opened(id)) {
            throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR, "DATA on idle stream " + id);
        }
        boolean readable = stream != null && !stream.reset && stream.headSeen && !stream.remoteEnded();
        int payload = frame.data().remaining();
        int paddingCredit;
        try {
            paddingCredit = receiveWindows.receive(readable ? stream.receive : null, frame.flowControlledLength(),
                    payload);
        } catch (Http2Exception e) {
            if (!e.isConnectionError()) {
                arrived += frame.flowControlledLength();
            }
            throw e;
        }
        arrived += frame.flowControlledLength();
        assertThat(paddingCredit).isBetween(0, readable ? stream.granted : 0);
        if (!readable) {
            if (stream == null ? !server || peerIds.wasResetByUs(id) : stream.reset && !stream.resetByPeer) {
                return;
            }
            throw Http2Exception.streamError(id, Http2ErrorCode.STREAM_CLOSED, "DATA on a stream that takes none");
        }
        if (payload > 0) {
            ByteBuffer data = frame.data();
            try {
                stream.body.append(id, data.array(), data.arrayOffset() + data.position(), payload, pool);
            } finally {
                stream.arrived.write(data.array(), data.arrayOffset() + data.position(), payload);
            }
            assertThat(stream.body.declaredLength() < 0 || stream.body.received() <= stream.body.declaredLength())
                    .as("a body past its content-length is refused").isTrue();
        }
        if (frame.endStream()) {
            remoteEnd(stream);
        }
    }

    /** As the server's {@code StreamAdmission}: a new request stream, or trailers. */
    private void requestHeaders(HeadersFrame frame) throws Http2Exception {
        int id = frame.streamId();
        if (id % 2 == 0) {
            throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR, "even stream id from a client");
        }
        boolean idle = peerIds.isIdle(id);
        Http2FieldCollector fields = idle ? Http2FieldCollector.forRequest(id) : Http2FieldCollector.forTrailers(id);
        boolean fits = decoder.decode(frame.fragment(), fields::field);
        if (idle) {
            if (table.size() >= MAX_STREAMS) {
                peerIds.opened(id);
                peerIds.resetByUs(id); // refused
                return;
            }
            CoreStream stream = open(id);
            peerIds.opened(id);
            stream.state = stream.state.receivedHeaders(false);
            stream.headSeen = true;
            if (!fits) {
                done(stream); // answered 431 without reading the body
                return;
            }
            Http2RequestHead head = fields.request();
            long declared = ReceivedBody.parseDeclaredLength(id, head.headers().first("content-length"));
            if (frame.endStream() && declared > 0) {
                throw Http2Exception.streamError(id, Http2ErrorCode.PROTOCOL_ERROR, "content-length, no body");
            }
            stream.body.declaredLength(frame.endStream() ? 0 : declared);
            if (frame.endStream()) {
                remoteEnd(stream);
            }
            return;
        }
        CoreStream stream = table.get(id);
        if (stream == null && peerIds.wasResetByUs(id)) {
            return;
        }
        if (stream == null || stream.state == StreamState.CLOSED && !stream.reset) {
            throw Http2Exception.connectionError(peerIds.wasSkipped(id) ? Http2ErrorCode.PROTOCOL_ERROR
                    : Http2ErrorCode.STREAM_CLOSED, "HEADERS on closed stream " + id);
        }
        trailers(stream, frame, fields, fits);
    }

    /** As the client's {@code FrameReceiver.onHeaders}: a response head (interim or final), or trailers. */
    private void responseHeaders(HeadersFrame frame) throws Http2Exception {
        int id = frame.streamId();
        CoreStream stream = table.get(id);
        if (stream == null && !opened(id)) {
            throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR, "HEADERS on an unopened stream");
        }
        boolean trailers = stream != null && stream.headSeen;
        Http2FieldCollector fields = trailers ? Http2FieldCollector.forTrailers(id)
                : Http2FieldCollector.forResponse(id);
        boolean fits = decoder.decode(frame.fragment(), fields::field);
        if (stream == null || stream.state == StreamState.CLOSED) {
            return;
        }
        if (trailers) {
            trailers(stream, frame, fields, fits);
            return;
        }
        if (!fits) {
            throw Http2Exception.streamError(id, Http2ErrorCode.CANCEL, "response head too large");
        }
        Http2ResponseHead head = fields.response();
        if (head.isInterim()) {
            if (frame.endStream()) {
                throw Http2Exception.streamError(id, Http2ErrorCode.PROTOCOL_ERROR, "interim head ends the stream");
            }
            return;
        }
        stream.headSeen = true;
        stream.body.declaredLength(head.status() == 204 || head.status() == 304 ? -1
                : ReceivedBody.parseDeclaredLength(id, head.headers().first("content-length")));
        if (frame.endStream()) {
            remoteEnd(stream);
        }
    }

    private void trailers(CoreStream stream, HeadersFrame frame, Http2FieldCollector fields, boolean fits)
            throws Http2Exception {
        if (stream.reset || stream.remoteEnded()) {
            if (stream.reset && !stream.resetByPeer) {
                return;
            }
            throw Http2Exception.streamError(stream.id, Http2ErrorCode.STREAM_CLOSED, "HEADERS after the end");
        }
        if (!frame.endStream() || !fits) {
            throw Http2Exception.streamError(stream.id, Http2ErrorCode.PROTOCOL_ERROR, "bad trailers");
        }
        fields.trailers();
        remoteEnd(stream);
    }

    /** END_STREAM arrived: the declared length is checked, the state moves, a stream done on both ends leaves. */
    private void remoteEnd(CoreStream stream) throws Http2Exception {
        stream.body.end(stream.id);
        assertThat(stream.body.declaredLength() < 0 || stream.body.received() == stream.body.declaredLength())
                .as("an ended body matches its content-length").isTrue();
        stream.state = stream.state.receivedEndStream();
        if (!server && stream.state.canSend()) {
            stream.state = StreamState.CLOSED; // the response is complete: stop sending the request (RFC 9113 8.1)
        }
        removeIfDone(stream);
    }

    private void settings(SettingsFrame frame) throws Http2Exception {
        if (frame.ack()) {
            receiveWindows.settingsAcknowledged();
            settingsAcknowledged = true;
            return;
        }
        Http2Settings before = peer;
        Http2Settings after = before.apply(frame);
        if (!server && frame.settings().stream()
                .anyMatch(setting -> setting.id() == Http2Settings.ENABLE_PUSH && setting.value() != 0)) {
            throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR, "a server must not enable push");
        }
        peer = after;
        if (after.initialWindowSize() == before.initialWindowSize()) {
            return;
        }
        long delta = after.initialWindowSize() - before.initialWindowSize();
        boolean overflows = table.snapshot().stream().anyMatch(s -> s.sendWindow + delta > Http2Window.MAX_SIZE);
        List<SendWindows.Stream> windows = new ArrayList<>();
        table.forEach(s -> windows.add(s.send));
        try {
            sendWindows.initialWindowSize(after.initialWindowSize(), windows);
        } catch (Http2Exception e) {
            assertThat(overflows).as("only an overflow fails a SETTINGS change: " + e).isTrue();
            assertThat(e.isConnectionError()).isTrue();
            throw e;
        }
        assertThat(overflows).as("an overflow fails the SETTINGS change").isFalse();
        table.forEach(s -> s.sendWindow += delta);
    }

    private void windowUpdate(WindowUpdateFrame frame) throws Http2Exception {
        int id = frame.streamId();
        CoreStream stream = id == 0 ? null : table.get(id);
        if (id != 0 && stream == null) {
            if (!opened(id)) {
                throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR, "WINDOW_UPDATE on idle " + id);
            }
            return;
        }
        long before = stream == null ? connectionSendWindow : stream.sendWindow;
        boolean overflows = before + frame.increment() > Http2Window.MAX_SIZE;
        try {
            sendWindows.update(stream == null ? null : stream.send, frame.increment());
        } catch (Http2Exception e) {
            assertThat(overflows).as("only an overflow fails an update: " + e).isTrue();
            assertThat(e.isConnectionError()).isEqualTo(stream == null);
            throw e;
        }
        assertThat(overflows).as("an update past 2^31-1 fails").isFalse();
        if (stream == null) {
            connectionSendWindow += frame.increment();
        } else {
            stream.sendWindow += frame.increment();
        }
    }

    private void peerReset(RstStreamFrame frame) throws Http2Exception {
        int id = frame.streamId();
        if (!opened(id)) {
            throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR, "RST_STREAM on idle " + id);
        }
        CoreStream stream = table.get(id);
        if (stream != null) {
            reset(stream, true);
        }
    }

    /** Whether the peer may name {@code id}: one it opened (server), one of ours that left (client). */
    private boolean opened(int id) {
        return server ? !peerIds.isIdle(id) : ownIds.wasOpened(id);
    }

    /** RST_STREAM either way: the unread body is dropped and its credit goes back to the connection. */
    private void reset(CoreStream stream, boolean byPeer) {
        if (stream.reset || stream.state == StreamState.CLOSED) {
            return;
        }
        stream.reset = true;
        stream.resetByPeer = byPeer;
        stream.state = stream.state.reset();
        drop(stream);
        removeIfDone(stream);
    }

    private void drop(CoreStream stream) {
        long dropped = stream.body.discard(pool);
        stream.taken += (int) dropped;
        receiveWindows.connectionConsumed(dropped);
        assertThat(stream.body.buffered()).isZero();
    }

    /** The server keeps a stream until its handler returns; the client forgets it once closed. */
    private void removeIfDone(CoreStream stream) {
        if (stream.state == StreamState.CLOSED && (stream.appDone || !server) && table.remove(stream.id)
                && stream.reset && !stream.resetByPeer) {
            peerIds.resetByUs(stream.id);
        }
    }

    private CoreStream open(int id) {
        // Before our SETTINGS are acknowledged the peer may still assume the default window (RFC 9113 6.9.2).
        int granted = settingsAcknowledged ? streamWindow
                : Math.max(streamWindow, Http2Settings.DEFAULT_INITIAL_WINDOW_SIZE);
        CoreStream stream = new CoreStream(id, receiveWindows.open(id), granted, sendWindows.open(id),
                peer.initialWindowSize());
        table.put(id, stream);
        held.add(stream);
        return stream;
    }

    // ---- the application ----

    /**
     * 4: read up to {@code (b+1)*32} octets of held stream {@code a}; 5: the application is done with it (the handler
     * returned, the body was closed); 6: the client opens a stream ({@code a} odd; END_STREAM with it when {@code b}
     * is odd) or ends held stream {@code b} from our side; 7: takes send credit for {@code (b+1)*64} octets on held
     * stream {@code a}, refunded if the stream closed meanwhile.
     */
    void act(int op, int a, int b) throws Http2Exception {
        if (op == 6 && !server && (a & 1) != 0) {
            if (held.size() < MAX_STREAMS && !ownIds.exhausted()) { // held: closed streams' bodies hold chunks too
                CoreStream stream = open(ownIds.next());
                stream.state = stream.state.sentHeaders((b & 1) != 0);
            }
            return;
        }
        if (held.isEmpty()) {
            return;
        }
        CoreStream stream = held.get((op == 6 ? b : a) % held.size());
        switch (op) {
            case 4 -> read(stream, (b + 1) * 32);
            case 5 -> done(stream);
            case 6 -> {
                if (stream.state.canSend()) {
                    stream.state = stream.state.sentEndStream();
                    removeIfDone(stream);
                }
            }
            default -> send(stream, (b + 1) * 64);
        }
        credited += receiveWindows.takeConnectionUpdate();
    }

    private void read(CoreStream stream, int len) {
        byte[] into = new byte[len];
        int n = stream.body.take(into, 0, len, pool);
        byte[] expected = Arrays.copyOfRange(stream.arrived.toByteArray(), stream.taken, stream.taken + n);
        assertThat(Arrays.copyOf(into, n)).as("a body reads back what arrived").isEqualTo(expected);
        stream.taken += n;
        if (!stream.remoteEnded() && !stream.reset) {
            assertThat(receiveWindows.streamConsumed(stream.receive, n)).isBetween(0, stream.granted);
        }
        receiveWindows.connectionConsumed(n);
    }

    private void done(CoreStream stream) {
        held.remove(stream);
        stream.appDone = true;
        drop(stream);
        if (stream.state != StreamState.CLOSED && (!server || !stream.remoteEnded())) {
            reset(stream, false); // the rest of the body is not wanted
        }
        removeIfDone(stream);
    }

    private void send(CoreStream stream, int wanted) {
        if (stream.state == StreamState.IDLE) {
            return;
        }
        int maxFrame = peer.maxFrameSize();
        int granted = sendWindows.take(stream.send, wanted, maxFrame);
        long expected = Math.min(Math.min(wanted, maxFrame), Math.min(Math.max(0, stream.sendWindow),
                Math.max(0, connectionSendWindow)));
        assertThat(granted).as("grant: the least of both windows, the frame and the wish").isEqualTo(expected);
        if (!stream.state.canSend()) {
            sendWindows.refund(stream.send, granted); // closed while the frame waited: never sent
            return;
        }
        stream.sendWindow -= granted;
        connectionSendWindow -= granted;
    }

    // ---- invariants ----

    /** After every step: the windows as modelled, no body beyond its window. */
    void checkStep() {
        assertThat(sendWindows.connectionAvailable()).isEqualTo(Math.max(0, connectionSendWindow));
        assertThat(connectionSendWindow).isLessThanOrEqualTo(Http2Window.MAX_SIZE);
        long buffered = 0;
        for (CoreStream stream : held) {
            assertThat(stream.body.buffered()).as("unread body within the window we granted")
                    .isLessThanOrEqualTo(stream.granted);
            buffered += stream.body.buffered();
        }
        assertThat(buffered).as("unread bodies within the connection window").isLessThanOrEqualTo(connectionWindow);
        table.forEach(stream -> {
            assertThat((long) stream.send.size()).isEqualTo(stream.sendWindow);
            assertThat(stream.sendWindow).isLessThanOrEqualTo(Http2Window.MAX_SIZE);
        });
    }

    /** The connection ends: every stream's unread body is dropped, as both sides do. */
    void dropAll() {
        for (CoreStream stream : table.snapshot()) {
            drop(stream);
        }
        for (CoreStream stream : held) {
            drop(stream);
        }
        table.clear();
        held.clear();
        credited += receiveWindows.takeConnectionUpdate();
    }

    /**
     * Every octet that counted against the connection receive window came back exactly once: what waits below half a
     * window plus what was credited is all that arrived. A probe then consumes a whole window more, which makes the
     * policy hand out all it holds, and the window must be exactly twice its size: one DATA frame of that size fits,
     * one octet more does not.
     */
    void checkConnectionCreditWhole() {
        assertThat(arrived - credited).as("credit waiting below half a window").isBetween(0L,
                (long) connectionWindow / 2);
        receiveWindows.connectionConsumed(connectionWindow);
        assertThat(credited + receiveWindows.takeConnectionUpdate() - connectionWindow).as("all credit back, once")
                .isEqualTo(arrived);
        int whole = 2 * connectionWindow;
        assertThatThrownBy(() -> receiveWindows.receive(null, whole + 1, 0)).isInstanceOf(Http2Exception.class);
        try {
            receiveWindows.receive(null, whole, 0);
        } catch (Http2Exception e) {
            throw new AssertionError("the connection window is not whole again", e);
        }
    }
}
