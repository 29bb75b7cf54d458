package io.hikyaku.filter;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;

/**
 * SNS's {@code {"cidr": "10.0.0.0/24"}} rule: matches a string value that is an IP address inside the block.
 * Addresses are parsed as literals only (never a name lookup): IPv4 dotted quads and IPv6 in colon form.
 */
final class Cidr extends ValueRule {

    private final int bits;
    private final BigInteger network;
    private final int prefix;

    private Cidr(int bits, BigInteger network, int prefix) {
        this.bits = bits;
        this.network = network;
        this.prefix = prefix;
    }

    static Cidr compile(String text) throws FilterPolicyException {
        int slash = text.indexOf('/');
        if (slash < 0 || slash != text.lastIndexOf('/')) {
            throw new FilterPolicyException("FilterPolicy: Malformed CIDR, one '/' required");
        }
        String address = text.substring(0, slash);
        byte[] raw = parseAddress(address);
        if (raw == null) {
            throw new FilterPolicyException("FilterPolicy: Nonstandard IP address: " + address);
        }
        int bits = raw.length * 8;
        int prefix;
        try {
            prefix = Integer.parseInt(text.substring(slash + 1));
        } catch (NumberFormatException e) {
            prefix = -1;
        }
        if (prefix < 0 || prefix > bits) {
            throw new FilterPolicyException("FilterPolicy: Malformed CIDR, mask bits must be an integer");
        }
        return new Cidr(bits, mask(new BigInteger(1, raw), bits, prefix), prefix);
    }

    private static BigInteger mask(BigInteger value, int bits, int prefix) {
        return value.shiftRight(bits - prefix);
    }

    @Override
    boolean matches(JsonNode value) {
        if (!value.isTextual()) {
            return false;
        }
        byte[] raw = parseAddress(value.asText());
        return raw != null && raw.length * 8 == bits && mask(new BigInteger(1, raw), bits, prefix).equals(network);
    }

    /** The address's bytes (4 or 16), or null when it is not a literal IPv4 or IPv6 address. */
    static byte[] parseAddress(String s) {
        if (s.indexOf(':') >= 0) {
            return parseIpv6(s);
        }
        return parseIpv4(s);
    }

    private static byte[] parseIpv4(String s) {
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

    private static byte[] parseIpv6(String s) {
        int gap = s.indexOf("::");
        if (gap >= 0 && s.indexOf("::", gap + 1) >= 0) {
            return null;
        }
        String head = gap >= 0 ? s.substring(0, gap) : s;
        String tail = gap >= 0 ? s.substring(gap + 2) : "";
        int[] h = groups(head);
        int[] t = groups(tail);
        if (h == null || t == null) {
            return null;
        }
        int total = h.length + t.length;
        if (gap < 0 ? total != 8 : total > 7) {
            return null;
        }
        byte[] out = new byte[16];
        for (int i = 0; i < h.length; i++) {
            out[2 * i] = (byte) (h[i] >> 8);
            out[2 * i + 1] = (byte) h[i];
        }
        for (int i = 0; i < t.length; i++) {
            int at = 8 - t.length + i;
            out[2 * at] = (byte) (t[i] >> 8);
            out[2 * at + 1] = (byte) t[i];
        }
        return out;
    }

    private static int[] groups(String part) {
        if (part.isEmpty()) {
            return new int[0];
        }
        String[] g = part.split(":", -1);
        int[] out = new int[g.length];
        for (int i = 0; i < g.length; i++) {
            String x = g[i];
            if (x.isEmpty() || x.length() > 4 || !x.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
                return null;
            }
            out[i] = Integer.parseInt(x, 16);
        }
        return out;
    }
}
