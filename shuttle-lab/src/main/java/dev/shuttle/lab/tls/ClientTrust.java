package dev.shuttle.lab.tls;

import dev.shuttle.transport.tls.KeyMaterial;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Which servers the lab's clients trust over https, the same for every client: the JDK's trust store, exactly the
 * authorities of a PEM file ({@code --cacert}, or the fixture's generated authority), or anything at all
 * ({@code --insecure}). Immutable; the trust manager is built once (loading the JDK's store is the slow part) and
 * shared, which is safe: trust managers keep no state.
 *
 * <p>{@link #newContext()} gives each client an {@link SSLContext} of its own, hence a session cache of its own: a
 * client resumes only sessions it negotiated itself, as a fresh client in a fresh JVM would, and one cell of an
 * experiment never resumes a session from another.
 */
public final class ClientTrust {
    private final String description;
    private final X509ExtendedTrustManager trustManager;
    private final boolean verifiesHostnames;

    private ClientTrust(String description, X509ExtendedTrustManager trustManager, boolean verifiesHostnames) {
        this.description = description;
        this.trustManager = trustManager;
        this.verifiesHostnames = verifiesHostnames;
    }

    /** The JDK's default trust store ({@code cacerts}), host names verified: what every client does by default. */
    public static ClientTrust system() {
        return new ClientTrust("the JDK's trust store", fromStore(null), true);
    }

    /** Exactly {@code authorities}, host names verified. */
    public static ClientTrust authorities(Collection<X509Certificate> authorities, String description) {
        if (authorities.isEmpty()) {
            throw new IllegalArgumentException("at least one certificate to trust is needed");
        }
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            int i = 0;
            for (X509Certificate authority : authorities) {
                store.setCertificateEntry("trusted-" + i++, authority);
            }
            return new ClientTrust(description, fromStore(store), true);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build a trust store: " + e.getMessage(), e);
        }
    }

    /**
     * Exactly the certificates of a PEM file, as curl's {@code --cacert}.
     *
     * @throws IllegalArgumentException when the file holds no certificate (the message says why)
     * @throws java.io.UncheckedIOException when it cannot be read
     */
    public static ClientTrust pemFile(Path pem) {
        List<X509Certificate> certificates = KeyMaterial.readCertificates(pem);
        if (certificates.isEmpty()) {
            throw new IllegalArgumentException("no certificate in " + pem);
        }
        return authorities(certificates, "the certificates in " + pem);
    }

    /** Any certificate, for any host name: curl's {@code --insecure}. Tests and debugging only. */
    public static ClientTrust insecure() {
        return new ClientTrust("any certificate (--insecure: not verified)", TrustAllManager.INSTANCE, false);
    }

    /**
     * What {@code --cacert} and {@code --insecure} ask for, or the JDK's store when neither was given.
     *
     * @throws IllegalArgumentException when both were given, or the file holds no certificate
     */
    public static ClientTrust fromOptions(Path caCert, boolean insecure) {
        if (caCert != null && insecure) {
            throw new IllegalArgumentException("--cacert and --insecure contradict each other: give one");
        }
        return insecure ? insecure() : caCert != null ? pemFile(caCert) : system();
    }

    /** A fresh client context (own session cache) that trusts what this trust says. */
    public SSLContext newContext() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {trustManager}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot build a TLS context: " + e.getMessage(), e);
        }
    }

    /** For clients that take the trust manager beside the context (OkHttp). */
    public X509ExtendedTrustManager trustManager() {
        return trustManager;
    }

    /** False only for {@link #insecure()}: clients must then also skip their own host-name checks. */
    public boolean verifiesHostnames() {
        return verifiesHostnames;
    }

    /** In words, for reports: "the certificates in /tmp/ca.pem". */
    public String description() {
        return description;
    }

    @Override
    public String toString() {
        return description;
    }

    private static X509ExtendedTrustManager fromStore(KeyStore store) {
        try {
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            for (TrustManager manager : factory.getTrustManagers()) {
                if (manager instanceof X509ExtendedTrustManager x509) {
                    return x509;
                }
            }
            throw new IllegalStateException("the JDK's trust manager factory made no X.509 trust manager");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot build a trust manager: " + e.getMessage(), e);
        }
    }
}
