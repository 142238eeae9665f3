package dev.shuttle.client.dns;

/** Tells an IP address literal from a host name without resolving anything. */
public final class AddressLiterals {
    private AddressLiterals() {
    }

    /** IPv6 (it has a colon: a host name cannot) or dotted IPv4 digits. */
    public static boolean isLiteral(String host) {
        if (host.indexOf(':') >= 0) {
            return true;
        }
        int dots = 0;
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (c == '.') {
                dots++;
            } else if (c < '0' || c > '9') {
                return false;
            }
        }
        return dots == 3;
    }
}
