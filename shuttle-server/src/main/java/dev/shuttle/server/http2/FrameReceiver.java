package dev.shuttle.server.http2;

import dev.shuttle.wire.http2.DataFrame;
import dev.shuttle.wire.http2.GoAwayFrame;
import dev.shuttle.wire.http2.HeadersFrame;
import dev.shuttle.wire.http2.Http2ErrorCode;
import dev.shuttle.wire.http2.Http2Exception;
import dev.shuttle.wire.http2.Http2Frame;
import dev.shuttle.wire.http2.Http2Settings;
import dev.shuttle.wire.http2.PingFrame;
import dev.shuttle.wire.http2.PriorityFrame;
import dev.shuttle.wire.http2.PushPromiseFrame;
import dev.shuttle.wire.http2.RstStreamFrame;
import dev.shuttle.wire.http2.SettingsFrame;
import dev.shuttle.wire.http2.WindowUpdateFrame;
import java.io.IOException;
import java.util.function.LongSupplier;

/**
 * What each frame from the client does to the connection: HEADERS to {@link StreamAdmission}, DATA to the streams'
 * flow control and bodies, SETTINGS and PING answered, WINDOW_UPDATE, RST_STREAM and GOAWAY applied, PRIORITY and
 * unknown types ignored; the abuse budgets charged where a frame costs work for nothing ({@link AbuseBudgets}). A stream
 * error resets that stream; a connection error is thrown. Runs on the connection's reading thread.
 */
final class FrameReceiver {
    private final Http2Streams streams;
    private final Http2Writer writer;
    private final StreamSender sender;
    private final StreamAdmission admission;
    private final Goodbye goodbye;
    private final AbuseBudgets budgets;
    private final LongSupplier clock;
    /** The client's settings so far. Reader only. */
    private Http2Settings peerSettings = Http2Settings.DEFAULTS;

    FrameReceiver(Http2Streams streams, Http2Writer writer, StreamSender sender, StreamAdmission admission,
                  Goodbye goodbye, AbuseBudgets budgets, LongSupplier clock) {
        this.streams = streams;
        this.writer = writer;
        this.sender = sender;
        this.admission = admission;
        this.goodbye = goodbye;
        this.budgets = budgets;
        this.clock = clock;
    }

    /** The client's settings arrived another way (the HTTP2-Settings header of an h2c upgrade). */
    void peerSettings(Http2Settings settings) {
        this.peerSettings = settings;
    }

    /** One whole frame; {@code read} numbers the read that brought it (a reset in that same read is a rapid one). */
    void receive(Http2Frame frame, long read) throws IOException {
        switch (frame) {
            case DataFrame data -> data(data);
            case HeadersFrame headers -> admission.headers(headers, read);
            case SettingsFrame settings -> settings(settings);
            case PingFrame ping -> {
                if (ping.ack()) {
                    goodbye.pingAcknowledged(ping.opaqueData());
                } else {
                    if (!writer.takeResponseActivity()) {
                        budgets.controlFrame(clock.getAsLong()); // a PING beside responses checks on them: free
                    }
                    writer.frame(new PingFrame(ping.opaqueData(), true));
                }
            }
            case WindowUpdateFrame update -> {
                if (!streams.windowUpdate(update.streamId(), update.increment())) {
                    budgets.controlFrame(clock.getAsLong()); // grows a window past what we sent: rare, or a flood
                }
            }
            case RstStreamFrame reset -> reset(reset, read);
            case GoAwayFrame goAway -> {
                goodbye.clientGoAway();
                goodbye.lingerIfDone();
            }
            case PushPromiseFrame push -> throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR,
                    "a client must not send PUSH_PROMISE");
            case PriorityFrame priority -> {
                // parsed and checked by the frame reader; ignored, as RFC 9113 deprecates the scheme, but not free
                budgets.controlFrame(clock.getAsLong());
            }
            default -> {
                // unknown frame types (and extensions) are ignored
            }
        }
    }

    private void settings(SettingsFrame frame) throws IOException {
        if (frame.ack()) {
            streams.settingsAcknowledged();
            return;
        }
        budgets.controlFrame(clock.getAsLong());
        Http2Settings previous = peerSettings;
        Http2Settings next = previous.apply(frame);
        peerSettings = next;
        writer.acknowledgeSettings(next, () -> {
            if (next.initialWindowSize() != previous.initialWindowSize()) {
                streams.peerInitialWindow(next.initialWindowSize());
            }
        });
    }

    private void data(DataFrame frame) throws IOException {
        int streamId = frame.streamId();
        if (!frame.endStream() && frame.data().remaining() == 0) {
            budgets.controlFrame(clock.getAsLong()); // carries nothing, ends nothing (CVE-2019-9518)
        }
        int paddingCredit;
        try {
            paddingCredit = streams.dataReceived(streamId, frame.data(), frame.flowControlledLength(),
                    frame.endStream());
        } catch (Http2Exception e) {
            if (e.isConnectionError()) {
                throw e;
            }
            budgets.provokedReset(clock.getAsLong()); // a reset the client's frame made us send (MadeYouReset)
            sender.reset(streamId, e.error());
            return;
        }
        sender.sendWindowUpdates(streamId, paddingCredit, streams.takeConnectionUpdate());
    }

    private void reset(RstStreamFrame reset, long read) throws IOException {
        if (streams.isIdle(reset.streamId())) {
            throw Http2Exception.connectionError(Http2ErrorCode.PROTOCOL_ERROR,
                    "RST_STREAM on idle stream " + reset.streamId());
        }
        // A client cancels what it no longer wants: free, unless the reset came in the very read that opened the
        // stream (the rapid-reset pattern, CVE-2023-44487: no client waits for nothing). Either way its handler keeps
        // its slot until it returns, which is what bounds the work (HandlerSlots).
        Http2Stream target = streams.get(reset.streamId());
        if (target != null && target.openedInRead == read) {
            budgets.rapidReset(clock.getAsLong());
        }
        streams.reset(reset.streamId(), reset.error(), true);
        sender.sendConnectionUpdate();
    }
}
