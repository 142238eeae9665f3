package dev.shuttle.client.proxy;

/**
 * IP address literals read without name resolution (InetAddress.getByName would resolve a name): what NO_PROXY's
 * rules compare. IPv4-mapped IPv6 addresses compare as IPv4, as Go's {@code net.IP} does.
 */
final class Addresses {
    private Addresses() {
    }

    /** The bytes of an IPv4 or IPv6 literal (no brackets, no zone), or null when {@code text} is not one. */
    static byte[] literal(String text) {
        if (text.isEmpty()) {
            return null;
        }
        if (text.indexOf(':') >= 0) {
            return ipv6(text);
        }
        return ipv4(text);
    }

    /** {@code ip} as an address of {@code length} bytes (4 or 16), or null when it has no such form. */
    static byte[] sameFamily(byte[] ip, int length) {
        if (ip.length == length) {
            return ip;
        }
        if (length == 4 && ip.length == 16 && isMapped(ip)) {
            return java.util.Arrays.copyOfRange(ip, 12, 16);
        }
        if (length == 16 && ip.length == 4) {
            byte[] mapped = new byte[16];
            mapped[10] = (byte) 0xff;
            mapped[11] = (byte) 0xff;
            System.arraycopy(ip, 0, mapped, 12, 4);
            return mapped;
        }
        return null;
    }

    private static boolean isMapped(byte[] ip) {
        for (int i = 0; i < 10; i++) {
            if (ip[i] != 0) {
                return false;
            }
        }
        return ip[10] == (byte) 0xff && ip[11] == (byte) 0xff;
    }

    private static byte[] ipv4(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] out = new byte[4];
        for (int i = 0; i < 4; i++) {
            String part = parts[i];
            if (part.isEmpty() || part.length() > 3 || (part.length() > 1 && part.charAt(0) == '0')) {
                return null;
            }
            int value = 0;
            for (int j = 0; j < part.length(); j++) {
                char c = part.charAt(j);
                if (c < '0' || c > '9') {
                    return null;
                }
                value = value * 10 + (c - '0');
            }
            if (value > 255) {
                return null;
            }
            out[i] = (byte) value;
        }
        return out;
    }

    private static byte[] ipv6(String text) {
        if (text.indexOf('%') >= 0) {
            return null;
        }
        byte[] tail4 = null;
        String body = text;
        int lastColon = text.lastIndexOf(':');
        if (text.indexOf('.', lastColon) >= 0) {
            tail4 = ipv4(text.substring(lastColon + 1));
            if (tail4 == null) {
                return null;
            }
            body = text.substring(0, lastColon + 1) + "0:0";
        }
        int gap = body.indexOf("::");
        if (gap >= 0 && body.indexOf("::", gap + 1) >= 0) {
            return null;
        }
        String[] head = gap < 0 ? body.split(":", -1) : body.substring(0, gap).isEmpty() ? new String[0]
                : body.substring(0, gap).split(":", -1);
        String[] tail = gap < 0 ? new String[0] : body.substring(gap + 2).isEmpty() ? new String[0]
                : body.substring(gap + 2).split(":", -1);
        if (gap < 0 ? head.length != 8 : head.length + tail.length > 7) {
            return null;
        }
        byte[] out = new byte[16];
        if (!groups(head, out, 0)) {
            return null;
        }
        if (!groups(tail, out, 16 - tail.length * 2)) {
            return null;
        }
        if (tail4 != null) {
            System.arraycopy(tail4, 0, out, 12, 4);
        }
        return out;
    }

    private static boolean groups(String[] groups, byte[] out, int offset) {
        for (int i = 0; i < groups.length; i++) {
            String group = groups[i];
            if (group.isEmpty() || group.length() > 4) {
                return false;
            }
            int value;
            try {
                value = Integer.parseInt(group, 16);
            } catch (NumberFormatException e) {
                return false;
            }
            out[offset + 2 * i] = (byte) (value >>> 8);
            out[offset + 2 * i + 1] = (byte) value;
        }
        return true;
    }
}
