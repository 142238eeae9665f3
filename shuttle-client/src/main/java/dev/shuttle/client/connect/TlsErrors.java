package dev.shuttle.client.connect;

import dev.shuttle.client.Origin;
import java.io.EOFException;
import java.io.IOException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import javax.net.ssl.SSLHandshakeException;

/**
 * Turns JSSE's handshake failures into messages that say what is wrong in the caller's terms: a certificate nobody
 * trusts, a certificate for another host, a plaintext server on the port, a server that hung up. The JSSE exception
 * stays the cause, and the type stays {@link SSLHandshakeException} (or the original I/O exception).
 */
final class TlsErrors {
    private TlsErrors() {
    }

    static IOException explain(Origin origin, IOException failure) {
        String detail = failure.getMessage() == null ? failure.toString() : failure.getMessage();
        String what;
        if (failure instanceof SSLHandshakeException && detail.contains("plaintext HTTP")) {
            what = detail;
        } else if (causedBy(failure, CertPathValidatorException.class) || detail.contains("PKIX path")) {
            what = "the server's certificate is not trusted (no trusted authority signed it; for a private CA, pass"
                    + " an SSLContext that trusts it)";
        } else if (detail.contains("No subject alternative") || detail.contains("No name matching")) {
            what = "the server's certificate does not name " + origin.host();
        } else if (causedBy(failure, CertificateException.class)) {
            what = "the server's certificate was rejected";
        } else if (failure instanceof EOFException) {
            what = "the server closed the connection during the handshake (is it a TLS port?)";
        } else {
            what = "the handshake failed";
        }
        String message = "TLS handshake with " + origin + ": " + what + " [" + detail + "]";
        IOException explained = failure instanceof SSLHandshakeException || !(failure instanceof EOFException)
                ? new SSLHandshakeException(message) : new EOFException(message);
        explained.initCause(failure);
        return explained;
    }

    private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
