package io.hikyaku.server.sse;

import io.hikyaku.api.sse.DataKeyCache;
import io.hikyaku.api.sse.MessageEncryption;
import io.hikyaku.kms.KmsService;
import io.hikyaku.metrics.HikyakuMetrics;
import io.micrometer.core.instrument.FunctionCounter;
import java.time.Clock;

/**
 * Encryption at rest of message data, as the server runs it: the key service's data keys, the server's clock
 * (the data key reuse period), and two counters in {@code /metrics}:
 * {@code hikyaku_sse_data_keys_generated_total} (data keys made: one per queue, key and principal per reuse
 * period, or per 2^30 messages) and {@code hikyaku_sse_data_keys_decrypted_total} (data keys opened for receives).
 */
public final class MessageEncryptionWiring {

    private MessageEncryptionWiring() {
    }

    /** @param metrics the server's metrics, or null when they are off */
    public static MessageEncryption of(KmsService kms, Clock clock, HikyakuMetrics metrics) {
        MessageEncryption encryption = new MessageEncryption(new KmsSseKeys(kms.dataKeys()), clock, DataKeyCache.DEFAULT_MAX_USES);
        if (metrics != null) {
            DataKeyCache cache = encryption.cache();
            FunctionCounter.builder("hikyaku.sse.data.keys.generated", cache, DataKeyCache::generated)
                    .description("Data keys generated for encrypting messages at rest (SSE-SQS and SSE-KMS)")
                    .register(metrics.registry());
            FunctionCounter.builder("hikyaku.sse.data.keys.decrypted", cache, DataKeyCache::decrypted)
                    .description("Data keys decrypted for opening messages encrypted at rest")
                    .register(metrics.registry());
        }
        return encryption;
    }
}
