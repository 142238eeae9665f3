package dev.shuttle.wire.http2;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shuttle.wire.Headers;
import dev.shuttle.wire.hpack.HpackDecoder;
import dev.shuttle.wire.hpack.HpackEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A client and a server made of nothing but the codec, talking through one buffer the way the architecture notes
 * sketch it: preface, SETTINGS both ways, a request whose field block is split over CONTINUATIONs, a body in DATA
 * frames within the flow-control window, WINDOW_UPDATEs from the server's policy, and a response.
 */
class Http2CodecConversationTest {

    @Test
    void clientRequestAndServerResponseGoThroughTheWholeCodec() throws Exception {
        Http2Limits limits = Http2Limits.serverDefaults();
        Http2Settings serverSettings = limits.announceIn(Http2Settings.DEFAULTS).with(Http2Settings.ENABLE_PUSH, 0);
        ByteBuffer toServer = ByteBuffer.allocate(256 * 1024);
        ByteBuffer toClient = ByteBuffer.allocate(64 * 1024);

        // Client: preface, empty SETTINGS, HEADERS with a 30 000-octet cookie (so CONTINUATION), then a 100 KB body.
        Http2Preface.write(toServer);
        Http2FrameWriter.write(toServer, SettingsFrame.of(List.of()));
        HpackEncoder clientEncoder = new HpackEncoder();
        Headers requestHeaders = Headers.of("Content-Type", "application/octet-stream", "Cookie",
                "big=" + "c".repeat(30_000));
        List<String> fields = Http2Fields.request(new Http2RequestHead("POST", "https", "api.example", "/upload",
                requestHeaders));
        ByteBuffer block = ByteBuffer.allocate(HpackEncoder.maxEncodedLength(fields));
        clientEncoder.encode(fields, block);
        Http2FrameWriter.writeHeaderBlock(toServer, 1, block.flip(), false, 16_384);
        byte[] body = "0123456789".repeat(10_000).getBytes(StandardCharsets.US_ASCII);
        Http2Window clientStreamWindow = new Http2Window(1, Http2Settings.DEFAULT_INITIAL_WINDOW_SIZE);
        Http2Window clientConnectionWindow = new Http2Window(0, Http2Settings.DEFAULT_INITIAL_WINDOW_SIZE);
        int sent = sendData(toServer, body, 0, clientStreamWindow, clientConnectionWindow);

        // Server: preface, then frames; the field block is joined, decoded and checked; DATA is counted against
        // the receive windows and consumed at once, which produces WINDOW_UPDATEs.
        toServer.flip();
        assertThat(Http2Preface.read(toServer)).isEqualTo(Http2Preface.Match.COMPLETE);
        Http2FrameReader reader = new Http2FrameReader(limits.maxFrameSize());
        HeaderBlockAssembler blocks = new HeaderBlockAssembler(limits);
        HpackDecoder decoder = new HpackDecoder(1 << 20, limits.headerTableSize());
        Http2Window streamWindow = new Http2Window(1, Http2Settings.DEFAULT_INITIAL_WINDOW_SIZE);
        Http2Window connectionWindow = new Http2Window(0, Http2Settings.DEFAULT_INITIAL_WINDOW_SIZE);
        WindowUpdatePolicy streamPolicy = new WindowUpdatePolicy(Http2Settings.DEFAULT_INITIAL_WINDOW_SIZE);
        WindowUpdatePolicy connectionPolicy = new WindowUpdatePolicy(Http2Settings.DEFAULT_INITIAL_WINDOW_SIZE);
        Http2FrameWriter.write(toClient, SettingsFrame.of(serverSettings.changesFrom(Http2Settings.DEFAULTS)));
        Http2RequestHead request = null;
        ByteBuffer received = ByteBuffer.allocate(body.length);
        boolean ended = false;
        int continuations = 0;
        for (Http2Frame read; (read = reader.read(toServer)) != null; ) {
            continuations += read instanceof ContinuationFrame ? 1 : 0;
            Http2Frame frame = blocks.accept(read);
            switch (frame) {
                case null -> { }
                case SettingsFrame settings when !settings.ack() -> Http2FrameWriter.write(toClient, SettingsFrame.ACK);
                case HeadersFrame headers -> {
                    Http2FieldCollector collector = Http2FieldCollector.forRequest(headers.streamId());
                    assertThat(decoder.decode(headers.fragment(), collector::field)).isTrue();
                    request = collector.request();
                }
                case DataFrame data -> {
                    streamWindow.receive(data.flowControlledLength());
                    connectionWindow.receive(data.flowControlledLength());
                    received.put(data.data());
                    ended = data.endStream();
                    grant(toClient, 1, streamPolicy.consumed(data.flowControlledLength()), streamWindow);
                    grant(toClient, 0, connectionPolicy.consumed(data.flowControlledLength()), connectionWindow);
                }
                default -> throw new AssertionError("unexpected " + frame);
            }
        }
        HpackEncoder serverEncoder = new HpackEncoder();
        List<String> response = Http2Fields.response(new Http2ResponseHead(201, Headers.of("Location", "/u/1")));
        ByteBuffer responseBlock = ByteBuffer.allocate(HpackEncoder.maxEncodedLength(response));
        serverEncoder.encode(response, responseBlock);
        Http2FrameWriter.writeHeaderBlock(toClient, 1, responseBlock.flip(), true, 16_384);

        // Client: SETTINGS, ACK, WINDOW_UPDATEs that let it send the rest, and the response.
        toClient.flip();
        Http2FrameReader clientReader = new Http2FrameReader();
        HpackDecoder clientDecoder = new HpackDecoder(Http2Limits.clientDefaults());
        Http2Settings peer = Http2Settings.DEFAULTS;
        List<String> seen = new ArrayList<>();
        Http2ResponseHead head = null;
        for (Http2Frame frame; (frame = clientReader.read(toClient)) != null; ) {
            switch (frame) {
                case SettingsFrame settings -> {
                    peer = peer.apply(settings);
                    seen.add(settings.ack() ? "ack" : "settings");
                }
                case WindowUpdateFrame update -> {
                    (update.streamId() == 0 ? clientConnectionWindow : clientStreamWindow).increase(update.increment());
                    seen.add("window " + update.streamId());
                }
                case HeadersFrame headers -> {
                    Http2FieldCollector collector = Http2FieldCollector.forResponse(1);
                    assertThat(clientDecoder.decode(headers.fragment(), collector::field)).isTrue();
                    head = collector.response();
                }
                default -> throw new AssertionError("unexpected " + frame);
            }
        }

        assertThat(request).isEqualTo(new Http2RequestHead("POST", "https", "api.example", "/upload",
                Headers.of("content-type", "application/octet-stream", "cookie", "big=" + "c".repeat(30_000))));
        assertThat(continuations).isEqualTo(1);
        assertThat(sent).as("the first window's worth").isEqualTo(65_535);
        assertThat(received.position()).isEqualTo(sent);
        assertThat(ended).isFalse();
        assertThat(clientConnectionWindow.available()).as("updates reopened the window").isGreaterThan(30_000);
        assertThat(seen).startsWith("settings", "ack").contains("window 0", "window 1");
        assertThat(peer.enablePush()).isFalse();
        assertThat(peer.maxHeaderListSize()).isEqualTo(16 * 1024);
        assertThat(head).isEqualTo(new Http2ResponseHead(201, Headers.of("location", "/u/1")));
    }

    /** Sends DATA frames of up to 16 KiB while both windows allow; returns the octets sent. */
    private static int sendData(ByteBuffer out, byte[] body, int offset, Http2Window stream, Http2Window connection) {
        int at = offset;
        while (at < body.length) {
            int length = Math.min(Math.min(16_384, body.length - at),
                    Math.min(stream.available(), connection.available()));
            if (length == 0) {
                break;
            }
            stream.consume(length);
            connection.consume(length);
            Http2FrameWriter.write(out, new DataFrame(1, ByteBuffer.wrap(body, at, length), at + length == body.length));
            at += length;
        }
        return at - offset;
    }

    private static void grant(ByteBuffer out, int streamId, int increment, Http2Window window) throws Http2Exception {
        if (increment > 0) {
            window.increase(increment);
            Http2FrameWriter.write(out, new WindowUpdateFrame(streamId, increment));
        }
    }
}
