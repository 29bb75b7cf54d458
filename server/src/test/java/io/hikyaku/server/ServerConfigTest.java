package io.hikyaku.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServerConfigTest {

    @Test
    void defaultsMatchTheDocumentation() {
        ServerConfig c = ServerConfig.defaults();
        assertThat(c.host()).isEqualTo("127.0.0.1");
        assertThat(c.port()).isEqualTo(9324);
        assertThat(c.accountId()).isEqualTo("000000000000");
        assertThat(c.region()).isEqualTo("us-east-1");
        assertThat(c.advertisedUrl()).isNull();
        assertThat(c.storage()).isEqualTo(StorageMode.ROCKSDB);
        assertThat(c.dataDir()).isEqualTo(Path.of("data"));
        assertThat(c.durability()).isEqualTo(DurabilityMode.FSYNC);
        assertThat(c.maxBodyBytes()).isEqualTo(4 * 1024 * 1024);
        assertThat(c.queues()).isEmpty();
    }

    @Test
    void withMethodsChangeOneThingAndLeaveTheOriginal() {
        ServerConfig base = ServerConfig.defaults();
        ServerConfig c = base.withPort(0).withStorage(StorageMode.MEMORY).withAdvertisedUrl("http://q.local:80/")
                .withQueues(List.of(QueueDefinition.named("a")));
        assertThat(c.port()).isZero();
        assertThat(c.storage()).isEqualTo(StorageMode.MEMORY);
        assertThat(c.advertisedUrl()).isEqualTo("http://q.local:80");
        assertThat(c.queues()).extracting(QueueDefinition::name).containsExactly("a");
        assertThat(base.port()).isEqualTo(9324);
        assertThat(c.withAdvertisedUrl(null).advertisedUrl()).isNull();
    }

    @Test
    void invalidValuesAreRefused() {
        ServerConfig c = ServerConfig.defaults();
        assertThatThrownBy(() -> c.withPort(70000)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> c.withAccountId("123")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> c.withAdvertisedUrl("sqs.local")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> c.withMaxBodyBytes(10)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anEmptyHostOrRegionIsRefused() {
        ServerConfig c = ServerConfig.defaults();
        assertThatThrownBy(() -> c.withHost("")).hasMessageContaining("host must not be empty");
        assertThatThrownBy(() -> c.withHost("  ")).hasMessageContaining("host must not be empty");
        assertThatThrownBy(() -> c.withRegion("")).hasMessageContaining("region must be");
        assertThatThrownBy(() -> c.withRegion("us:east")).hasMessageContaining("region must be");
        assertThat(c.withRegion("eu-west-3").region()).isEqualTo("eu-west-3");
    }

    @Test
    void anAdvertisedUrlWithAQueryOrFragmentIsRefused() {
        ServerConfig c = ServerConfig.defaults();
        assertThatThrownBy(() -> c.withAdvertisedUrl("http://sqs.local:9324?x=1"))
                .hasMessageContaining("must not have a query or fragment");
        assertThatThrownBy(() -> c.withAdvertisedUrl("http://sqs.local:9324/#top"))
                .hasMessageContaining("must not have a query or fragment");
        assertThatThrownBy(() -> c.withAdvertisedUrl("http://")).hasMessageContaining("advertised URL");
        assertThatThrownBy(() -> c.withAdvertisedUrl("http://bad host")).hasMessageContaining("not a valid URL");
        assertThat(c.withAdvertisedUrl("https://sqs.example.com/prefix/").advertisedUrl()).isEqualTo("https://sqs.example.com/prefix");
    }
}
