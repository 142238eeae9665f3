package dev.shuttle.mockserver;

import java.security.KeyManagementException;
import java.security.SecureRandom;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * The server's TLS context with every engine it creates wrapped in a {@link TappedSslEngine}, so the frame tap sees
 * the plaintext of each TLS connection. Everything else is the real context's.
 */
final class TappedSslContext extends SSLContext {

    TappedSslContext(SSLContext real, FrameTap tap) {
        super(new Spi(real, tap), real.getProvider(), real.getProtocol());
    }

    private static final class Spi extends SSLContextSpi {
        private final SSLContext real;
        private final FrameTap tap;

        Spi(SSLContext real, FrameTap tap) {
            this.real = real;
            this.tap = tap;
        }

        @Override
        protected void engineInit(KeyManager[] keys, TrustManager[] trust, SecureRandom random)
                throws KeyManagementException {
            real.init(keys, trust, random);
        }

        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            return real.getSocketFactory();
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            return real.getServerSocketFactory();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
            return new TappedSslEngine(real.createSSLEngine(), tap.connection());
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String host, int port) {
            return new TappedSslEngine(real.createSSLEngine(host, port), tap.connection());
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
            return real.getServerSessionContext();
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
            return real.getClientSessionContext();
        }

        @Override
        protected SSLParameters engineGetDefaultSSLParameters() {
            return real.getDefaultSSLParameters();
        }

        @Override
        protected SSLParameters engineGetSupportedSSLParameters() {
            return real.getSupportedSSLParameters();
        }
    }
}
