package dev.shuttle.benchmarks.client;

import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * A TLS context that accepts any certificate, for every client of the TLS benchmarks: the server (another JVM)
 * generates its self-signed certificate at start, and what is measured is the HTTP/2 client, not certificate checks.
 * Hostname checks are switched off in each adapter as well. Benchmarks only.
 */
public final class TrustAll {
    public static final X509TrustManager MANAGER = new X509TrustManager() {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    };

    private TrustAll() {
    }

    /** A new context (each client its own, so no client resumes sessions another one started). */
    public static SSLContext context() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {MANAGER}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no TLS context", e);
        }
    }
}
