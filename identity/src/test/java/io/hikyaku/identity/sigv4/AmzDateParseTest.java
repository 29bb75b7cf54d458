package io.hikyaku.identity.sigv4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link SigV4Verifier#parseDate} reads plain dates from their digits: it must give exactly what the
 * formatter gives (the instant, or the refusal) for every date, plain or not.
 */
class AmzDateParseTest {

    private static final DateTimeFormatter FORMATTER = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT);

    /** The formatter's answer: the instant, or null when it refuses the text. */
    private static Instant byFormatter(String text) {
        try {
            return LocalDateTime.parse(text, FORMATTER).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException refused) {
            return null;
        }
    }

    private static void sameAsTheFormatter(String text) {
        Instant expected = byFormatter(text);
        if (expected == null) {
            assertThatThrownBy(() -> SigV4Verifier.parseDate(text)).as(text).isInstanceOf(AuthException.class)
                    .hasMessageStartingWith("Date must be in ISO-8601 'basic format'. Got '" + text + "'.");
        } else {
            assertThat(SigV4Verifier.parseDate(text)).as(text).isEqualTo(expected);
        }
    }

    @Test
    void everyFieldCombinationGivesTheFormattersAnswer() {
        Random random = new Random(35);
        for (int i = 0; i < 20_000; i++) {
            String text = String.format(Locale.ROOT, "%04d%02d%02dT%02d%02d%02dZ", random.nextInt(10_000), random.nextInt(14),
                    random.nextInt(33), random.nextInt(26), random.nextInt(62), random.nextInt(62));
            sameAsTheFormatter(text);
        }
    }

    @Test
    void theEdgesGiveTheFormattersAnswer() {
        for (String text : new String[] {"20260207T120000Z", "20261231T235959Z", "20260101T000000Z", "20260228T000000Z",
                "20240229T120000Z", "20250229T120000Z", "20260231T120000Z", "20260431T120000Z", "20260132T120000Z",
                "20260100T120000Z", "20260001T120000Z", "20261301T120000Z", "20260101T240000Z", "20260101T236000Z",
                "20260101T235960Z", "00000101T000000Z", "00010101T000000Z", "99991231T235959Z"}) {
            sameAsTheFormatter(text);
        }
        assertThat(SigV4Verifier.parseDate("20261207T113445Z")).isEqualTo(Instant.parse("2026-12-07T11:34:45Z"));
    }
}
