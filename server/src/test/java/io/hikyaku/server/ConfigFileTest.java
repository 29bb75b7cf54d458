package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.server.config.ConfigException;
import io.hikyaku.server.config.ConfigFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ConfigFileTest {

    static final String EXAMPLE = """
            server:
              host: 0.0.0.0
              port: 9500
              accountId: 000000000012
              region: eu-central-1
              advertisedUrl: http://sqs.internal:9500
              storage: memory
              dataDir: /var/lib/hikyaku
              durability: batch
              maxBodyBytes: 2097152
              cooldowns: off
            queues:
              - name: orders
                attributes:
                  VisibilityTimeout: 45
                  ReceiveMessageWaitTimeSeconds: 20
                tags:
                  team: shop
                deadLetterQueue: orders-dlq
                maxReceiveCount: 3
              - name: orders-dlq
                attributes:
                  MessageRetentionPeriod: 1209600
              - name: events.fifo
                attributes:
                  ContentBasedDeduplication: true
                  Policy:
                    Version: "2012-10-17"
                    Statement: []
            """;

    @Test
    void readsServerSettingsAndQueues() {
        ConfigFile f = ConfigFile.parse(EXAMPLE);
        assertThat(f.settings().host()).isEqualTo("0.0.0.0");
        assertThat(f.settings().port()).isEqualTo(9500);
        assertThat(f.settings().accountId()).isEqualTo("000000000012"); // not octal 10
        assertThat(f.settings().region()).isEqualTo("eu-central-1");
        assertThat(f.settings().advertisedUrl()).isEqualTo("http://sqs.internal:9500");
        assertThat(f.settings().storage()).isEqualTo(StorageMode.MEMORY);
        assertThat(f.settings().dataDir()).isEqualTo(Path.of("/var/lib/hikyaku"));
        assertThat(f.settings().durability()).isEqualTo(DurabilityMode.BATCH);
        assertThat(f.settings().maxBodyBytes()).isEqualTo(2097152);
        assertThat(f.settings().cooldowns()).isEqualTo(Cooldowns.OFF);

        assertThat(f.queues()).extracting(QueueDefinition::name).containsExactly("orders", "orders-dlq", "events.fifo");
        QueueDefinition orders = f.queues().get(0);
        assertThat(orders.attributes()).containsEntry("VisibilityTimeout", "45").containsEntry("ReceiveMessageWaitTimeSeconds", "20");
        assertThat(orders.tags()).containsEntry("team", "shop");
        assertThat(orders.deadLetterQueue()).isEqualTo("orders-dlq");
        assertThat(orders.maxReceiveCount()).isEqualTo(3);
        QueueDefinition events = f.queues().get(2);
        assertThat(events.attributes()).containsEntry("ContentBasedDeduplication", "true")
                .containsEntry("Policy", "{\"Version\":\"2012-10-17\",\"Statement\":[]}");
    }

    @Test
    void emptyFileMeansNothingSet() {
        assertThat(ConfigFile.parse("")).isEqualTo(ConfigFile.EMPTY);
        assertThat(ConfigFile.parse("server:\n").settings().port()).isNull();
    }

    @Test
    void mistakesAreReportedWithWhere() {
        assertThatThrownBy(() -> ConfigFile.parse("server:\n  prot: 1\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("server").hasMessageContaining("prot");
        assertThatThrownBy(() -> ConfigFile.parse("server:\n  port: nine\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("port");
        assertThatThrownBy(() -> ConfigFile.parse("server:\n  storage: disk\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("storage");
        assertThatThrownBy(() -> ConfigFile.parse("queues:\n  - attributes: {}\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("queues[0]").hasMessageContaining("name");
        assertThatThrownBy(() -> ConfigFile.parse("queues:\n  - name: a\n    deadLetterQueue: b\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("maxReceiveCount");
        assertThatThrownBy(() -> ConfigFile.parse("queues: [a: 1: 2"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("YAML");
        assertThatThrownBy(() -> ConfigFile.parse("server:\n  port: 1\n  port: 2\n"))
                .isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> ConfigFile.load(Path.of("/nonexistent/hikyaku.yaml")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("cannot read config file /nonexistent/hikyaku.yaml: No such file");
        Path dir = Path.of(System.getProperty("java.io.tmpdir"));
        assertThatThrownBy(() -> ConfigFile.load(dir))
                .isInstanceOf(ConfigException.class).hasMessage("cannot read config file " + dir + ": is a directory");
    }
}
