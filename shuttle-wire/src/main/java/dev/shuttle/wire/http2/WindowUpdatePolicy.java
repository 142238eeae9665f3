package dev.shuttle.wire.http2;

/**
 * Receive side: decides when to send a WINDOW_UPDATE and for how much. One per receive window (each stream's and
 * the connection's); same threading as its {@link Http2Window}.
 *
 * <p>Rule: count the octets the application has consumed (read, or discarded, padding included) since the last
 * update, and once they reach half of the target window, send them all as one increment. The peer then always has
 * at least half a window in hand while our update travels, and a 16 KiB DATA frame costs no more than one small
 * WINDOW_UPDATE per half window.
 *
 * <p>Others: Jetty ({@code BufferingFlowControlStrategy(0.5)}), Netty ({@code DefaultHttp2LocalFlowController},
 * window update ratio 0.5) and OkHttp ({@code unacknowledgedBytesRead >= initialWindowSize / 2}) do the same. Go's
 * x/net/http2 sends once 4 KiB are pending or the update would at least double what the peer has left, which sends
 * more, smaller updates on large windows. Half the window is chosen here for fewer frames on the busy path and
 * because it is what most peers already expect.
 *
 * <p>Usage: on DATA, {@code window.receive(frame.flowControlledLength())} on both the stream and the connection
 * window; when the application takes {@code n} octets, {@code int inc = policy.consumed(n)} and, if {@code inc > 0},
 * {@code window.increase(inc)} and send {@code WINDOW_UPDATE(inc)}. A stream whose END_STREAM has arrived needs no
 * updates; its consumption still counts for the connection.
 */
public final class WindowUpdatePolicy {
    /** The window size we want the peer to see: our SETTINGS_INITIAL_WINDOW_SIZE, or the connection window. */
    private int targetWindow;
    /** Octets consumed since the last update was handed out. */
    private int unacknowledged;

    public WindowUpdatePolicy(int targetWindow) {
        targetWindow(targetWindow);
    }

    /** Changes the target, e.g. after our new SETTINGS_INITIAL_WINDOW_SIZE was acknowledged. */
    public void targetWindow(int targetWindow) {
        if (targetWindow < 0) {
            throw new IllegalArgumentException("target window must be 0..2^31-1: " + targetWindow);
        }
        this.targetWindow = targetWindow;
    }

    /**
     * Records that the application consumed {@code length} octets.
     *
     * @return the increment to send now (and to add to the receive window), or 0 to wait
     */
    public int consumed(int length) {
        if (length < 0) {
            throw new IllegalArgumentException("negative length " + length);
        }
        unacknowledged = (int) Math.min(Http2Window.MAX_SIZE, (long) unacknowledged + length);
        if (unacknowledged == 0 || unacknowledged < targetWindow / 2) {
            return 0;
        }
        int increment = unacknowledged;
        unacknowledged = 0;
        return increment;
    }

    /** Octets consumed but not yet handed out as an update. */
    public int pending() {
        return unacknowledged;
    }
}
