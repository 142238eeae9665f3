package dev.shuttle.client.proxy;

import java.net.IDN;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The hosts that bypass the proxy, by the rules of Go's {@code httpproxy.Config} for {@code NO_PROXY}: a
 * comma-separated list of IP addresses ({@code 10.0.0.1}, {@code [::1]}), CIDR blocks ({@code 10.0.0.0/8}), and domain
 * names, each optionally with {@code :port}. A name matches itself and every subdomain ({@code example.com} matches
 * {@code api.example.com}); a leading dot or {@code *.} matches subdomains only. {@code *} alone matches everything.
 * Read from the environment, {@code localhost} and loopback addresses never go through a proxy, whatever the list
 * says (Go's rule). Malformed entries are ignored, as Go ignores them. Immutable.
 */
public final class NoProxy {
    private final boolean loopbackDirect;
    private final boolean all;
    private final List<Cidr> cidrs;
    private final List<AddressEntry> addresses;
    private final List<DomainEntry> domains;

    private NoProxy(boolean loopbackDirect, boolean all, List<Cidr> cidrs, List<AddressEntry> addresses,
                    List<DomainEntry> domains) {
        this.loopbackDirect = loopbackDirect;
        this.all = all;
        this.cidrs = cidrs;
        this.addresses = addresses;
        this.domains = domains;
    }

    /**
     * Parses a {@code NO_PROXY} value; null or empty bypasses nothing (but localhost and loopback, with
     * {@code loopbackDirect}).
     */
    public static NoProxy parse(String value, boolean loopbackDirect) {
        List<Cidr> cidrs = new ArrayList<>();
        List<AddressEntry> addresses = new ArrayList<>();
        List<DomainEntry> domains = new ArrayList<>();
        if (value == null) {
            return new NoProxy(loopbackDirect, false, cidrs, addresses, domains);
        }
        for (String raw : value.split(",")) {
            String entry = raw.trim().toLowerCase(Locale.ROOT);
            if (entry.isEmpty()) {
                continue;
            }
            if (entry.equals("*")) {
                return new NoProxy(loopbackDirect, true, List.of(), List.of(), List.of());
            }
            Cidr cidr = Cidr.parse(entry);
            if (cidr != null) {
                cidrs.add(cidr);
                continue;
            }
            String host = entry;
            String port = "";
            int colon = entry.lastIndexOf(':');
            boolean bracketed = entry.startsWith("[");
            if (colon > 0 && (bracketed ? entry.indexOf(']') == colon - 1 : entry.indexOf(':') == colon)) {
                host = entry.substring(0, colon);
                port = entry.substring(colon + 1);
                if (host.isEmpty()) {
                    continue;
                }
            }
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            byte[] ip = Addresses.literal(host);
            if (ip != null) {
                addresses.add(new AddressEntry(ip, port));
                continue;
            }
            if (host.isEmpty()) {
                continue;
            }
            if (host.startsWith("*.")) {
                host = host.substring(1);
            }
            boolean matchesItself = !host.startsWith(".");
            String suffix = matchesItself ? "." + host : host;
            try {
                suffix = IDN.toASCII(suffix, IDN.ALLOW_UNASSIGNED).toLowerCase(Locale.ROOT);
            } catch (IllegalArgumentException e) {
                // keep it as written: Go keeps an entry IDNA cannot map
            }
            domains.add(new DomainEntry(suffix, port, matchesItself));
        }
        return new NoProxy(loopbackDirect, false, List.copyOf(cidrs), List.copyOf(addresses), List.copyOf(domains));
    }

    /**
     * Whether a request to {@code host} (lower case, IPv6 without brackets) on {@code port} goes to the proxy.
     */
    public boolean useProxy(String host, int port) {
        String h = host.toLowerCase(Locale.ROOT);
        if (loopbackDirect && h.equals("localhost")) {
            return false;
        }
        byte[] ip = Addresses.literal(h);
        if (loopbackDirect && ip != null && isLoopback(ip)) {
            return false;
        }
        if (all) {
            return false;
        }
        String p = Integer.toString(port);
        if (ip != null) {
            for (Cidr cidr : cidrs) {
                if (cidr.contains(ip)) {
                    return false;
                }
            }
            for (AddressEntry address : addresses) {
                byte[] same = Addresses.sameFamily(ip, address.ip.length);
                if (same != null && Arrays.equals(address.ip, same)
                        && (address.port.isEmpty() || address.port.equals(p))) {
                    return false;
                }
            }
        }
        for (DomainEntry domain : domains) {
            if ((h.endsWith(domain.suffix) || (domain.matchesItself && h.equals(domain.suffix.substring(1))))
                    && (domain.port.isEmpty() || domain.port.equals(p))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isLoopback(byte[] ip) {
        try {
            return InetAddress.getByAddress(ip).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private record AddressEntry(byte[] ip, String port) {
    }

    private record DomainEntry(String suffix, String port, boolean matchesItself) {
    }

    /** An address block: the address and how many leading bits must match. */
    private record Cidr(byte[] network, int bits) {
        static Cidr parse(String entry) {
            int slash = entry.indexOf('/');
            if (slash <= 0) {
                return null;
            }
            byte[] network = Addresses.literal(entry.substring(0, slash));
            int bits;
            try {
                bits = Integer.parseInt(entry.substring(slash + 1));
            } catch (NumberFormatException e) {
                return null;
            }
            if (network == null || bits < 0 || bits > network.length * 8) {
                return null;
            }
            return new Cidr(network, bits);
        }

        boolean contains(byte[] ip) {
            byte[] candidate = ip;
            if (candidate.length != network.length) {
                candidate = Addresses.sameFamily(ip, network.length);
                if (candidate == null) {
                    return false;
                }
            }
            int full = bits / 8;
            for (int i = 0; i < full; i++) {
                if (candidate[i] != network[i]) {
                    return false;
                }
            }
            int rest = bits % 8;
            if (rest == 0) {
                return true;
            }
            int mask = 0xff << (8 - rest);
            return (candidate[full] & mask) == (network[full] & mask);
        }
    }
}
