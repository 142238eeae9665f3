package dev.shuttle.transport.tls;

import java.time.Duration;
import java.util.Objects;
import javax.net.ssl.SSLSession;

/**
 * What a TLS handshake settled, as both the client's trace and the server's connection-state listener report it.
 *
 * @param protocol            {@code TLSv1.3} or {@code TLSv1.2}
 * @param cipherSuite         e.g. {@code TLS_AES_128_GCM_SHA256}
 * @param applicationProtocol the ALPN protocol ({@code h2}, {@code http/1.1}), or null when none was negotiated
 * @param resumed             the session was resumed (an abbreviated handshake: no certificate sent)
 * @param handshakeTime       from the start of the handshake to its end, as the side reporting it saw it
 * @param session             the JSSE session (peer certificates, SNI names, ...)
 */
public record TlsInfo(String protocol, String cipherSuite, String applicationProtocol, boolean resumed,
                      Duration handshakeTime, SSLSession session) {
    /** Checks that protocol, cipher suite and handshake time are given. */
    public TlsInfo {
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(cipherSuite, "cipherSuite");
        Objects.requireNonNull(handshakeTime, "handshakeTime");
    }

    @Override
    public String toString() {
        return protocol + " " + cipherSuite + (applicationProtocol == null ? "" : " ALPN " + applicationProtocol)
                + (resumed ? " resumed" : " full handshake") + " in " + handshakeTime.toNanos() / 1000 + " µs";
    }
}
