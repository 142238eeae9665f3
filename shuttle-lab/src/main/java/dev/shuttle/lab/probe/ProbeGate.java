package dev.shuttle.lab.probe;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The CI gate of {@code shuttle probe --min-reuse R --max-handshakes N}: every client probed must meet every bound
 * given. Reuse and correctness stay separate gates (seed 004): this one looks only at connections.
 *
 * <p>Exit codes, distinct so a build script can tell them apart:
 * <ul>
 *   <li>{@value #PASS}: every client met the bounds (or none were given and some client completed a call);</li>
 *   <li>{@value #UNREACHABLE}: no client completed a single call (refused, unknown host, TLS failure, timeouts);</li>
 *   <li>{@value #USAGE}: bad arguments (picocli's own usage errors are 2 as well);</li>
 *   <li>{@value #BELOW_BOUND}: a client's reuse fell below {@code --min-reuse}, or its handshakes exceeded
 *       {@code --max-handshakes};</li>
 *   <li>{@value #UNKNOWN}: a bound was given but a client cannot count its connections (the JDK client has no hook),
 *       or completed no call while others did, so the gate cannot be judged.</li>
 * </ul>
 */
public final class ProbeGate {
    public static final int PASS = 0;
    public static final int UNREACHABLE = 1;
    public static final int USAGE = 2;
    public static final int BELOW_BOUND = 3;
    public static final int UNKNOWN = 4;

    /** The exit code and the one line that says why. */
    public record Verdict(int exitCode, String reason) {
    }

    private ProbeGate() {
    }

    /**
     * Judges {@code result}; {@code minReuse} and {@code maxHandshakes} null when not given. Over https every new
     * connection costs one TLS handshake (full or resumed), so handshakes are the connections opened; over http, 0.
     */
    public static Verdict judge(ProbeResult result, Double minReuse, Integer maxHandshakes) {
        boolean tls = "https".equalsIgnoreCase(result.uri().getScheme());
        if (result.rows().stream().allMatch(r -> r.completed() == 0)) {
            String why = result.rows().stream().filter(r -> r.error() != null).map(ProbeResult.Row::error)
                    .findFirst().orElse("no call completed");
            return new Verdict(UNREACHABLE, "unreachable: " + result.uri() + ": " + oneLine(why));
        }
        if (minReuse == null && maxHandshakes == null) {
            return new Verdict(PASS, "no bound given");
        }
        List<String> failures = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (ProbeResult.Row row : result.rows()) {
            String client = row.client().cliName();
            if (row.completed() == 0) {
                unknown.add(client + " completed no call" + (row.error() == null ? "" : " (" + oneLine(row.error())
                        + ")"));
                continue;
            }
            if (row.connectionsOpened() < 0) {
                unknown.add(client + " cannot count its connections");
                continue;
            }
            if (minReuse != null && row.reuseRatio() < minReuse) {
                failures.add(String.format(Locale.ROOT, "%s reuse %.2f < %.2f (%d new connections for %d requests)",
                        client, row.reuseRatio(), minReuse, row.connectionsOpened(), row.completed()));
            }
            long handshakes = tls ? row.connectionsOpened() : 0;
            if (maxHandshakes != null && handshakes > maxHandshakes) {
                failures.add(client + " " + handshakes + " TLS handshakes > " + maxHandshakes);
            }
        }
        if (!failures.isEmpty()) {
            return new Verdict(BELOW_BOUND, "FAIL: " + String.join("; ", failures));
        }
        if (!unknown.isEmpty()) {
            return new Verdict(UNKNOWN, "cannot judge: " + String.join("; ", unknown));
        }
        StringBuilder bounds = new StringBuilder();
        if (minReuse != null) {
            bounds.append(String.format(Locale.ROOT, "reuse >= %.2f", minReuse));
        }
        if (maxHandshakes != null) {
            bounds.append(bounds.isEmpty() ? "" : ", ").append("TLS handshakes <= ").append(maxHandshakes);
        }
        return new Verdict(PASS, "pass: " + bounds + " for " + result.rows().size() + " client"
                + (result.rows().size() == 1 ? "" : "s"));
    }

    private static String oneLine(String text) {
        String line = text.strip();
        int newline = line.indexOf('\n');
        return newline < 0 ? line : line.substring(0, newline);
    }
}
