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
        byte[] a = IpAddressLiteral.parse(s);
        if (a != null && a.length == 16 && isMappedIpv4(a)) {
            return new byte[] {a[12], a[13], a[14], a[15]};
        }
        return a;
    }

    private static boolean isMappedIpv4(byte[] a) {
        for (int i = 0; i < 10; i++) {
            if (a[i] != 0) {
                return false;
            }
        }
        return a[10] == (byte) 0xFF && a[11] == (byte) 0xFF;
    }
}
