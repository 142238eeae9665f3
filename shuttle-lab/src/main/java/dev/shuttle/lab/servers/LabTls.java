package dev.shuttle.lab.servers;

import dev.shuttle.transport.tls.KeyMaterial;
import dev.shuttle.transport.tls.SelfSignedCertificate;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * The lab's TLS material for {@code --protocol https}: one self-signed certificate
 * ({@link SelfSignedCertificate}: for 127.0.0.1 and localhost, signed by a generated authority) per directory,
 * written as a PKCS#12 key store that every server under test loads in its own JVM, and the authority's PEM that the
 * lab's client trusts (and nothing else). Every server thus presents the same certificate chain and key, and every
 * TLS stack is the JDK's (JSSE).
 */
public final class LabTls {
    /** The key store's password: the material is generated per run and thrown away with the log directory. */
    static final char[] PASSWORD = "shuttle-lab".toCharArray();
    private static final Map<Path, LabTls> CREATED = new ConcurrentHashMap<>();

    private final Path keyStore;
    private final Path authorityPem;

    private LabTls(Path keyStore, Path authorityPem) {
        this.keyStore = keyStore;
        this.authorityPem = authorityPem;
    }

    /** The material in {@code dir}, generated and written on the first call for that directory. */
    public static LabTls in(Path dir) {
        return CREATED.computeIfAbsent(dir.toAbsolutePath(), LabTls::create);
    }

    private static LabTls create(Path dir) {
        SelfSignedCertificate certificate = SelfSignedCertificate.generate();
        try {
            Files.createDirectories(dir);
            Path store = dir.resolve("lab-server.p12");
            try (OutputStream out = Files.newOutputStream(store)) {
                certificate.keyStore(PASSWORD).store(out, PASSWORD);
            }
            Path authority = dir.resolve("lab-ca.pem");
            certificate.writeAuthorityPem(authority);
            return new LabTls(store, authority);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot write the lab's key store", e);
        }
    }

    public Path keyStore() {
        return keyStore;
    }

    public Path authorityPem() {
        return authorityPem;
    }

    /** A server context from the key store (for Shuttle). */
    public static SSLContext serverContext(Path keyStore) {
        return KeyMaterial.serverContext(keyStore, PASSWORD);
    }

    /** The key store's key managers (for Netty's {@code SslContextBuilder}). */
    public static KeyManagerFactory keyManagers(Path keyStore) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(keyStore)) {
            store.load(in, PASSWORD);
        }
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(store, PASSWORD);
        return factory;
    }

    /** The key store's password, as Jetty's {@code SslContextFactory} takes it. */
    public static String password() {
        return new String(PASSWORD);
    }

    /** A client context that trusts the authority in {@code pem} and nothing else. */
    public static SSLContext clientContext(Path pem) {
        return KeyMaterial.trusting(pem);
    }
}
