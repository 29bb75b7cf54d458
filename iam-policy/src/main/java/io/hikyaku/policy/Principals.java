package io.hikyaku.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A statement's Principal (or NotPrincipal): {@code "*"} / {@code {"AWS": "*"}} (everyone, anonymous
 * callers included), and in {@code "AWS"} an account ({@code "123456789012"} or
 * {@code arn:aws:iam::123456789012:root}: every principal of that account, not only its root, as a
 * delegation to the account), a
 * user, a role (every session of that role), an assumed-role session or federated user ARN, or a
 * user / role unique id (AIDA..., AROA...). {@code "Service"} names a service principal;
 * {@code "Federated"} and {@code "CanonicalUser"} are accepted and never match (this server has no
 * such callers). Principals allow no partial wildcards: only a lone {@code *}.
 */
public final class Principals {

    /**
     * How a principal element matched, weakest first: the caller's whole account (a delegation: the
     * account's identities still need identity-policy permission), a broader grant that names no
     * single identity ("*", a role for its sessions, a service), or exactly this identity (user, session).
     */
    enum Match { NONE, ACCOUNT, GENERAL, EXACT }

    private enum Kind { ACCOUNT, USER, ROLE, SESSION, FEDERATED_USER, USER_ID, ROLE_ID }

    private record Entry(Kind kind, String account, String value) {}

    private static final String PARTITION = "arn:aws(?:-cn|-us-gov|-iso|-iso-b)?:";
    private static final Pattern ACCOUNT_ID = Pattern.compile("\\d{12}");
    private static final Pattern ROOT = Pattern.compile(PARTITION + "iam::(\\d{12}):root");
    private static final Pattern USER = Pattern.compile(PARTITION + "iam::(\\d{12}):user/(?:[^/]+/)*[^/]+");
    private static final Pattern ROLE = Pattern.compile(PARTITION + "iam::(\\d{12}):role/(?:[^/]+/)*([^/]+)");
    private static final Pattern SESSION = Pattern.compile(PARTITION + "sts::(\\d{12}):assumed-role/[^/]+/[^/]+");
    private static final Pattern FEDERATED = Pattern.compile(PARTITION + "sts::(\\d{12}):federated-user/[^/]+");
    private static final Pattern UNIQUE_ID = Pattern.compile("(AIDA|AROA)[A-Z0-9]{8,}");

    private final boolean everyone;
    private final List<Entry> aws;
    private final List<String> services;
    private final int count;

    private Principals(boolean everyone, List<Entry> aws, List<String> services, int count) {
        this.everyone = everyone;
        this.aws = List.copyOf(aws);
        this.services = List.copyOf(services);
        this.count = count;
    }

    static Principals everyone() {
        return new Principals(true, List.of(), List.of(), 1);
    }

    /** From the parsed {@code AWS}, {@code Service}, {@code Federated} and {@code CanonicalUser} lists. */
    static Principals of(List<String> awsValues, List<String> serviceValues, List<String> federated,
                         List<String> canonicalUsers) throws PolicyException {
        boolean everyone = false;
        List<Entry> entries = new ArrayList<>();
        for (String v : awsValues) {
            if (v.equals("*")) {
                everyone = true;
            } else {
                entries.add(entry(v));
            }
        }
        for (String s : serviceValues) {
            if (s.isEmpty() || s.indexOf('*') >= 0 || s.indexOf('?') >= 0) {
                throw new PolicyException("Invalid service principal \"" + s + "\"");
            }
        }
        int count = awsValues.size() + serviceValues.size() + federated.size() + canonicalUsers.size();
        return new Principals(everyone, entries, serviceValues, count);
    }

    private static Entry entry(String v) throws PolicyException {
        if (v.indexOf('*') >= 0 || v.indexOf('?') >= 0) {
            throw new PolicyException("Invalid principal \"" + v + "\": a principal can be \"*\" but cannot contain wildcards");
        }
        if (ACCOUNT_ID.matcher(v).matches()) {
            return new Entry(Kind.ACCOUNT, v, v);
        }
        Matcher m;
        if ((m = ROOT.matcher(v)).matches()) {
            return new Entry(Kind.ACCOUNT, m.group(1), v);
        }
        if ((m = USER.matcher(v)).matches()) {
            return new Entry(Kind.USER, m.group(1), v);
        }
        if ((m = ROLE.matcher(v)).matches()) {
            return new Entry(Kind.ROLE, m.group(1), m.group(2));
        }
        if ((m = SESSION.matcher(v)).matches()) {
            return new Entry(Kind.SESSION, m.group(1), v);
        }
        if ((m = FEDERATED.matcher(v)).matches()) {
            return new Entry(Kind.FEDERATED_USER, m.group(1), v);
        }
        if ((m = UNIQUE_ID.matcher(v)).matches()) {
            return new Entry(m.group(1).equals("AIDA") ? Kind.USER_ID : Kind.ROLE_ID, null, v);
        }
        throw new PolicyException("Invalid principal \"" + v + "\": not an account id, \"*\" or an IAM user, role or session ARN");
    }

    /** How many principals the element names (the SQS quota counts these). */
    int count() {
        return count;
    }

    Match match(RequestContext c) {
        if (everyone) {
            return Match.GENERAL;
        }
        if (c.isAnonymous()) {
            return Match.NONE;
        }
        if (c.principalType() == PrincipalType.SERVICE) {
            for (String s : services) {
                if (s.equalsIgnoreCase(c.principalArn())) {
                    return Match.GENERAL;
                }
            }
            return Match.NONE;
        }
        Match best = Match.NONE;
        for (Entry e : aws) {
            Match m = matchOne(e, c);
            if (m == Match.EXACT) {
                return m;
            }
            if (m.compareTo(best) > 0) {
                best = m;
            }
        }
        return best;
    }

    /**
     * NotPrincipal: whether every facet of the caller is named, so that the statement leaves it out.
     * AWS checks a caller as its account, then its user; an assumed-role session as its account, its
     * role, then the session: a NotPrincipal naming the user but not the account still covers the
     * user (which is why AWS says to list the account too).
     */
    boolean namesEveryFacet(RequestContext c) {
        if (everyone) {
            return true;
        }
        if (c.isAnonymous()) {
            return false;
        }
        if (c.principalType() == PrincipalType.SERVICE) {
            return match(c) != Match.NONE;
        }
        if (!named(c, Kind.ACCOUNT)) {
            return false;
        }
        return switch (c.principalType()) {
            case USER -> named(c, Kind.USER) || named(c, Kind.USER_ID);
            case ASSUMED_ROLE -> (named(c, Kind.ROLE) || named(c, Kind.ROLE_ID)) && named(c, Kind.SESSION);
            case FEDERATED_USER -> named(c, Kind.FEDERATED_USER);
            default -> true;
        };
    }

    private boolean named(RequestContext c, Kind facet) {
        for (Entry e : aws) {
            if (e.kind() == facet && matchOne(e, c) != Match.NONE) {
                return true;
            }
        }
        return false;
    }

    private static Match matchOne(Entry e, RequestContext c) {
        String arn = c.principalArn();
        return switch (e.kind()) {
            case ACCOUNT -> e.account().equals(c.account()) ? Match.ACCOUNT : Match.NONE;
            case USER, SESSION, FEDERATED_USER -> e.value().equals(arn) ? Match.EXACT : Match.NONE;
            case ROLE -> c.principalType() == PrincipalType.ASSUMED_ROLE && e.account().equals(c.account())
                    && e.value().equals(roleOfSession(arn)) ? Match.GENERAL : Match.NONE;
            case USER_ID -> e.value().equals(c.userId()) ? Match.EXACT : Match.NONE;
            case ROLE_ID -> c.userId() != null && c.userId().startsWith(e.value() + ":") ? Match.GENERAL : Match.NONE;
        };
    }

    /** The role name of {@code arn:aws:sts::ACCT:assumed-role/ROLE/SESSION}, or null. */
    private static String roleOfSession(String arn) {
        if (arn == null) {
            return null;
        }
        int i = arn.indexOf(":assumed-role/");
        if (i < 0) {
            return null;
        }
        String rest = arn.substring(i + ":assumed-role/".length());
        int slash = rest.indexOf('/');
        return slash < 0 ? null : rest.substring(0, slash);
    }
}
