package io.hikyaku.identity.sigv4;

import io.hikyaku.identity.Credential;
import io.hikyaku.identity.Secret;
import java.util.concurrent.ConcurrentHashMap;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Verifies AWS Signature Version 4, in the Authorization header or as presigned query parameters,
 * the way AWS's front door does, in its order of checks: both forms given, parts missing, date
 * format, the 15-minute window, host signed, algorithm, credential shape, scope, access key,
 * signature (constant-time), security token. Each failure is an {@link AuthException} with AWS's
 * code and text.
 */
public final class SigV4Verifier {

    public static final String ALGORITHM = "AWS4-HMAC-SHA256";
    /** How far a request's timestamp may be from the server's clock, either way. */
    public static final Duration MAX_SKEW = Duration.ofMinutes(15);
    /** Presigned validity bounds (X-Amz-Expires), as AWS: 1 second to 7 days. */
    public static final long MAX_EXPIRES_SECONDS = 604_800;
    /** The services this endpoint answers for; the scope decides which one a request is for. */
    public static final Set<String> SERVICES = Set.of("sqs", "sts", "monitoring", "lambda", "sns", "kms", "scheduler"); // SQS, STS, the CloudWatch API, the Lambda mapping API, SNS, KMS, EventBridge Scheduler
    private static final String[] KNOWN_SERVICES = {"sqs", "sts", "monitoring", "lambda", "sns", "kms", "scheduler"};

    static final DateTimeFormatter BASIC = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);
    private static final String BOTH = "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP header.";
    private static final DateTimeFormatter BASIC_LOCAL = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT);
    /** Derived signing keys are cached: four of the five HMACs of a verification depend only on key, day, region and service. */
    private static final int MAX_CACHED_SIGNING_KEYS = 10_000;

    private final Clock clock;
    private final CredentialLookup credentials;
    private final ConcurrentHashMap<String, CachedKey> signingKeys = new ConcurrentHashMap<>();
    /** The last timestamp parsed: concurrent clients sign within the same second, so most requests repeat it. */
    private volatile ParsedDate lastDate;
    /** The last SignedHeaders list: a client sends the same one with every request. */
    private volatile ParsedHeaders lastHeaders;
    /** The last credential scope: a client sends the same one all day. */
    private volatile Scope lastScope;

    private record ParsedDate(String text, Instant instant) {}

    private record ParsedHeaders(String text, List<String> names, String line) {}

    /** A derived key and the secret it was derived from (a rotated secret makes the entry stale). */
    private record CachedKey(Secret secret, byte[] key) {}

    public SigV4Verifier(Clock clock, CredentialLookup credentials) {
        this.clock = clock;
        this.credentials = credentials;
    }

    /** The outcome of a verified request. */
    public record Authenticated(Credential credential, String service, String region) {}

    /**
     * @return the verified credential, or null for a request that carries no signature at all (the
     *         anonymous caller; what it may do is authorization's business)
     * @throws AuthException for every request that tries to authenticate and fails
     */
    public Authenticated verify(SignedRequest request) {
        QueryParams query = QueryParams.parse(request.rawQuery());
        String authorization = request.header("authorization");
        boolean presigned = query.has("X-Amz-Algorithm");
        if (authorization != null && presigned) {
            throw new AuthException(AuthError.SIGNATURE_DOES_NOT_MATCH, BOTH);
        }
        if (authorization == null && !presigned) {
            if (SigV2.used(request, query)) {
                throw new AuthException(AuthError.INVALID_SECURITY, AuthException.NOT_SIGV4);
            }
            return null;
        }
        SigV4Parts parts = presigned ? fromQuery(query, request) : fromHeader(authorization, request);
        Instant date = date(parts.amzDate());
        checkTime(parts, date);
        if (!parts.signedHeaders().contains("host")) {
            throw new AuthException(AuthError.SIGNATURE_DOES_NOT_MATCH, "'Host' must be a 'SignedHeader' in the AWS Authorization.");
        }
        Scope scope = scope(parts.credential());
        if (scope == null) {
            throw new AuthException(AuthError.INCOMPLETE_SIGNATURE, "Credential must have exactly 5 slash-delimited elements, "
                    + "e.g. keyid/date/region/service/term, got '" + parts.credential() + "'");
        }
        checkScope(scope.parts(), parts.amzDate());
        Credential credential = credentials.find(scope.keyId())
                .orElseThrow(() -> new AuthException(AuthError.INVALID_CLIENT_TOKEN_ID, AuthException.INVALID_TOKEN));
        Scratch s = Scratch.get();
        s.sha256(request.body(), s.bodyHash);
        String declaredHash = request.header("x-amz-content-sha256");
        String payloadHash = declaredHash != null ? declaredHash.trim() : null; // null: the body's own
        // the canonical request, then the string to sign after it in the same builder, each hashed in place
        StringBuilder text = s.text;
        Canonical.appendRequest(text, request, parts.signedHeaders(), parts.signedHeaderLine(), presigned);
        if (payloadHash != null) {
            text.append(payloadHash);
        } else {
            Scratch.appendHex(text, s.bodyHash);
        }
        s.sha256(0, s.canonicalHash);
        int stringToSign = text.length();
        text.append(ALGORITHM).append('\n').append(parts.amzDate()).append('\n').append(scope.text()).append('\n');
        Scratch.appendHex(text, s.canonicalHash);
        s.hmac(signingKey(credential, scope), stringToSign);
        if (!Scratch.signatureMatches(parts.signature(), s.signature)
                | !(payloadHash == null || Scratch.isHexOf(payloadHash, s.bodyHash))) {
            throw new AuthException(AuthError.SIGNATURE_DOES_NOT_MATCH, AuthException.BAD_SIGNATURE);
        }
        checkToken(credential, parts.securityToken());
        return new Authenticated(credential, scope.parts()[3], scope.parts()[2]);
    }

    /**
     * A credential's five parts ({@code keyid/date/region/service/terminator}), the scope after the
     * key id (the string to sign's third line) and the key id with date, region and service (what
     * the signing key depends on); parsed once per credential text, as a client repeats it.
     */
    private record Scope(String credential, String[] parts, String text, String keyScope) {

        String keyId() {
            return parts[0];
        }
    }

    /** The credential's scope, reusing the last one for the same text; null unless it has exactly five parts. */
    private Scope scope(String credential) {
        Scope last = lastScope;
        if (last != null && last.credential().equals(credential)) {
            return last;
        }
        String[] parts = credential.split("/", -1);
        if (parts.length != 5) {
            return null;
        }
        int afterKey = parts[0].length() + 1;
        Scope scope = new Scope(credential, parts, credential.substring(afterKey),
                credential.substring(0, credential.length() - parts[4].length() - 1));
        lastScope = scope;
        return scope;
    }

    /**
     * The service a signed request's credential scope names ({@code sqs}, {@code sts}, ...), read
     * without verifying anything, for routing; null when the request is not SigV4-signed or the
     * scope cannot be read.
     */
    public static String scopeService(SignedRequest request) {
        String credential = null;
        String authorization = request.header("authorization");
        if (authorization != null) {
            int at = authorization.indexOf("Credential=");
            if (at >= 0) {
                int start = at + "Credential=".length();
                int end = start;
                while (end < authorization.length() && authorization.charAt(end) != ',' && authorization.charAt(end) != ' ') {
                    end++;
                }
                return fourthOfFive(authorization, start, end);
            }
        } else {
            credential = QueryParams.parse(request.rawQuery()).first("X-Amz-Credential");
        }
        if (credential == null) {
            return null;
        }
        return fourthOfFive(credential, 0, credential.length());
    }

    /**
     * The fourth of the five '/'-separated parts of text[start, end) (the scope's service), or null
     * when there are not exactly five; scanned in place, as this runs on every request.
     */
    private static String fourthOfFive(String text, int start, int end) {
        int third = -1;
        int fourth = -1;
        int slashes = 0;
        for (int i = start; i < end; i++) {
            if (text.charAt(i) == '/') {
                slashes++;
                if (slashes == 3) {
                    third = i;
                } else if (slashes == 4) {
                    fourth = i;
                } else if (slashes > 4) {
                    return null;
                }
            }
        }
        if (slashes != 4) {
            return null;
        }
        for (String known : KNOWN_SERVICES) { // the constant, not a new String per request
            if (isName(text, third + 1, fourth, known)) {
                return known;
            }
        }
        return text.substring(third + 1, fourth);
    }

    /** The access key id a request names (header or presigned query), unverified; null if none. */
    public static String accessKeyId(SignedRequest request) {
        String authorization = request.header("authorization");
        String credential = null;
        if (authorization != null) {
            int at = authorization.indexOf("Credential=");
            if (at >= 0) {
                credential = authorization.substring(at + "Credential=".length());
            }
        } else {
            credential = QueryParams.parse(request.rawQuery()).first("X-Amz-Credential");
        }
        if (credential == null) {
            return null;
        }
        int end = 0;
        while (end < credential.length() && "/, ".indexOf(credential.charAt(end)) < 0) {
            end++;
        }
        return end == 0 ? null : credential.substring(0, end);
    }

    private SigV4Parts fromHeader(String authorization, SignedRequest request) {
        String value = authorization.trim();
        int space = value.indexOf(' ');
        String algorithm = space == ALGORITHM.length() && value.startsWith(ALGORITHM) ? ALGORITHM
                : space < 0 ? value : value.substring(0, space);
        if (algorithm.equals("AWS") || value.startsWith("AWS ")) {
            throw new AuthException(AuthError.INVALID_SECURITY, AuthException.NOT_SIGV4);
        }
        String credential = null;
        String signedHeaders = null;
        String signature = null;
        if (space > 0) {
            // the comma-separated parts, each trimmed, as name=value (value trimmed), scanned in place;
            // a credential or SignedHeaders equal to the last one's is that same String, not a new one
            int from = space + 1;
            while (from <= value.length()) {
                int comma = value.indexOf(',', from);
                int to = comma < 0 ? value.length() : comma;
                int start = from;
                int end = to;
                from = to + 1;
                while (start < end && value.charAt(start) <= ' ') {
                    start++;
                }
                while (end > start && value.charAt(end - 1) <= ' ') {
                    end--;
                }
                int eq = value.indexOf('=', start);
                if (eq <= start || eq >= end) {
                    continue;
                }
                int valueStart = eq + 1;
                while (valueStart < end && value.charAt(valueStart) <= ' ') {
                    valueStart++;
                }
                if (isName(value, start, eq, "Credential")) {
                    Scope last = lastScope;
                    credential = same(value, valueStart, end, last == null ? null : last.credential());
                } else if (isName(value, start, eq, "SignedHeaders")) {
                    ParsedHeaders last = lastHeaders;
                    signedHeaders = same(value, valueStart, end, last == null ? null : last.text());
                } else if (isName(value, start, eq, "Signature")) {
                    signature = value.substring(valueStart, end);
                }
            }
        }
        String amzDate = request.header("x-amz-date");
        String date = amzDate != null ? amzDate.trim() : fromHttpDate(request.header("date"));
        StringBuilder missing = new StringBuilder();
        if (credential == null || credential.isEmpty()) {
            missing.append("Authorization header requires 'Credential' parameter. ");
        }
        if (signature == null || signature.isEmpty()) {
            missing.append("Authorization header requires 'Signature' parameter. ");
        }
        if (signedHeaders == null || signedHeaders.isEmpty()) {
            missing.append("Authorization header requires 'SignedHeaders' parameter. ");
        }
        if (date == null) {
            missing.append("Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. ");
        }
        if (missing.length() > 0) {
            throw new AuthException(AuthError.INCOMPLETE_SIGNATURE, missing + "Authorization=" + authorization);
        }
        if (!algorithm.equals(ALGORITHM)) {
            throw new AuthException(AuthError.INCOMPLETE_SIGNATURE,
                    "Unsupported AWS 'algorithm': '" + algorithm + "' (only AWS4-HMAC-SHA256 for now). ");
        }
        String token = request.header("x-amz-security-token");
        ParsedHeaders headers = signedHeaders(signedHeaders);
        return new SigV4Parts(false, credential, headers.names(), headers.line(), signature, date, -1,
                token == null ? null : token.trim());
    }

    private static boolean isName(String text, int start, int end, String name) {
        return end - start == name.length() && text.startsWith(name, start);
    }

    /** text[start, end), as {@code last} when that is the same text. */
    private static String same(String text, int start, int end, String last) {
        if (last != null && last.length() == end - start && text.startsWith(last, start)) {
            return last;
        }
        return text.substring(start, end);
    }

    private SigV4Parts fromQuery(QueryParams query, SignedRequest request) {
        StringBuilder missing = new StringBuilder();
        for (String name : List.of("X-Amz-Credential", "X-Amz-Signature", "X-Amz-SignedHeaders", "X-Amz-Date", "X-Amz-Expires")) {
            if (!query.has(name)) {
                missing.append("AWS query-string parameters must include '").append(name).append("'. ");
            }
        }
        if (missing.length() > 0) {
            throw new AuthException(AuthError.INCOMPLETE_SIGNATURE, missing + "Re-examine the query-string parameters.");
        }
        String algorithm = query.first("X-Amz-Algorithm");
        if (!ALGORITHM.equals(algorithm)) {
            throw new AuthException(AuthError.INCOMPLETE_SIGNATURE,
                    "Unsupported AWS 'algorithm': '" + algorithm + "' (only AWS4-HMAC-SHA256 for now). ");
        }
        String expiresText = query.first("X-Amz-Expires");
        long expires;
        try {
            expires = Long.parseLong(expiresText);
        } catch (NumberFormatException e) {
            throw new AuthException(AuthError.INCOMPLETE_SIGNATURE, "X-Amz-Expires should be a number");
        }
        if (expires < 1) {
            throw new AuthException(AuthError.INCOMPLETE_SIGNATURE, "X-Amz-Expires must be 1 or more");
        }
        if (expires > MAX_EXPIRES_SECONDS) {
            throw new AuthException(AuthError.INCOMPLETE_SIGNATURE, "X-Amz-Expires must be less than a week (in seconds) that is 604800");
        }
        String token = query.first("X-Amz-Security-Token");
        if (token == null) {
            token = request.header("x-amz-security-token");
        }
        ParsedHeaders headers = signedHeaders(query.first("X-Amz-SignedHeaders"));
        return new SigV4Parts(true, query.first("X-Amz-Credential"), headers.names(), headers.line(),
                query.first("X-Amz-Signature"), query.first("X-Amz-Date"), expires, token);
    }

    private byte[] signingKey(Credential credential, Scope scope) {
        String id = scope.keyScope();
        CachedKey cached = signingKeys.get(id);
        if (cached != null && cached.secret() == credential.secret()) {
            return cached.key();
        }
        String[] parts = scope.parts();
        byte[] key = Canonical.signingKey(credential.secret().reveal(), parts[1], parts[2], parts[3]);
        if (signingKeys.size() >= MAX_CACHED_SIGNING_KEYS) {
            signingKeys.clear(); // a day's keys are few; a full cache means churn, so start over
        }
        signingKeys.put(id, new CachedKey(credential.secret(), key));
        return key;
    }

    /** {@link #headerList} and its canonical line, reusing the last result for the same text (the list is immutable). */
    private ParsedHeaders signedHeaders(String text) {
        ParsedHeaders last = lastHeaders;
        if (last != null && last.text().equals(text)) {
            return last;
        }
        List<String> names = headerList(text);
        ParsedHeaders parsed = new ParsedHeaders(text, names, String.join(";", names));
        lastHeaders = parsed;
        return parsed;
    }

    private static List<String> headerList(String signedHeaders) {
        List<String> names = new ArrayList<>(Arrays.asList(signedHeaders.toLowerCase(Locale.ROOT).split(";")));
        names.replaceAll(String::trim);
        names.removeIf(String::isEmpty);
        names.sort(null);
        return List.copyOf(names);
    }

    /** {@link #parseDate}, reusing the last result for the same text. */
    private Instant date(String amzDate) {
        ParsedDate last = lastDate;
        if (last != null && last.text().equals(amzDate)) {
            return last.instant();
        }
        Instant parsed = parseDate(amzDate);
        lastDate = new ParsedDate(amzDate, parsed);
        return parsed;
    }

    static Instant parseDate(String amzDate) {
        if (amzDate == null || !isBasicDate(amzDate)) {
            throw badDate(amzDate);
        }
        Instant plain = plainDate(amzDate);
        if (plain != null) {
            return plain;
        }
        try {
            return LocalDateTime.parse(amzDate, BASIC_LOCAL).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw badDate(amzDate);
        }
    }

    /**
     * The instant of a basic-format date whose every field is plainly in range (day 1-28, which every
     * month has; hour 0-23, minute and second 0-59), read from its digits; null for any other date,
     * which the formatter then parses (and resolves or refuses) as before. Every client's date is
     * plain on 28 days of a month (year 0, which 'yyyy' refuses, is left to the formatter), and the formatter costs a microsecond per distinct date.
     */
    private static Instant plainDate(String d) {
        int year = digits(d, 0, 4);
        int month = digits(d, 4, 2);
        int day = digits(d, 6, 2);
        int hour = digits(d, 9, 2);
        int minute = digits(d, 11, 2);
        int second = digits(d, 13, 2);
        if (year < 1 || month < 1 || month > 12 || day < 1 || day > 28 || hour > 23 || minute > 59 || second > 59) {
            return null;
        }
        long epochDay = java.time.LocalDate.of(year, month, day).toEpochDay();
        return Instant.ofEpochSecond(epochDay * 86_400 + hour * 3_600L + minute * 60L + second);
    }

    /** The number written by the ASCII digits text[from, from + count) (checked by {@link #isBasicDate}). */
    private static int digits(String text, int from, int count) {
        int n = 0;
        for (int i = from; i < from + count; i++) {
            n = n * 10 + (text.charAt(i) - '0');
        }
        return n;
    }

    /** yyyyMMdd'T'HHmmss'Z' with ASCII digits (what the regex \\d{8}T\\d{6}Z accepts), without a regex. */
    private static boolean isBasicDate(String text) {
        if (text.length() != 16 || text.charAt(8) != 'T' || text.charAt(15) != 'Z') {
            return false;
        }
        for (int i = 0; i < 15; i++) {
            char c = text.charAt(i);
            if (i != 8 && (c < '0' || c > '9')) {
                return false;
            }
        }
        return true;
    }

    private static AuthException badDate(String value) {
        return new AuthException(AuthError.INCOMPLETE_SIGNATURE,
                "Date must be in ISO-8601 'basic format'. Got '" + value + "'. See http://en.wikipedia.org/wiki/ISO_8601");
    }

    /** An HTTP {@code Date} header (RFC 1123) in the basic format, or null. */
    private static String fromHttpDate(String date) {
        if (date == null) {
            return null;
        }
        try {
            return BASIC.format(ZonedDateTime.parse(date.trim(), DateTimeFormatter.RFC_1123_DATE_TIME));
        } catch (DateTimeParseException e) {
            return date.trim();
        }
    }

    /**
     * The 15-minute window, both ways. A presigned request's own expiry (date + X-Amz-Expires) gets
     * the same 15 minutes of grace, as AWS documents for pre-signed URLs ("more than 15 minutes
     * after the request expiration date").
     */
    private void checkTime(SigV4Parts parts, Instant date) {
        Instant now = clock.instant();
        Instant expiresAt = parts.presigned() ? date.plusSeconds(parts.expiresSeconds()) : date;
        Instant earliest = now.minus(MAX_SKEW);
        if (expiresAt.isBefore(earliest)) {
            throw new AuthException(AuthError.SIGNATURE_DOES_NOT_MATCH, "Signature expired: " + BASIC.format(expiresAt)
                    + " is now earlier than " + BASIC.format(earliest) + " (" + BASIC.format(now) + " - 15 min.)");
        }
        Instant latest = now.plus(MAX_SKEW);
        if (date.isAfter(latest)) {
            throw new AuthException(AuthError.SIGNATURE_DOES_NOT_MATCH, "Signature not yet current: " + BASIC.format(date)
                    + " is still later than " + BASIC.format(latest) + " (" + BASIC.format(now) + " + 15 min.)");
        }
    }

    /** Region, service, terminator and date of the scope; AWS reports every mismatch in one message. */
    private static void checkScope(String[] scope, String amzDate) {
        if (validRegion(scope[2]) && SERVICES.contains(scope[3]) && scope[4].equals("aws4_request")
                && scope[1].length() == 8 && amzDate.startsWith(scope[1])) {
            return; // all good: no message built (this runs for every request)
        }
        StringBuilder problems = new StringBuilder();
        if (!validRegion(scope[2])) {
            problems.append("Credential should be scoped to a valid region, not '").append(scope[2]).append("'. ");
        }
        if (!SERVICES.contains(scope[3])) {
            problems.append("Credential should be scoped to correct service: 'sqs'. ");
        }
        if (!scope[4].equals("aws4_request")) {
            problems.append("Credential should be scoped with a valid terminator: 'aws4_request', not '").append(scope[4]).append("'. ");
        }
        String day = amzDate.substring(0, 8);
        if (!scope[1].equals(day)) {
            problems.append("Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '")
                    .append(scope[1]).append("' != '").append(day).append("', from '").append(amzDate).append("'.");
        }
        if (problems.length() > 0) {
            throw new AuthException(AuthError.SIGNATURE_DOES_NOT_MATCH, problems.toString());
        }
    }

    /** [a-z0-9-]{1,64}, without a regex (this runs for every request). */
    private static boolean validRegion(String region) {
        if (region.isEmpty() || region.length() > 64) {
            return false;
        }
        for (int i = 0; i < region.length(); i++) {
            char c = region.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
                return false;
            }
        }
        return true;
    }

    private void checkToken(Credential credential, String token) {
        if (!credential.temporary()) {
            if (token != null && !token.isEmpty()) {
                throw new AuthException(AuthError.INVALID_CLIENT_TOKEN_ID, AuthException.INVALID_TOKEN);
            }
            return;
        }
        if (token == null || !credential.sessionToken().matches(token)) {
            throw new AuthException(AuthError.INVALID_CLIENT_TOKEN_ID, AuthException.INVALID_TOKEN);
        }
        if (!clock.instant().isBefore(credential.expiration())) {
            throw new AuthException(AuthError.EXPIRED_TOKEN, AuthException.EXPIRED_TOKEN);
        }
    }
}
