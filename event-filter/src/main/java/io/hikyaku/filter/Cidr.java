package io.hikyaku.filter;

import com.fasterxml.jackson.databind.JsonNode;
import io.hikyaku.policy.IpAddressLiteral;
import java.math.BigInteger;

/**
 * SNS's {@code {"cidr": "10.0.0.0/24"}} rule: matches a string value that is an IP address inside the block.
 * Addresses are parsed as literals only (never a name lookup) by the one parser, {@link IpAddressLiteral}.
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
        return IpAddressLiteral.parse(s);
    }
}
