package dev.shuttle.lab.tls;

import dev.shuttle.transport.tls.TlsInfo;
import java.security.cert.Certificate;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SSLPeerUnverifiedException;

/** What {@code get -v} prints about a TLS session, in curl's words where curl has some. */
public final class TlsDetails {
    private static final DateTimeFormatter DATE =
            DateTimeFormatter.ofPattern("MMM d HH:mm:ss yyyy 'GMT'", Locale.ROOT).withZone(ZoneOffset.UTC);
    /** subjectAltName entry types of RFC 5280 that servers use: dNSName and iPAddress. */
    private static final int SAN_DNS = 2;
    private static final int SAN_IP = 7;

    private TlsDetails() {
    }

    /**
     * The server's certificate as curl -v shows it (subject, dates, names, issuer), or one line saying why it is not
     * known. A resumed session still knows the certificate of the handshake it resumes.
     */
    public static List<String> certificateLines(TlsInfo tls) {
        List<String> lines = new ArrayList<>();
        if (tls.session() == null) {
            return lines;
        }
        Certificate[] chain;
        try {
            chain = tls.session().getPeerCertificates();
        } catch (SSLPeerUnverifiedException e) {
            lines.add("Server certificate: not known (" + e.getMessage() + ")");
            return lines;
        }
        if (chain.length == 0 || !(chain[0] instanceof X509Certificate leaf)) {
            lines.add("Server certificate: none");
            return lines;
        }
        lines.add("Server certificate (chain of " + chain.length + "):");
        lines.add(" subject: " + leaf.getSubjectX500Principal().getName());
        lines.add(" start date: " + DATE.format(leaf.getNotBefore().toInstant()));
        lines.add(" expire date: " + DATE.format(leaf.getNotAfter().toInstant()));
        String names = subjectAltNames(leaf);
        if (!names.isEmpty()) {
            lines.add(" subjectAltName: " + names);
        }
        lines.add(" issuer: " + leaf.getIssuerX500Principal().getName());
        return lines;
    }

    private static String subjectAltNames(X509Certificate certificate) {
        Collection<List<?>> entries;
        try {
            entries = certificate.getSubjectAlternativeNames();
        } catch (CertificateParsingException e) {
            return "unreadable (" + e.getMessage() + ")";
        }
        if (entries == null) {
            return "";
        }
        List<String> names = new ArrayList<>();
        for (List<?> entry : entries) {
            int type = (Integer) entry.get(0);
            if (type == SAN_DNS) {
                names.add("DNS:" + entry.get(1));
            } else if (type == SAN_IP) {
                names.add("IP:" + entry.get(1));
            }
        }
        return String.join(", ", names);
    }
}
