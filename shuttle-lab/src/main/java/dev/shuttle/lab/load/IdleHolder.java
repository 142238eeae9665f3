package dev.shuttle.lab.load;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Holds idle connections for {@code lab idle}, driven by lines on stdin:
 * <ul>
 *   <li>{@code open N}: opens N more connections, one request each, then leaves them idle; answers
 *       {@code held TOTAL failed F}, followed by the first error when some failed;</li>
 *   <li>{@code status}: answers {@code open X closed Y}, Y counting connections the server closed;</li>
 *   <li>end of input: closes everything and exits.</li>
 * </ul>
 * Each held connection has a virtual thread blocked in a read, so PINGs are answered and a close by the server is
 * seen at once (over TLS the thread is blocked in an {@code SSLSocket} read).
 */
final class IdleHolder {
    private final Dialer dialer;
    private final PrintStream out;
    /** Touched only by the command loop's thread. */
    private final List<LabConnection> held = new ArrayList<>();
    private final AtomicInteger closedByServer = new AtomicInteger();

    IdleHolder(Dialer dialer, PrintStream out) {
        this.dialer = dialer;
        this.out = out;
    }

    void run() throws IOException, InterruptedException {
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        try {
            String line;
            while ((line = commands.readLine()) != null) {
                String[] words = line.trim().split("\\s+");
                switch (words[0]) {
                    case "open" -> open(Integer.parseInt(words[1]));
                    case "status" -> say("open " + (held.size() - closedByServer.get()) + " closed "
                            + closedByServer.get());
                    case "" -> {
                    }
                    default -> say("error unknown command " + words[0]);
                }
            }
        } finally {
            for (LabConnection connection : held) {
                connection.close();
            }
        }
    }

    private void open(int count) throws InterruptedException {
        Dialer.Dialed dialed = dialer.openAll(count);
        for (LabConnection connection : dialed.connections()) {
            held.add(connection);
            Thread.ofVirtual().name("hold").start(() -> {
                try {
                    connection.holdIdle();
                } catch (IOException e) {
                    // closed by us at the end, or failed: either way it is no longer held
                }
                closedByServer.incrementAndGet();
            });
        }
        say("held " + held.size() + " failed " + dialed.failed()
                + (dialed.firstError() == null ? "" : " first error: " + dialed.firstError()));
    }

    private void say(String line) {
        out.println(line);
        out.flush();
    }
}
