package dev.shuttle.transport.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Key material in the forms servers are given, and the generated certificate, checked by real handshakes. */
class KeyMaterialTest {
    @TempDir
    Path dir;

    /** One request byte and one answer byte over JSSE sockets: the server context serves, the client trusts it. */
    private static void handshakes(SSLContext server, SSLContext client, String host) throws Exception {
        try (SSLServerSocket listener = (SSLServerSocket) server.getServerSocketFactory().createServerSocket(0)) {
            CompletableFuture<Void> served = CompletableFuture.runAsync(() -> {
                try (SSLSocket socket = (SSLSocket) listener.accept()) {
                    InputStream in = socket.getInputStream();
                    OutputStream out = socket.getOutputStream();
                    out.write(in.read());
                    out.flush();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            try (SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket(host, listener.getLocalPort())) {
                var parameters = socket.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                socket.setSSLParameters(parameters);
                socket.getOutputStream().write(42);
                socket.getOutputStream().flush();
                assertThat(socket.getInputStream().read()).isEqualTo(42);
            }
            served.get();
        }
    }

    @Test
    void theGeneratedCertificateServesLocalhostAndItsAddress() throws Exception {
        SelfSignedCertificate certificate = SelfSignedCertificate.generate();
        handshakes(certificate.serverContext(), certificate.clientContext(), "localhost");
        handshakes(certificate.serverContext(), certificate.clientContext(), "127.0.0.1");
        X509Certificate leaf = certificate.certificate();
        leaf.verify(certificate.authority().getPublicKey());
        assertThat(leaf.getBasicConstraints()).isEqualTo(-1);
        assertThat(certificate.authority().getBasicConstraints()).isGreaterThanOrEqualTo(0);
        assertThat(leaf.getExtendedKeyUsage()).contains("1.3.6.1.5.5.7.3.1");
        assertThat(leaf.getSubjectAlternativeNames().stream().map(name -> String.valueOf(name.get(1))))
                .contains("localhost", "127.0.0.1");
    }

    @Test
    void pemFilesRoundTripIntoAServerAndATrustingClient() throws Exception {
        SelfSignedCertificate certificate = SelfSignedCertificate.generate(List.of("example.test", "127.0.0.1"));
        Path chain = dir.resolve("chain.pem");
        Path key = dir.resolve("key.pem");
        Path ca = dir.resolve("ca.pem");
        certificate.writePem(chain, key);
        certificate.writeAuthorityPem(ca);
        assertThat(KeyMaterial.readCertificates(chain)).hasSize(2);
        assertThat(KeyMaterial.readPrivateKey(key)).isEqualTo(certificate.privateKey());
        SSLContext server = KeyMaterial.serverContextFromPem(chain, key);
        // The certificate names example.test, which need not resolve, and the address it is reached at.
        handshakes(server, KeyMaterial.trusting(ca), "127.0.0.1");
    }

    @Test
    void aPkcs12FileServes() throws Exception {
        SelfSignedCertificate certificate = SelfSignedCertificate.generate();
        Path file = dir.resolve("server.p12");
        char[] password = "secret".toCharArray();
        KeyStore store = certificate.keyStore(password);
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, password);
        }
        handshakes(KeyMaterial.serverContext(file, password), certificate.clientContext(), "localhost");
        assertThatThrownBy(() -> KeyMaterial.serverContext(file, "wrong".toCharArray()))
                .isInstanceOf(RuntimeException.class).hasMessageContaining(file.toString());
    }

    @Test
    void pkcs1RsaAndSec1EcKeysAreUnwrapped() throws Exception {
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        PrivateKey rsaKey = rsa.generateKeyPair().getPrivate();
        byte[] pkcs1 = innerKey(rsaKey.getEncoded());
        assertThat(KeyMaterial.parsePrivateKey(SelfSignedCertificate.pem("RSA PRIVATE KEY", pkcs1), "rsa"))
                .isEqualTo(rsaKey);

        KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
        ec.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair ecKeys = ec.generateKeyPair();
        // SEC1 as OpenSSL writes it: version, key, [0] named curve.
        Der.Reader jdkSec1 = new Der.Reader(innerKey(ecKeys.getPrivate().getEncoded())).next().children();
        jdkSec1.next();
        byte[] secret = jdkSec1.next().encoded();
        byte[] sec1 = Der.sequence(Der.integer(1), secret, Der.explicit(0, Der.oid("1.2.840.10045.3.1.7")));
        PrivateKey parsed = KeyMaterial.parsePrivateKey(SelfSignedCertificate.pem("EC PRIVATE KEY", sec1), "ec");
        assertThat(parsed.getAlgorithm()).isEqualTo("EC");
        assertThat(((java.security.interfaces.ECPrivateKey) parsed).getS())
                .isEqualTo(((java.security.interfaces.ECPrivateKey) ecKeys.getPrivate()).getS());
    }

    /** The OCTET STRING inside a PKCS#8 PrivateKeyInfo: the algorithm's own key encoding. */
    private static byte[] innerKey(byte[] pkcs8) {
        Der.Reader info = new Der.Reader(pkcs8).next().children();
        info.next();
        info.next();
        return info.next().content();
    }

    @Test
    void encryptedOrMissingKeysGetClearErrors() {
        assertThatThrownBy(() -> KeyMaterial.parsePrivateKey(
                "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n", "k.pem"))
                .hasMessageContaining("encrypted").hasMessageContaining("k.pem");
        assertThatThrownBy(() -> KeyMaterial.parsePrivateKey("no key here", "k.pem"))
                .hasMessageContaining("no PEM private key in k.pem");
    }
}
