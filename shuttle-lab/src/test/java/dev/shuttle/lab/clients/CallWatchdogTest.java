package dev.shuttle.lab.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shuttle.lab.VirtualThreads;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class CallWatchdogTest {

    /** A client that ignores its own timeouts: it blocks until interrupted. */
    private static final class StuckClient implements LabClient {
        private final ServerSocket silent;

        StuckClient(ServerSocket silent) {
            this.silent = silent;
        }

        @Override
        public ClientKind kind() {
            return ClientKind.JDK;
        }

        @Override
        public CallResult call(URI uri, BodyUse use) throws IOException {
            try (java.net.Socket socket = new java.net.Socket(InetAddress.getLoopbackAddress(),
                    silent.getLocalPort())) {
                socket.getInputStream().read(); // the server never writes
                return new CallResult(200, 0);
            }
        }

        @Override
        public void close() {
        }
    }

    @Test
    void stopsACallThatNeverEndsAndLeavesNoStaleInterrupt() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
             CallWatchdog watchdog = new CallWatchdog(Duration.ofMillis(200))) {
            StuckClient stuck = new StuckClient(silent);
            URI uri = URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/");
            boolean interruptedAfter = VirtualThreads.call(() -> {
                assertThatThrownBy(() -> watchdog.call(stuck, uri, BodyUse.CLOSE_UNREAD))
                        .isInstanceOf(CallWatchdog.CallTimedOutException.class)
                        .hasMessageContaining("watchdog");
                return Thread.currentThread().isInterrupted();
            });
            assertThat(interruptedAfter).isFalse();
        }
    }
}
