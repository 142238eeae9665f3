package dev.shuttle.transport.tls;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Builds {@link SSLContext}s from key material in the forms servers are usually given: a PKCS#12 file, or PEM files
 * (a certificate chain and a private key: PKCS#8 {@code PRIVATE KEY}, PKCS#1 {@code RSA PRIVATE KEY} or SEC1
 * {@code EC PRIVATE KEY}, unencrypted), and client contexts that trust given certificates. JDK only.
 */
public final class KeyMaterial {
    private static final Pattern PEM_BLOCK =
            Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s]*?)\\s*-----END \\1-----");
    private static final String RSA = "1.2.840.113549.1.1.1";
    private static final String EC = "1.2.840.10045.2.1";

    private KeyMaterial() {
    }

    /**
     * {@return a server context from a PKCS#12 file holding one private key and its certificate chain}
     *
     * @param pkcs12 the PKCS#12 file
     * @param password the file's password, also the key's
     */
    public static SSLContext serverContext(Path pkcs12, char[] password) {
        try (InputStream in = Files.newInputStream(pkcs12)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password);
            return serverContext(store, password);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + pkcs12 + ": " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot load " + pkcs12 + " as PKCS#12: " + e.getMessage(), e);
        }
    }

    /**
     * {@return a server context from a PEM certificate chain (leaf first) and a PEM private key}
     *
     * @param certificateChain the PEM certificate chain, leaf first
     * @param privateKey the PEM private key (PKCS#8, or PKCS#1 RSA or SEC1 EC)
     */
    public static SSLContext serverContextFromPem(Path certificateChain, Path privateKey) {
        List<X509Certificate> chain = readCertificates(certificateChain);
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("no certificate in " + certificateChain);
        }
        PrivateKey key = readPrivateKey(privateKey);
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("server", key, new char[0], chain.toArray(Certificate[]::new));
            return serverContext(store, new char[0]);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("the key in " + privateKey + " does not suit the certificate in "
                    + certificateChain + ": " + e.getMessage(), e);
        }
    }

    /**
     * {@return a server context from a key store with one key entry}
     *
     * @param store the key store
     * @param password the key's password
     */
    public static SSLContext serverContext(KeyStore store, char[] password) {
        try {
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, password);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), null, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot build a server TLS context: " + e.getMessage(), e);
        }
    }

    /**
     * {@return a client context that trusts exactly the certificates in a PEM file (e.g. curl's {@code --cacert})}
     *
     * @param pemCertificates the PEM file of trusted certificates
     */
    public static SSLContext trusting(Path pemCertificates) {
        List<X509Certificate> certificates = readCertificates(pemCertificates);
        if (certificates.isEmpty()) {
            throw new IllegalArgumentException("no certificate in " + pemCertificates);
        }
        return trusting(certificates);
    }

    /**
     * {@return a client context that trusts exactly {@code anchors}}
     *
     * @param anchors the trusted certificates
     */
    public static SSLContext trusting(Collection<X509Certificate> anchors) {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            int i = 0;
            for (X509Certificate anchor : anchors) {
                store.setCertificateEntry("trusted-" + i++, anchor);
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("cannot build a client TLS context: " + e.getMessage(), e);
        }
    }

    /**
     * Every certificate in a PEM file, in order.
     *
     * @param pem the PEM file
     * @return the certificates, possibly empty
     */
    public static List<X509Certificate> readCertificates(Path pem) {
        try (InputStream in = Files.newInputStream(pem)) {
            List<X509Certificate> certificates = new ArrayList<>();
            for (Certificate certificate : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                certificates.add((X509Certificate) certificate);
            }
            return certificates;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + pem + ": " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("no valid PEM certificate in " + pem + ": " + e.getMessage(), e);
        }
    }

    /**
     * {@return the first private key in a PEM file}
     *
     * @param pem the PEM file
     */
    public static PrivateKey readPrivateKey(Path pem) {
        String text;
        try {
            text = Files.readString(pem, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + pem + ": " + e.getMessage(), e);
        }
        return parsePrivateKey(text, pem.toString());
    }

    static PrivateKey parsePrivateKey(String text, String source) {
        Matcher block = PEM_BLOCK.matcher(text);
        while (block.find()) {
            String type = block.group(1);
            if (!type.endsWith("PRIVATE KEY")) {
                continue;
            }
            byte[] der = Base64.getMimeDecoder().decode(block.group(2));
            return switch (type) {
                case "PRIVATE KEY" -> fromPkcs8(der, source);
                case "RSA PRIVATE KEY" -> fromPkcs8(pkcs8(RSA, Der.nullValue(), der), source);
                case "EC PRIVATE KEY" -> fromPkcs8(pkcs8(EC, sec1Curve(der, source), der), source);
                case "ENCRYPTED PRIVATE KEY" -> throw new IllegalArgumentException("the key in " + source
                        + " is encrypted; decrypt it first (openssl pkey -in KEY -out PLAIN)");
                default -> throw new IllegalArgumentException("unsupported key type " + type + " in " + source);
            };
        }
        throw new IllegalArgumentException("no PEM private key in " + source);
    }

    /** Wraps a PKCS#1 or SEC1 key in a PKCS#8 PrivateKeyInfo. */
    private static byte[] pkcs8(String algorithm, byte[] parameters, byte[] key) {
        return Der.sequence(Der.integer(0), Der.sequence(Der.oid(algorithm), parameters), Der.octets(key));
    }

    /** The named curve of a SEC1 ECPrivateKey: its {@code [0] parameters}. */
    private static byte[] sec1Curve(byte[] der, String source) {
        try {
            Der.Reader fields = new Der.Reader(der).next().children();
            while (fields.hasMore()) {
                Der.Element field = fields.next();
                if (field.tag() == 0xa0) {
                    return field.children().next().encoded();
                }
            }
        } catch (IllegalArgumentException e) {
            // fall through to the error below
        }
        throw new IllegalArgumentException("the EC key in " + source + " does not name its curve");
    }

    private static PrivateKey fromPkcs8(byte[] der, String source) {
        String algorithm;
        try {
            Der.Reader info = new Der.Reader(der).next().children();
            info.next(); // version
            Der.Element oid = info.next().children().next();
            algorithm = switch (oidText(oid.content())) {
                case RSA -> "RSA";
                case EC -> "EC";
                case "1.2.840.113549.1.1.10" -> "RSASSA-PSS";
                case "1.3.101.112", "1.3.101.113" -> "EdDSA";
                default -> throw new IllegalArgumentException("unsupported key algorithm in " + source);
            };
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("malformed private key in " + source + ": " + e.getMessage(), e);
        }
        try {
            return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot read the " + algorithm + " key in " + source + ": "
                    + e.getMessage(), e);
        }
    }

    private static String oidText(byte[] content) {
        StringBuilder text = new StringBuilder();
        text.append(content[0] / 40).append('.').append(content[0] % 40);
        long arc = 0;
        for (int i = 1; i < content.length; i++) {
            arc = (arc << 7) | (content[i] & 0x7f);
            if ((content[i] & 0x80) == 0) {
                text.append('.').append(arc);
                arc = 0;
            }
        }
        return text.toString();
    }
}
