package dev.shuttle.client.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** What the tests' child servers (nginx, squid) share: a free port, waiting until one listens, stopping it whole. */
public final class ChildProcesses {
    private ChildProcesses() {
    }

    /** A port free on 127.0.0.1 right now (a child may lose it to another process before binding: retry then). */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Polls {@code port} until {@code process} accepts on it; fails with its log when it exited or never listened. */
    public static void awaitListening(String name, Process process, int port, Duration timeout, Supplier<String> log)
            throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException(name + " exited with " + process.exitValue() + ": " + log.get());
            }
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
                return;
            } catch (IOException notYet) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for " + name, e);
                }
            }
        }
        throw new IOException(name + " did not listen on 127.0.0.1:" + port + " within " + timeout + ": "
                + log.get());
    }

    /** Stops {@code process} (SIGTERM, then SIGKILL after 5 s), then kills what it started and left behind. */
    public static void stop(Process process) {
        List<ProcessHandle> children = process.descendants().toList(); // before the parent goes and they re-parent
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        for (ProcessHandle child : children) {
            if (child.isAlive()) {
                child.destroyForcibly();
            }
        }
    }
}
