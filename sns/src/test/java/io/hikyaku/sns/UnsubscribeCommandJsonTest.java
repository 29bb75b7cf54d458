package io.hikyaku.sns;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** Journal lines of Unsubscribe: the restore token round-trips, and lines written before it still read. */
class UnsubscribeCommandJsonTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void roundTripAndOlderLines() throws Exception {
        SnsCommand c = new SnsCommand.Unsubscribe("000000000000", "arn:s", "tok", 42L);
        assertThat(JSON.readValue(JSON.writeValueAsString(c), SnsCommand.class)).isEqualTo(c);
        assertThat(JSON.readValue("{\"type\":\"Unsubscribe\",\"account\":\"000000000000\",\"subscriptionArn\":\"arn:s\"}",
                SnsCommand.class)).isEqualTo(new SnsCommand.Unsubscribe("000000000000", "arn:s", null, 0L));
    }
}
