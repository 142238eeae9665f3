package dev.shuttle.server.http2;

import dev.shuttle.server.Http2Options;
import dev.shuttle.server.core.ServerConnection;
import dev.shuttle.wire.Headers;
import dev.shuttle.wire.HttpVersion;
import dev.shuttle.wire.http1.RequestHead;
import dev.shuttle.wire.http2.Http2Exception;
import dev.shuttle.wire.http2.Http2RequestHead;
import dev.shuttle.wire.http2.Http2Settings;
import dev.shuttle.wire.http2.SettingsFrame;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * HTTP/1.1's {@code Upgrade: h2c} (RFC 7540 section 3.2; RFC 9113 deprecates it, but curl {@code --http2} and some
 * proxies still use it): the request that asks becomes stream 1 of an HTTP/2 connection. Accepted only for a request
 * without a body (as curl sends it); with a body the upgrade is ignored and the request served on HTTP/1.1, which the
 * RFC allows.
 */
public final class H2cUpgrade {
    private static final byte[] SWITCHING = ("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\n"
            + "Upgrade: h2c\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
    /** Fields of the HTTP/1.1 request that mean nothing on HTTP/2 (hop-by-hop, or carried by pseudo-headers). */
    private static final Set<String> DROPPED = Set.of("connection", "upgrade", "http2-settings", "keep-alive",
            "proxy-connection", "transfer-encoding", "te", "host");

    private H2cUpgrade() {
    }

    /** Whether {@code head} asks for h2c in a way this server accepts. */
    public static boolean requested(RequestHead head) {
        Headers headers = head.headers();
        return head.version() == HttpVersion.HTTP_1_1
                && headers.containsToken("Upgrade", "h2c")
                && headers.containsToken("Connection", "Upgrade")
                && headers.containsToken("Connection", "HTTP2-Settings")
                && headers.all("HTTP2-Settings").size() == 1
                && !headers.contains("Transfer-Encoding")
                && (headers.first("Content-Length") == null || "0".equals(headers.first("Content-Length").strip()));
    }

    /**
     * Answers 101, starts HTTP/2 on the connection with the request as stream 1, and returns the session that serves
     * on. Returns null (nothing written) when the client's settings are malformed: the request is then served on
     * HTTP/1.1.
     */
    public static Http2Session accept(ServerConnection connection, Http2Options options, RequestHead head)
            throws IOException {
        Http2Settings settings;
        try {
            settings = Http2Settings.DEFAULTS.apply(decodeSettings(head.headers().first("HTTP2-Settings")));
        } catch (IllegalArgumentException | Http2Exception e) {
            return null;
        }
        List<String> fields = new ArrayList<>();
        Headers original = head.headers();
        for (int i = 0; i < original.size(); i++) {
            String name = original.name(i).toLowerCase(Locale.ROOT);
            if (!DROPPED.contains(name)) {
                fields.add(name);
                fields.add(original.value(i));
            }
        }
        Http2RequestHead request = new Http2RequestHead(head.method(), "http", original.first("Host"),
                head.target(), Headers.of(fields.toArray(String[]::new)));
        connection.output().write(SWITCHING);
        connection.output().flush();
        Http2Session session = new Http2Session(connection, options);
        session.upgraded(settings, request);
        return session;
    }

    /** The token68 value of HTTP2-Settings: a SETTINGS payload in base64url without padding. */
    static SettingsFrame decodeSettings(String value) throws Http2Exception {
        byte[] payload = Base64.getUrlDecoder().decode(value.strip());
        if (payload.length % SettingsFrame.SETTING_LENGTH != 0) {
            throw new IllegalArgumentException("HTTP2-Settings of " + payload.length + " octets");
        }
        List<SettingsFrame.Setting> settings = new ArrayList<>();
        for (int i = 0; i < payload.length; i += SettingsFrame.SETTING_LENGTH) {
            int id = ((payload[i] & 0xff) << 8) | (payload[i + 1] & 0xff);
            long value32 = ((payload[i + 2] & 0xffL) << 24) | ((payload[i + 3] & 0xffL) << 16)
                    | ((payload[i + 4] & 0xffL) << 8) | (payload[i + 5] & 0xffL);
            Http2Settings.validate(id, value32);
            settings.add(new SettingsFrame.Setting(id, value32));
        }
        return SettingsFrame.of(settings);
    }
}
