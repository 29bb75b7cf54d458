package io.hikyaku.policy;

/**
 * An IPv4 or IPv6 CIDR block ({@code 203.0.113.0/24}, {@code 2001:db8::/32}; a bare address is a
 * single host). Addresses are parsed here as literals only, never through name resolution. An
 * IPv4-mapped IPv6 address ({@code ::ffff:203.0.113.5}) is compared as its IPv4 address.
 */
final class IpRange {
    private final byte[] network;
    private final int prefix;

    private IpRange(byte[] network, int prefix) {
        this.network = network;
        this.prefix = prefix;
    }

    static IpRange parse(String cidr) throws PolicyException {
        String text = cidr.trim();
        int slash = text.indexOf('/');
        byte[] address = address(slash < 0 ? text : text.substring(0, slash));
        if (address == null) {
            throw new PolicyException("Invalid IP address or CIDR block: \"" + cidr + "\"");
        }
        int bits = address.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            String p = text.substring(slash + 1);
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')
                    || Integer.parseInt(p) > bits) {
                throw new PolicyException("Invalid IP address or CIDR block: \"" + cidr + "\"");
            }
            prefix = Integer.parseInt(p);
        }
        return new IpRange(address, prefix);
    }

    boolean contains(String ip) {
        byte[] a = address(ip.trim());
        if (a == null || a.length != network.length) {
            return false;
        }
        int full = prefix / 8;
        for (int i = 0; i < full; i++) {
            if (a[i] != network[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xFF << (8 - rest)) & 0xFF;
        return (a[full] & mask) == (network[full] & mask);
    }

    /** 4 or 16 bytes (a mapped IPv4 address becomes 4), or null if {@code s} is no address literal. */
    static byte[] address(String s) {
        if (s.indexOf(':') >= 0) {
            byte[] v6 = ipv6(s);
            if (v6 != null && isMappedIpv4(v6)) {
                return new byte[] {v6[12], v6[13], v6[14], v6[15]};
            }
            return v6;
        }
        return ipv4(s);
    }

    private static boolean isMappedIpv4(byte[] a) {
        for (int i = 0; i < 10; i++) {
            if (a[i] != 0) {
                return false;
            }
        }
        return a[10] == (byte) 0xFF && a[11] == (byte) 0xFF;
    }

    private static byte[] ipv4(String s) {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] out = new byte[4];
        for (int i = 0; i < 4; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return null;
            }
            int v = Integer.parseInt(p);
            if (v > 255) {
                return null;
            }
            out[i] = (byte) v;
        }
        return out;
    }

    private static byte[] ipv6(String s) {
        int gap = s.indexOf("::");
        if (gap >= 0 && s.indexOf("::", gap + 1) >= 0) {
            return null;
        }
        String head = gap < 0 ? s : s.substring(0, gap);
        String tail = gap < 0 ? "" : s.substring(gap + 2);
        int[] left = groups(head);
        int[] right = groups(tail);
        if (left == null || right == null) {
            return null;
        }
        int total = left.length + right.length;
        if ((gap < 0 && total != 8) || (gap >= 0 && total > 7)) {
            return null;
        }
        byte[] out = new byte[16];
        for (int i = 0; i < left.length; i++) {
            out[2 * i] = (byte) (left[i] >> 8);
            out[2 * i + 1] = (byte) left[i];
        }
        int start = 8 - right.length;
        for (int i = 0; i < right.length; i++) {
            out[2 * (start + i)] = (byte) (right[i] >> 8);
            out[2 * (start + i) + 1] = (byte) right[i];
        }
        return out;
    }

    /** 16-bit groups of one side of "::"; a trailing dotted IPv4 counts as two groups. */
    private static int[] groups(String side) {
        if (side.isEmpty()) {
            return new int[0];
        }
        String[] parts = side.split(":", -1);
        int[] out = new int[parts.length + 1];
        int n = 0;
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            if (i == parts.length - 1 && p.indexOf('.') >= 0) {
                byte[] v4 = ipv4(p);
                if (v4 == null) {
                    return null;
                }
                out[n++] = ((v4[0] & 0xFF) << 8) | (v4[1] & 0xFF);
                out[n++] = ((v4[2] & 0xFF) << 8) | (v4[3] & 0xFF);
                continue;
            }
            if (p.isEmpty() || p.length() > 4) {
                return null;
            }
            int v = 0;
            for (int k = 0; k < p.length(); k++) {
                int d = Character.digit(p.charAt(k), 16);
                if (d < 0) {
                    return null;
                }
                v = (v << 4) | d;
            }
            out[n++] = v;
        }
        return java.util.Arrays.copyOf(out, n);
    }
}
