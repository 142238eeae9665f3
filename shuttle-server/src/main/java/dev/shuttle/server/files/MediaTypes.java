package dev.shuttle.server.files;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Content-Type by file extension: the types browsers and Go's {@code mime} package agree on, text types with
 * {@code charset=utf-8}; anything else is {@code application/octet-stream} (never guessed from the content, so a file
 * cannot make itself HTML). Immutable after construction.
 */
final class MediaTypes {
    static final String DEFAULT = "application/octet-stream";

    private static final Map<String, String> BUILT_IN = Map.ofEntries(
            Map.entry("html", "text/html; charset=utf-8"),
            Map.entry("htm", "text/html; charset=utf-8"),
            Map.entry("css", "text/css; charset=utf-8"),
            Map.entry("js", "text/javascript; charset=utf-8"),
            Map.entry("mjs", "text/javascript; charset=utf-8"),
            Map.entry("json", "application/json"),
            Map.entry("map", "application/json"),
            Map.entry("txt", "text/plain; charset=utf-8"),
            Map.entry("md", "text/markdown; charset=utf-8"),
            Map.entry("csv", "text/csv; charset=utf-8"),
            Map.entry("xml", "text/xml; charset=utf-8"),
            Map.entry("svg", "image/svg+xml"),
            Map.entry("png", "image/png"),
            Map.entry("jpg", "image/jpeg"),
            Map.entry("jpeg", "image/jpeg"),
            Map.entry("gif", "image/gif"),
            Map.entry("webp", "image/webp"),
            Map.entry("avif", "image/avif"),
            Map.entry("ico", "image/vnd.microsoft.icon"),
            Map.entry("wasm", "application/wasm"),
            Map.entry("pdf", "application/pdf"),
            Map.entry("zip", "application/zip"),
            Map.entry("gz", "application/gzip"),
            Map.entry("woff", "font/woff"),
            Map.entry("woff2", "font/woff2"),
            Map.entry("ttf", "font/ttf"),
            Map.entry("otf", "font/otf"),
            Map.entry("mp3", "audio/mpeg"),
            Map.entry("ogg", "audio/ogg"),
            Map.entry("wav", "audio/wav"),
            Map.entry("mp4", "video/mp4"),
            Map.entry("webm", "video/webm"),
            Map.entry("webmanifest", "application/manifest+json"));

    private final Map<String, String> types;

    MediaTypes(Map<String, String> extra) {
        Map<String, String> all = new HashMap<>(BUILT_IN);
        extra.forEach((extension, type) -> all.put(extension.toLowerCase(Locale.ROOT), type));
        this.types = Map.copyOf(all);
    }

    /** The type of a file named {@code name}, by its last extension. */
    String of(String name) {
        int dot = name.lastIndexOf('.');
        if (dot < 0 || dot == name.length() - 1) {
            return DEFAULT;
        }
        return types.getOrDefault(name.substring(dot + 1).toLowerCase(Locale.ROOT), DEFAULT);
    }
}
