package dev.shuttle.lab.reuse;

import dev.shuttle.lab.clients.BodyUse;
import dev.shuttle.lab.clients.ClientKind;
import dev.shuttle.lab.clients.Feature;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The rows of {@code lab reuse}: the cases of seeds 000, 003 and 004, each a fixture path and what the caller does
 * with the body. Slow cases (a body that takes 100 ms or more to arrive) default to fewer requests, as the seeds
 * ran them, so the whole default run stays short.
 */
public enum ReuseCase {
    CL_1K("cl-1k", "Content-Length 1 KiB", "/bytes?n=1024", BodyUse.CLOSE_UNREAD, false),
    CL_2K("cl-2k", "Content-Length 2 KiB", "/bytes?n=2048", BodyUse.CLOSE_UNREAD, false),
    CL_64K("cl-64k", "Content-Length 64 KiB", "/bytes?n=65536", BodyUse.CLOSE_UNREAD, false),
    CL_200K("cl-200k", "Content-Length 200 KiB", "/bytes?n=204800", BodyUse.CLOSE_UNREAD, false),
    CL_256K_MINUS_1("cl-256k-1", "Content-Length 256 KiB - 1", "/bytes?n=262143", BodyUse.CLOSE_UNREAD, false),
    CL_256K_PLUS_1("cl-256k+1", "Content-Length 256 KiB + 1", "/bytes?n=262145", BodyUse.CLOSE_UNREAD, false),
    CL_1M("cl-1m", "Content-Length 1 MiB", "/bytes?n=1048576", BodyUse.CLOSE_UNREAD, false),
    CHUNKED_1K("chunked-1k", "chunked 1 KiB", "/chunked?n=1024", BodyUse.CLOSE_UNREAD, false),
    CHUNKED_2K("chunked-2k", "chunked 2 KiB", "/chunked?n=2048", BodyUse.CLOSE_UNREAD, false),
    CHUNKED_64K("chunked-64k", "chunked 64 KiB", "/chunked?n=65536", BodyUse.CLOSE_UNREAD, false),
    CHUNKED_200K("chunked-200k", "chunked 200 KiB", "/chunked?n=204800", BodyUse.CLOSE_UNREAD, false),
    CHUNKED_256K_MINUS_1("chunked-256k-1", "chunked 256 KiB - 1", "/chunked?n=262143", BodyUse.CLOSE_UNREAD,
            false),
    CHUNKED_256K_PLUS_1("chunked-256k+1", "chunked 256 KiB + 1", "/chunked?n=262145", BodyUse.CLOSE_UNREAD,
            false),
    CHUNKED_1M("chunked-1m", "chunked 1 MiB", "/chunked?n=1048576", BodyUse.CLOSE_UNREAD, false),
    PAUSE_10MS("pause-10ms", "2 KiB, 10 ms pause mid-body", "/pause?ms=10&n=2048", BodyUse.CLOSE_UNREAD, false),
    TAIL_100MS("tail-100ms", "2 KiB, tail 100 ms late", "/tail?ms=100&n=2048", BodyUse.CLOSE_UNREAD, true),
    CONNECTION_CLOSE("close", "Connection: close, 1 KiB", "/close?n=1024", BodyUse.CLOSE_UNREAD, false),
    JSON_CL("json-cl", "JSON {\"a\":1}\\n, Content-Length", "/json", BodyUse.JSON_DECODE, false),
    JSON_CHUNKED("json-chunked", "JSON {\"a\":1}\\n, chunked", "/json-chunked", BodyUse.JSON_DECODE, false),
    JSON_LATE_END("json-late-end", "JSON chunked, end marker 5 ms late", "/json-late-end?ms=5",
            BodyUse.JSON_DECODE, false),
    THROTTLED("throttle", "200 KB at 10 Mbit/s", "/throttle?n=200000&bps=10000000", BodyUse.CLOSE_UNREAD, true),
    READ_TO_EOF("eof-control", "2 KiB read to EOF (control)", "/bytes?n=2048", BodyUse.READ_TO_EOF, false),
    // What a real user hits: each an everyday feature, and a place where connections get wasted.
    REDIRECT_CHAIN("redirect-5", "5 redirects, 2 KiB bodies, then 2 KiB", "/redirect?hops=5&n=2048",
            BodyUse.CLOSE_UNREAD, false, Feature.REDIRECTS),
    GZIP_UNREAD("gzip-256k", "gzip, 256 KiB text, closed unread", "/gzip?n=262144", BodyUse.CLOSE_UNREAD, false,
            Feature.GZIP),
    PROXIED("proxied-2k", "2 KiB through squid", "/bytes?n=2048", BodyUse.CLOSE_UNREAD, false, Feature.PROXY),
    CANCEL_MID_BODY("cancel-mid-body", "64 KiB, call cancelled after 1 KiB", "/midway?n=65536&ms=20",
            BodyUse.CANCEL_MID_BODY, false, Feature.CANCEL);

    private final String id;
    private final String label;
    private final String pathAndQuery;
    private final BodyUse bodyUse;
    private final boolean slow;
    /** What the case needs from a client beyond plain GETs; null: nothing. */
    private final Feature feature;

    ReuseCase(String id, String label, String pathAndQuery, BodyUse bodyUse, boolean slow) {
        this(id, label, pathAndQuery, bodyUse, slow, null);
    }

    ReuseCase(String id, String label, String pathAndQuery, BodyUse bodyUse, boolean slow, Feature feature) {
        this.id = id;
        this.label = label;
        this.pathAndQuery = pathAndQuery;
        this.bodyUse = bodyUse;
        this.slow = slow;
        this.feature = feature;
    }

    /** What the case needs from a client beyond plain GETs, or null. */
    public Feature feature() {
        return feature;
    }

    /** Whether {@code client} takes part in this case: it has the feature the case needs. */
    public boolean appliesTo(ClientKind client) {
        return feature == null || client.supports(feature);
    }

    public String id() {
        return id;
    }

    public String label() {
        return label;
    }

    public String pathAndQuery() {
        return pathAndQuery;
    }

    public BodyUse bodyUse() {
        return bodyUse;
    }

    /** A body that takes 100 ms or more to arrive: run with the smaller slow-case request count. */
    public boolean slow() {
        return slow;
    }

    public static ReuseCase byId(String id) {
        String wanted = id.trim().toLowerCase(Locale.ROOT);
        for (ReuseCase c : values()) {
            if (c.id.equals(wanted)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown case '" + id + "'; known cases: " + allIds());
    }

    /** Parses {@code cl-1k,close}; {@code all} (or an empty list) means every case. Order kept. */
    public static List<ReuseCase> parseList(String list) {
        if (list == null || list.isBlank() || list.trim().equalsIgnoreCase("all")) {
            return List.of(values());
        }
        LinkedHashSet<ReuseCase> cases = new LinkedHashSet<>();
        for (String part : list.split(",")) {
            if (!part.isBlank()) {
                cases.add(byId(part));
            }
        }
        return new ArrayList<>(cases);
    }

    public static String allIds() {
        return Arrays.stream(values()).map(ReuseCase::id).collect(Collectors.joining(","));
    }
}
