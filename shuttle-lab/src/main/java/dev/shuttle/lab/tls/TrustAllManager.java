package dev.shuttle.lab.tls;

import java.net.Socket;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trusts every certificate chain and checks no host name: what {@code --insecure} asks for (curl's {@code -k}), for
 * endpoints whose certificate the user cannot or will not provide. It lives in the lab on purpose; the library has
 * no such switch.
 *
 * <p>It must be an {@link X509ExtendedTrustManager}: JSSE wraps a plain {@code X509TrustManager} in one that still
 * checks the peer's host name against the certificate (endpoint identification), while an extended manager is
 * trusted to do that check itself, and this one does none. Clients that verify host names on their own after the
 * handshake (OkHttp's {@code HostnameVerifier}, Apache's) are told separately by
 * {@link ClientTrust#verifiesHostnames()}.
 */
final class TrustAllManager extends X509ExtendedTrustManager {
    static final TrustAllManager INSTANCE = new TrustAllManager();

    private static final X509Certificate[] NO_ISSUERS = new X509Certificate[0];

    private TrustAllManager() {
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
    }

    // The client-side methods below are never called on a client; the interface requires them.
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return NO_ISSUERS;
    }
}
