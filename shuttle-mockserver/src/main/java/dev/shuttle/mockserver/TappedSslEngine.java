package dev.shuttle.mockserver;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.BiFunction;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;

/**
 * A server's {@link SSLEngine} that shows its frame tap the plaintext passing through: what {@code wrap} consumed
 * (the server's bytes) and what {@code unwrap} produced (the client's), and the client's close. Every method is the
 * real engine's; the tap only reads copies of the buffers' bounds.
 */
final class TappedSslEngine extends SSLEngine {
    private final SSLEngine real;
    private final FrameTap.Connection tap;

    TappedSslEngine(SSLEngine real, FrameTap.Connection tap) {
        super(real.getPeerHost(), real.getPeerPort());
        this.real = real;
        this.tap = tap;
    }

    @Override
    public SSLEngineResult wrap(ByteBuffer[] srcs, int offset, int length, ByteBuffer dst) throws SSLException {
        int[] before = positions(srcs, offset, length);
        SSLEngineResult result = real.wrap(srcs, offset, length, dst);
        if (result.bytesConsumed() > 0) {
            for (int i = 0; i < length; i++) {
                ByteBuffer src = srcs[offset + i];
                tap.serverSent(src.duplicate().position(before[i]).limit(src.position()));
            }
        }
        return result;
    }

    @Override
    public SSLEngineResult unwrap(ByteBuffer src, ByteBuffer[] dsts, int offset, int length) throws SSLException {
        int[] before = positions(dsts, offset, length);
        SSLEngineResult result = real.unwrap(src, dsts, offset, length);
        if (result.bytesProduced() > 0) {
            for (int i = 0; i < length; i++) {
                ByteBuffer dst = dsts[offset + i];
                tap.clientSent(dst.duplicate().limit(dst.position()).position(before[i]));
            }
        }
        if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
            tap.clientClosed();
        }
        return result;
    }

    private static int[] positions(ByteBuffer[] buffers, int offset, int length) {
        int[] positions = new int[length];
        for (int i = 0; i < length; i++) {
            positions[i] = buffers[offset + i].position();
        }
        return positions;
    }

    @Override
    public void closeInbound() throws SSLException {
        tap.clientClosed();
        real.closeInbound();
    }

    @Override
    public Runnable getDelegatedTask() {
        return real.getDelegatedTask();
    }

    @Override
    public boolean isInboundDone() {
        return real.isInboundDone();
    }

    @Override
    public void closeOutbound() {
        real.closeOutbound();
    }

    @Override
    public boolean isOutboundDone() {
        return real.isOutboundDone();
    }

    @Override
    public String[] getSupportedCipherSuites() {
        return real.getSupportedCipherSuites();
    }

    @Override
    public String[] getEnabledCipherSuites() {
        return real.getEnabledCipherSuites();
    }

    @Override
    public void setEnabledCipherSuites(String[] suites) {
        real.setEnabledCipherSuites(suites);
    }

    @Override
    public String[] getSupportedProtocols() {
        return real.getSupportedProtocols();
    }

    @Override
    public String[] getEnabledProtocols() {
        return real.getEnabledProtocols();
    }

    @Override
    public void setEnabledProtocols(String[] protocols) {
        real.setEnabledProtocols(protocols);
    }

    @Override
    public SSLSession getSession() {
        return real.getSession();
    }

    @Override
    public SSLSession getHandshakeSession() {
        return real.getHandshakeSession();
    }

    @Override
    public void beginHandshake() throws SSLException {
        real.beginHandshake();
    }

    @Override
    public SSLEngineResult.HandshakeStatus getHandshakeStatus() {
        return real.getHandshakeStatus();
    }

    @Override
    public void setUseClientMode(boolean mode) {
        real.setUseClientMode(mode);
    }

    @Override
    public boolean getUseClientMode() {
        return real.getUseClientMode();
    }

    @Override
    public void setNeedClientAuth(boolean need) {
        real.setNeedClientAuth(need);
    }

    @Override
    public boolean getNeedClientAuth() {
        return real.getNeedClientAuth();
    }

    @Override
    public void setWantClientAuth(boolean want) {
        real.setWantClientAuth(want);
    }

    @Override
    public boolean getWantClientAuth() {
        return real.getWantClientAuth();
    }

    @Override
    public void setEnableSessionCreation(boolean flag) {
        real.setEnableSessionCreation(flag);
    }

    @Override
    public boolean getEnableSessionCreation() {
        return real.getEnableSessionCreation();
    }

    @Override
    public SSLParameters getSSLParameters() {
        return real.getSSLParameters();
    }

    @Override
    public void setSSLParameters(SSLParameters parameters) {
        real.setSSLParameters(parameters);
    }

    @Override
    public String getApplicationProtocol() {
        return real.getApplicationProtocol();
    }

    @Override
    public String getHandshakeApplicationProtocol() {
        return real.getHandshakeApplicationProtocol();
    }

    @Override
    public void setHandshakeApplicationProtocolSelector(BiFunction<SSLEngine, List<String>, String> selector) {
        real.setHandshakeApplicationProtocolSelector(selector);
    }

    @Override
    public BiFunction<SSLEngine, List<String>, String> getHandshakeApplicationProtocolSelector() {
        return real.getHandshakeApplicationProtocolSelector();
    }

    @Override
    public String toString() {
        return "tapped " + real;
    }
}
