package dev.shuttle.wire.http2;

import java.io.ByteArrayOutputStream;

/** One stream of {@link CoreReceiver}, as both sides keep it, with the models the core is checked against. */
final class CoreStream {
    final int id;
    StreamState state = StreamState.IDLE;
    final ReceiveWindows.Stream receive;
    /** The receive window we granted it: our initial window, or the default before the peer acknowledged ours. */
    final int granted;
    final SendWindows.Stream send;
    final ReceivedBody body = new ReceivedBody();
    boolean headSeen;
    boolean reset;
    boolean resetByPeer;
    /** The application is done with it: the server's handler returned, the client's body was closed. */
    boolean appDone;
    /** Model: the send window. */
    long sendWindow;
    /** Model: every body octet appended, and how many of them were taken. */
    final ByteArrayOutputStream arrived = new ByteArrayOutputStream();
    int taken;

    CoreStream(int id, ReceiveWindows.Stream receive, int granted, SendWindows.Stream send, long sendWindow) {
        this.id = id;
        this.receive = receive;
        this.granted = granted;
        this.send = send;
        this.sendWindow = sendWindow;
    }

    boolean remoteEnded() {
        return !state.canReceive() && state != StreamState.IDLE;
    }
}
