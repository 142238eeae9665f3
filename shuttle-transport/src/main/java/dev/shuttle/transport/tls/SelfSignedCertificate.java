package dev.shuttle.transport.tls;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.io.ByteArrayInputStream;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.SSLContext;

/**
 * A throw-away certificate authority and a server certificate it signed, generated in memory with the JDK alone, for
 * tests, local servers ({@code shuttle serve --tls}) and mock servers. Clients trust the authority
 * ({@link #authorityPem()} for curl's {@code --cacert}, {@link #clientContext()} for Java); the server presents the
 * leaf certificate and the authority as its chain ({@link #serverContext()}). A separate authority, rather than one
 * self-signed leaf, is what every TLS stack accepts: some refuse a CA certificate as a server's, others a non-CA
 * certificate as a trust anchor.
 *
 * <p>Keys are EC P-256 and signatures ECDSA with SHA-256; the leaf names its hosts in subjectAltName (DNS names and IP
 * addresses), carries serverAuth and clientAuth, and both certificates carry key identifiers, as strict verifiers
 * (OpenSSL 3's X509_STRICT) require. Not for production: the authority's key is discarded after signing, and
 * nothing protects the leaf's key.
 */
public final class SelfSignedCertificate {
    private static final String SHA256_WITH_ECDSA = "1.2.840.10045.4.3.2";

    private final X509Certificate authority;
    private final X509Certificate certificate;
    private final PrivateKey privateKey;

    private SelfSignedCertificate(X509Certificate authority, X509Certificate certificate, PrivateKey privateKey) {
        this.authority = authority;
        this.certificate = certificate;
        this.privateKey = privateKey;
    }

    /**
     * For {@code localhost}, {@code 127.0.0.1} and {@code ::1}, valid from yesterday for ten years.
     *
     * @return a new certificate and authority
     */
    public static SelfSignedCertificate generate() {
        return generate(List.of("localhost", "127.0.0.1", "::1"));
    }

    /**
     * For the given host names and IP address literals (the first is the subject's common name).
     *
     * @param names the host names and IP address literals the certificate is for
     * @return a new certificate and authority
     * @throws IllegalArgumentException when {@code names} is empty
     */
    public static SelfSignedCertificate generate(List<String> names) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("at least one name is needed");
        }
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair caKeys = generator.generateKeyPair();
            KeyPair leafKeys = generator.generateKeyPair();
            ZonedDateTime notBefore = ZonedDateTime.now().minusDays(1);
            ZonedDateTime notAfter = notBefore.plusYears(10);
            byte[] caName = name("Shuttle local authority " + Long.toHexString(new SecureRandom().nextLong()));
            byte[] caKeyId = keyIdentifier(caKeys.getPublic());

            byte[] caExtensions = Der.sequence(
                    extension("2.5.29.19", true, Der.sequence(Der.bool(true))),
                    extension("2.5.29.15", true, Der.tlv(Der.BIT_STRING, new byte[] {0x01, (byte) 0x86})),
                    extension("2.5.29.14", false, Der.octets(caKeyId)));
            X509Certificate ca = sign(caName, caName, caKeys.getPublic(), caExtensions, notBefore, notAfter,
                    caKeys.getPrivate());

            byte[] leafExtensions = Der.sequence(
                    extension("2.5.29.19", true, Der.sequence()),
                    extension("2.5.29.15", true, Der.tlv(Der.BIT_STRING, new byte[] {0x07, (byte) 0x80})),
                    extension("2.5.29.37", false, Der.sequence(Der.oid("1.3.6.1.5.5.7.3.1"),
                            Der.oid("1.3.6.1.5.5.7.3.2"))),
                    extension("2.5.29.17", false, subjectAltNames(names)),
                    extension("2.5.29.14", false, Der.octets(keyIdentifier(leafKeys.getPublic()))),
                    extension("2.5.29.35", false, Der.sequence(Der.implicit(0, caKeyId))));
            X509Certificate leaf = sign(caName, name(names.get(0)), leafKeys.getPublic(), leafExtensions, notBefore,
                    notAfter, caKeys.getPrivate());
            return new SelfSignedCertificate(ca, leaf, leafKeys.getPrivate());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot generate a certificate with this JDK", e);
        }
    }

    private static X509Certificate sign(byte[] issuer, byte[] subject, PublicKey key, byte[] extensions,
                                        ZonedDateTime notBefore, ZonedDateTime notAfter, PrivateKey signer)
            throws GeneralSecurityException {
        byte[] algorithm = Der.sequence(Der.oid(SHA256_WITH_ECDSA));
        byte[] tbs = Der.sequence(
                Der.explicit(0, Der.integer(2)), // v3
                Der.integer(new BigInteger(63, new SecureRandom()).add(BigInteger.ONE)),
                algorithm,
                issuer,
                Der.sequence(Der.time(notBefore), Der.time(notAfter)),
                subject,
                key.getEncoded(), // SubjectPublicKeyInfo, already DER
                Der.explicit(3, extensions));
        Signature signature = Signature.getInstance("SHA256withECDSA");
        signature.initSign(signer);
        signature.update(tbs);
        byte[] certificate = Der.sequence(tbs, algorithm, Der.bits(signature.sign()));
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(certificate));
    }

    private static byte[] name(String commonName) {
        return Der.sequence(Der.set(Der.sequence(Der.oid("2.5.4.3"), Der.utf8(commonName))));
    }

    private static byte[] extension(String oid, boolean critical, byte[] value) {
        return critical ? Der.sequence(Der.oid(oid), Der.bool(true), Der.octets(value))
                : Der.sequence(Der.oid(oid), Der.octets(value));
    }

    private static byte[] subjectAltNames(List<String> names) {
        List<byte[]> entries = new ArrayList<>();
        for (String name : names) {
            Objects.requireNonNull(name, "name");
            if (isAddress(name)) {
                try {
                    entries.add(Der.implicit(7, InetAddress.getByName(name).getAddress()));
                } catch (UnknownHostException e) {
                    throw new IllegalArgumentException("not an IP address: " + name, e);
                }
            } else {
                entries.add(Der.implicit(2, name.getBytes(StandardCharsets.US_ASCII)));
            }
        }
        return Der.sequence(entries.toArray(byte[][]::new));
    }

    private static boolean isAddress(String name) {
        return name.indexOf(':') >= 0 || name.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'));
    }

    /** RFC 5280 4.2.1.2 method (1): SHA-1 of the subjectPublicKey bits. */
    private static byte[] keyIdentifier(PublicKey key) throws GeneralSecurityException {
        Der.Reader spki = new Der.Reader(key.getEncoded()).next().children();
        spki.next(); // algorithm
        byte[] bits = spki.next().content();
        MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
        sha1.update(bits, 1, bits.length - 1); // skip the unused-bits byte
        return sha1.digest();
    }

    /** {@return the server certificate} */
    public X509Certificate certificate() {
        return certificate;
    }

    /** {@return the authority that signed it: what clients trust} */
    public X509Certificate authority() {
        return authority;
    }

    /** {@return the server certificate's private key} */
    public PrivateKey privateKey() {
        return privateKey;
    }

    /**
     * {@return a PKCS#12 key store with the key and its chain (certificate, authority) under the alias {@code server}}
     *
     * @param password the store's and the key's password
     */
    public KeyStore keyStore(char[] password) {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("server", privateKey, password, new Certificate[] {certificate, authority});
            return store;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build a key store", e);
        }
    }

    /** {@return a server context presenting the certificate and its chain} */
    public SSLContext serverContext() {
        return KeyMaterial.serverContext(keyStore(new char[0]), new char[0]);
    }

    /** {@return a client context that trusts the authority (and nothing else)} */
    public SSLContext clientContext() {
        return KeyMaterial.trusting(List.of(authority));
    }

    /** {@return the authority's certificate in PEM, for {@code curl --cacert} and friends} */
    public String authorityPem() {
        return pem("CERTIFICATE", encoded(authority));
    }

    /** {@return the certificate chain (certificate, then authority) in PEM, as servers such as nginx read it} */
    public String certificateChainPem() {
        return pem("CERTIFICATE", encoded(certificate)) + pem("CERTIFICATE", encoded(authority));
    }

    /** {@return the private key in PKCS#8 PEM ({@code BEGIN PRIVATE KEY})} */
    public String privateKeyPem() {
        return pem("PRIVATE KEY", privateKey.getEncoded());
    }

    /**
     * Writes {@link #authorityPem()} to {@code file}.
     *
     * @param file where the authority's PEM goes (created or replaced)
     */
    public void writeAuthorityPem(Path file) {
        write(file, authorityPem());
    }

    /**
     * Writes the chain and the key as PEM files, for servers and tools that read files (nginx, curl).
     *
     * @param chainFile where the certificate chain's PEM goes
     * @param keyFile where the private key's PEM goes
     */
    public void writePem(Path chainFile, Path keyFile) {
        write(chainFile, certificateChainPem());
        write(keyFile, privateKeyPem());
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] encoded(X509Certificate certificate) {
        try {
            return certificate.getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
