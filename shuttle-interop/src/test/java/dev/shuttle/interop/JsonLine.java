package dev.shuttle.interop;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one JSON line the test's own client programs print ({@code early_close.py}, {@code goclient/main.go}): flat,
 * with numbers and one optional string, so a pattern reads it.
 */
final class JsonLine {
    private final String line;

    JsonLine(String output) {
        this.line = output.lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("no JSON line in: " + output));
    }

    long number(String key) {
        Matcher m = Pattern.compile("\"" + key + "\":\\s*(-?\\d+)").matcher(line);
        if (!m.find()) {
            throw new AssertionError("no " + key + " in " + line);
        }
        return Long.parseLong(m.group(1));
    }

    /** The string value of {@code key}, escapes left as they are; null when absent or null. */
    String text(String key) {
        Matcher m = Pattern.compile("\"" + key + "\":\\s*\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(line);
        return m.find() ? m.group(1) : null;
    }

    /** requests, failures and firstFailure as a {@link ClientRun}, with what else the line says appended. */
    ClientRun toRun() {
        String first = text("firstFailure");
        return new ClientRun((int) number("requests"), (int) number("failures"),
                first == null ? null : first + " (" + line + ")");
    }

    @Override
    public String toString() {
        return line;
    }
}
