package dev.shuttle.server.core;

/**
 * Text from the network, made fit for a log line. A client chooses its request target, its header values and so the
 * codec's error messages that quote them: logged as they are, they could forge log lines (CR, LF), drive a terminal
 * (escape sequences) or fill the disk (8 KiB targets on every request). So such text goes to the log escaped and cut
 * to an excerpt, never verbatim.
 */
public final class LogText {
    /** Characters of client text kept in one log line: enough to recognise a request, too few to matter. */
    public static final int MAX_EXCERPT = 64;

    private LogText() {
    }

    /**
     * Printable ASCII kept, every other character as {@code \xNN} or {@code \\uNNNN}; at most {@link #MAX_EXCERPT}
     * characters of {@code text}, then how many more there were.
     */
    public static String excerpt(String text) {
        if (text == null) {
            return "null";
        }
        int end = Math.min(text.length(), MAX_EXCERPT);
        StringBuilder out = new StringBuilder(end + 24);
        for (int i = 0; i < end; i++) {
            char c = text.charAt(i);
            if (c >= 0x20 && c < 0x7f && c != '\\') {
                out.append(c);
            } else if (c == '\\') {
                out.append("\\\\");
            } else if (c <= 0xff) {
                out.append(String.format("\\x%02x", (int) c));
            } else {
                out.append(String.format("\\u%04x", (int) c));
            }
        }
        if (text.length() > end) {
            out.append("...(").append(text.length() - end).append(" more)");
        }
        return out.toString();
    }
}
