package io.hikyaku.sns;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where the server may send HTTP deliveries ({@code --outbound-allow}): a comma-separated list of {@code *}
 * (anywhere), CIDRs or single addresses ({@code 10.0.0.0/8}, {@code ::1}), host names ({@code hooks.example.com})
 * and host suffixes ({@code .example.com} or {@code *.example.com}). The default is loopback only, so that a caller
 * cannot make an SQS server reach cloud metadata or internal admin ports (SSRF).
 * <p>
 * An IP literal must lie in a listed CIDR. A host name must match a listed name or suffix; it is never resolved to
 * decide (a Subscribe to {@code http://example.com/} under the default sends nothing, not even a DNS query). At
 * delivery the allowed name is resolved and the connection goes to an address that is not link-local (cloud
 * metadata) unless a listed CIDR names it; the checked address is the one connected to (no second lookup).
 */
public final class OutboundAllowList {

    public static final String DEFAULT = "127.0.0.0/8,::1/128,localhost";

    private final boolean anywhere;
    private final List<Cidr> cidrs;
    private final List<String> names;
    private final List<String> suffixes;
    private final String text;

    private OutboundAllowList(boolean anywhere, List<Cidr> cidrs, List<String> names, List<String> suffixes, String text) {
        this.anywhere = anywhere;
        this.cidrs = cidrs;
        this.names = names;
        this.suffixes = suffixes;
        this.text = text;
    }

    public static OutboundAllowList loopbackOnly() {
        return parse(DEFAULT);
    }

    /** @throws IllegalArgumentException naming the entry that is neither {@code *}, a CIDR nor a host name */
    public static OutboundAllowList parse(String text) {
        boolean anywhere = false;
        List<Cidr> cidrs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<String> suffixes = new ArrayList<>();
        for (String raw : text.split(",")) {
            String e = raw.trim().toLowerCase(Locale.ROOT);
            if (e.isEmpty()) {
                continue;
            }
            if (e.equals("*")) {
                anywhere = true;
            } else if (Cidr.looksLikeAddress(e)) {
                try {
                    cidrs.add(Cidr.parse(e));
                } catch (IllegalArgumentException bad) {
                    throw new IllegalArgumentException("outbound allow entry \"" + raw.trim() + "\": " + bad.getMessage());
                }
            } else if (e.startsWith("*.") || e.startsWith(".")) {
                String suffix = e.substring(e.indexOf('.'));
                requireHostName(suffix.substring(1), raw);
                suffixes.add(suffix);
            } else {
                requireHostName(e, raw);
                names.add(e);
            }
        }
        return new OutboundAllowList(anywhere, List.copyOf(cidrs), List.copyOf(names), List.copyOf(suffixes), text.trim());
    }

    private static void requireHostName(String name, String entry) {
        if (!name.matches("[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*")) {
            throw new IllegalArgumentException("outbound allow entry must be *, a CIDR, an address, a host name or "
                    + ".suffix: \"" + entry.trim() + "\"");
        }
    }

    @Override
    public String toString() {
        return text;
    }

    /** Why {@code endpoint} may not be subscribed (no lookup is made), or null when it may. */
    public String refusal(URI endpoint) {
        String host = host(endpoint);
        if (host == null) {
            return "the endpoint names no host";
        }
        if (anywhere) {
            return null;
        }
        if (Cidr.looksLikeAddress(host)) {
            InetAddress address;
            try {
                address = Cidr.literal(host);
            } catch (IllegalArgumentException e) {
                return "the host " + host + " is not an IP address in dotted or colon form";
            }
            return inCidrs(address) ? null : "the address " + host + " is not in the server's outbound allow-list";
        }
        return nameAllowed(host) ? null : "the host " + host + " is not in the server's outbound allow-list";
    }

    /**
     * The address to connect to for {@code endpoint}, checked now (the list, then the resolved address).
     * @throws java.io.IOException when the host does not resolve, or is refused (as an {@link Refused})
     */
    public InetAddress resolve(URI endpoint) throws java.io.IOException {
        String why = refusal(endpoint);
        if (why != null) {
            throw new Refused(why);
        }
        String host = host(endpoint);
        if (Cidr.looksLikeAddress(host)) {
            return Cidr.literal(host);
        }
        InetAddress[] all;
        try {
            all = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            throw new java.io.IOException("the host " + host + " does not resolve");
        }
        for (InetAddress a : all) {
            if (!(a.isLinkLocalAddress() || a.isAnyLocalAddress() || a.isMulticastAddress()) || inCidrs(a)) {
                return a;
            }
        }
        throw new Refused("the host " + host + " resolves only to link-local or unroutable addresses");
    }

    /** A destination the allow-list refuses: a permanent failure, never retried. */
    public static final class Refused extends java.io.IOException {
        Refused(String message) {
            super(message);
        }
    }

    private boolean nameAllowed(String host) {
        if (names.contains(host)) {
            return true;
        }
        for (String s : suffixes) {
            if (host.endsWith(s) && host.length() > s.length()) {
                return true;
            }
        }
        return false;
    }

    private boolean inCidrs(InetAddress a) {
        for (Cidr c : cidrs) {
            if (c.contains(a)) {
                return true;
            }
        }
        return false;
    }

    private static String host(URI endpoint) {
        String host = endpoint.getHost();
        if (host == null || host.isEmpty()) {
            return null;
        }
        host = host.toLowerCase(Locale.ROOT);
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /** An address block; a bare address is a block of one. */
    record Cidr(byte[] network, int bits) {

        static boolean looksLikeAddress(String s) {
            String a = s.contains("/") ? s.substring(0, s.indexOf('/')) : s;
            return a.contains(":") || a.matches("[0-9.]+");
        }

        /** Parses an IP literal without any name lookup. */
        static InetAddress literal(String s) {
            if (!s.contains(":") && !s.matches("(\\d{1,3}\\.){3}\\d{1,3}")) {
                throw new IllegalArgumentException("not an IP address: \"" + s + "\"");
            }
            if (s.contains(":") && !s.matches("[0-9a-f:.]+")) {
                throw new IllegalArgumentException("not an IP address: \"" + s + "\"");
            }
            try {
                return InetAddress.getByName(s); // a literal: no lookup
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("not an IP address: \"" + s + "\"");
            }
        }

        static Cidr parse(String s) {
            int slash = s.indexOf('/');
            byte[] network = literal(slash < 0 ? s : s.substring(0, slash)).getAddress();
            int bits = network.length * 8;
            if (slash >= 0) {
                try {
                    bits = Integer.parseInt(s.substring(slash + 1));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("bad prefix length in \"" + s + "\"");
                }
                if (bits < 0 || bits > network.length * 8) {
                    throw new IllegalArgumentException("bad prefix length in \"" + s + "\"");
                }
            }
            return new Cidr(network, bits);
        }

        boolean contains(InetAddress a) {
            byte[] b = a.getAddress();
            if (b.length != network.length) {
                return false;
            }
            for (int i = 0; i < bits; i++) {
                int mask = 0x80 >> (i % 8);
                if ((b[i / 8] & mask) != (network[i / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }
}
