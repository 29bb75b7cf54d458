package io.hikyaku.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Wildcard matching costs at most one pass over the pattern's words per text character (issue 35: a
 * 7,600-character StringLike pattern against 30,000-character User-Agents cost 0.4-0.75 s each with
 * the backtracking matcher), agrees with a plain recursive matcher, and the limits around it hold.
 */
class WildcardMatchingTest {

    private static Wildcard like(String pattern) {
        try {
            return Wildcard.compile(pattern, true, false);
        } catch (PolicyException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void theAdversarialPatternCostsAtMostOnePassOverThePatternPerCharacter() {
        // the backtracking matcher retried the whole tail after each star: ~n*m = 228 million steps here
        String pattern = "*" + "a*".repeat(10) + "a".repeat(7_578) + "b";
        String text = "a".repeat(30_000);
        long[] steps = {0};
        assertThat(like(pattern).matches(text, null, false, steps)).isFalse();
        long wordsPerCharacter = pattern.length() / 64 + 1;
        assertThat(steps[0]).isLessThanOrEqualTo(text.length() * wordsPerCharacter).isLessThan(4_000_000);

        long[] starsOnly = {0};
        assertThat(like("*?".repeat(3_800)).matches(text, null, false, starsOnly)).isTrue();
        assertThat(starsOnly[0]).isLessThanOrEqualTo(text.length() * wordsPerCharacter);
    }

    @Test
    void agreesWithAReferenceMatcherOnRandomInputs() {
        Random random = new Random(35);
        String alphabet = "ab*?";
        for (int i = 0; i < 20_000; i++) {
            String pattern = randomString(random, alphabet, 8);
            String text = randomString(random, "abc", 10);
            boolean ignoreCase = random.nextBoolean();
            if (ignoreCase && random.nextBoolean()) {
                text = text.toUpperCase();
            }
            assertThat(like(pattern).matches(text, null, ignoreCase))
                    .as("'%s' against '%s' (ignoreCase %s)", pattern, text, ignoreCase)
                    .isEqualTo(reference(pattern, 0, text, 0, ignoreCase));
        }
    }

    @Test
    void matchesCodePointsAndLiteralsAsBefore() {
        assertThat(like("arn:aws:sqs:*:111111111111:orders-?").matches("arn:aws:sqs:us-east-1:111111111111:orders-1", null, false)).isTrue();
        assertThat(like("arn:aws:sqs:*:111111111111:orders-?").matches("arn:aws:sqs:us-east-1:111111111111:orders-12", null, false)).isFalse();
        assertThat(like("emoji-?").matches("emoji-\uD83D\uDE00", null, false)).isTrue();
        assertThat(like("sqs:Send*").matches("SQS:SENDMESSAGE", null, true)).isTrue();
        assertThat(like("").matches("", null, false)).isTrue();
        assertThat(like("*").matches("", null, false)).isTrue();
        assertThat(like("?").matches("", null, false)).isFalse();
        // a pattern longer than 64 symbols spans several words of the automaton
        String longPattern = "x".repeat(70) + "*" + "y".repeat(70);
        assertThat(like(longPattern).matches("x".repeat(70) + "zzz" + "y".repeat(70), null, false)).isTrue();
        assertThat(like(longPattern).matches("x".repeat(70) + "zzz" + "y".repeat(69), null, false)).isFalse();
    }

    @Test
    void aPolicyStringLongerThanTheLimitIsRefused() {
        String longValue = "a".repeat(PolicyParser.MAX_PATTERN_LENGTH + 1);
        assertThatThrownBy(() -> Policy.parse(Policies.json("{'Version':'2012-10-17','Statement':{'Effect':'Allow','Action':'*',"
                + "'Resource':'*','Condition':{'StringLike':{'aws:UserAgent':'" + longValue + "'}}}}"), PolicyKind.IDENTITY))
                .isInstanceOf(PolicyException.class).hasMessageContaining("longer than the 2048 allowed");
        assertThatThrownBy(() -> Policy.parse(Policies.json("{'Version':'2012-10-17','Statement':{'Effect':'Allow','Action':'*',"
                + "'Resource':'arn:aws:sqs:us-east-1:111111111111:" + longValue + "'}}"), PolicyKind.IDENTITY))
                .isInstanceOf(PolicyException.class).hasMessageContaining("longer than the 2048 allowed");
        Policies.identity("{'Version':'2012-10-17','Statement':{'Effect':'Allow','Action':'*','Resource':'*',"
                + "'Condition':{'StringLike':{'aws:UserAgent':'" + "a".repeat(PolicyParser.MAX_PATTERN_LENGTH) + "'}}}}");
    }

    @Test
    void aRequestValueLongerThanTheLimitFailsClosed() {
        Policy allow = Policies.identity("{'Version':'2012-10-17','Statement':{'Effect':'Allow','Action':'*','Resource':'*',"
                + "'Condition':{'StringLike':{'aws:UserAgent':'*'}}}}");
        Policy deny = Policies.identity("{'Version':'2012-10-17','Statement':{'Effect':'Deny','Action':'*','Resource':'*',"
                + "'Condition':{'StringLike':{'aws:UserAgent':'*sqlmap*'}}}}");
        String atLimit = "x".repeat(RequestContext.MAX_VALUE_LENGTH);
        String overLimit = atLimit + "x";
        assertThat(allow.allows(withUserAgent(atLimit))).isNotEqualTo(Principals.Match.NONE);
        assertThat(allow.allows(withUserAgent(overLimit))).isEqualTo(Principals.Match.NONE);
        assertThat(deny.denies(withUserAgent(atLimit))).isFalse();
        assertThat(deny.denies(withUserAgent(overLimit))).isTrue();
    }

    private static RequestContext withUserAgent(String userAgent) {
        return new RequestContext("arn:aws:iam::111111111111:user/alice", "111111111111", PrincipalType.USER,
                "AIDAALICE", "alice", "sqs:SendMessage", Contexts.QUEUE_ARN, "111111111111",
                Map.of("aws:UserAgent", List.of(userAgent)));
    }

    private static String randomString(Random random, String alphabet, int maxLength) {
        StringBuilder b = new StringBuilder();
        int length = random.nextInt(maxLength + 1);
        for (int i = 0; i < length; i++) {
            b.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return b.toString();
    }

    /** The definition, by exhaustive recursion (exponential, fine for short strings). */
    private static boolean reference(String p, int i, String t, int j, boolean ignoreCase) {
        if (i == p.length()) {
            return j == t.length();
        }
        char c = p.charAt(i);
        if (c == '*') {
            return reference(p, i + 1, t, j, ignoreCase) || (j < t.length() && reference(p, i, t, j + 1, ignoreCase));
        }
        if (j == t.length()) {
            return false;
        }
        boolean same = c == '?' || c == t.charAt(j)
                || (ignoreCase && Character.toLowerCase(c) == Character.toLowerCase(t.charAt(j)));
        return same && reference(p, i + 1, t, j + 1, ignoreCase);
    }
}
