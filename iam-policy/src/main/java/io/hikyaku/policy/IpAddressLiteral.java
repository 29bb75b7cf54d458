package io.hikyaku.policy;

/**
 * An IP address literal: IPv4 dotted quad ({@code 203.0.113.5}) or IPv6 in colon form
 * ({@code 2001:db8::1}, a dotted IPv4 tail allowed: {@code ::ffff:203.0.113.5}). Parsed as text only,
 * never through name resolution (a host name is no literal). Shared by IAM's {@code IpAddress}
 * condition operator ({@link IpRange}) and SNS filter policies' {@code cidr} rule (event-filter).
 */
public final class IpAddressLiteral {

    private IpAddressLiteral() {}

    /** The address's bytes, 4 (IPv4) or 16 (IPv6, mapped IPv4 kept as 16), or null when {@code s} is no literal. */
    public static byte[] parse(String s) {
        if (s == null) {
            return null;
        }
        return s.indexOf(':') >= 0 ? ipv6(s) : ipv4(s);
    }

    static byte[] ipv4(String s) {
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
