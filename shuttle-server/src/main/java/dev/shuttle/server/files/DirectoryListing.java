package dev.shuttle.server.files;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The HTML page listing a directory, as Go's file server writes it: one link per entry, directories with a trailing
 * slash. Names are escaped twice over: percent-encoded in the link (a name is a path segment), HTML-escaped in the
 * text, so a file named {@code <script>} or {@code a"onmouseover=...} is only text. Stateless.
 */
final class DirectoryListing {
    private DirectoryListing() {
    }

    static byte[] render(List<FileEntry> entries) {
        StringBuilder html = new StringBuilder(256 + entries.size() * 64);
        html.append("<!doctype html>\n<meta name=\"viewport\" content=\"width=device-width\">\n<pre>\n");
        for (FileEntry entry : entries) {
            String name = entry.isDirectory() ? entry.name() + "/" : entry.name();
            html.append("<a href=\"").append(escapeHtml(encodeSegment(entry.name())))
                    .append(entry.isDirectory() ? "/" : "").append("\">").append(escapeHtml(name)).append("</a>\n");
        }
        html.append("</pre>\n");
        return html.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Percent-encodes everything but RFC 3986 unreserved characters, so the link is one relative path segment. */
    static String encodeSegment(String name) {
        StringBuilder out = new StringBuilder(name.length() + 8);
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
                    || c == '_' || c == '~') {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }

    static String escapeHtml(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&#34;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
