package io.hikyaku.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.server.HikyakuServer;
import io.hikyaku.server.SecurityConfig;
import io.hikyaku.server.cluster.ClusterSettings;
import io.hikyaku.server.config.ConfigException;
import io.hikyaku.server.http.ConnectionLimits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code serve --node-id --cluster}: layering, and the refusals before anything is opened. */
class ClusterFlagTest {

    static final String PEERS = "n1=127.0.0.1:9601,n2=127.0.0.1:9602,n3=127.0.0.1:9603";

    @TempDir
    Path dir;

    @Test
    void noClusterByDefaultThenFileEnvironmentFlags() throws Exception {
        assertThat(new ServeCommand(Map.of()).resolveCluster()).isEqualTo(ClusterSettings.NONE);
        Path config = dir.resolve("hikyaku.yaml");
        Files.writeString(config, "cluster:\n  nodeId: n1\n  peers:\n    - {id: n1, address: \"127.0.0.1:9601\"}\n");
        assertThat(new ServeCommand(Map.of()).resolveCluster("--config", config.toString()))
                .isEqualTo(new ClusterSettings("n1", "n1=127.0.0.1:9601"));
        ServeCommand withEnv = new ServeCommand(Map.of("HIKYAKU_NODE_ID", "n2", "HIKYAKU_CLUSTER", PEERS));
        assertThat(withEnv.resolveCluster("--config", config.toString())).isEqualTo(new ClusterSettings("n2", PEERS));
        assertThat(withEnv.resolveCluster("--node-id", "n3")).isEqualTo(new ClusterSettings("n3", PEERS));
        assertThat(new ServeCommand(Map.of()).resolveCluster("--node-id", "n1", "--cluster", PEERS))
                .isEqualTo(new ClusterSettings("n1", PEERS));
    }

    @Test
    void startRefusesMemoryStorageAStrangerNodeAndConfiguredQueuesBeforeOpeningAnything() throws Exception {
        ServeCommand serve = new ServeCommand(Map.of());
        Path data = dir.resolve("data");
        assertThatThrownBy(() -> HikyakuServer.start(serve.resolveConfig("--storage", "memory", "--port", "0"),
                SecurityConfig.defaults(), ConnectionLimits.DEFAULTS, new ClusterSettings("n1", PEERS)))
                .isInstanceOf(ConfigException.class).hasMessageContaining("--cluster needs --storage rocksdb");
        assertThatThrownBy(() -> HikyakuServer.start(serve.resolveConfig("--data-dir", data.toString(), "--port", "0"),
                SecurityConfig.defaults(), ConnectionLimits.DEFAULTS, new ClusterSettings("n7", PEERS)))
                .isInstanceOf(ConfigException.class).hasMessageContaining("--node-id n7 is not among");
        Path config = dir.resolve("queues.yaml");
        Files.writeString(config, "queues:\n  - name: orders\n");
        assertThatThrownBy(() -> HikyakuServer.start(serve.resolveConfig("--config", config.toString(), "--data-dir",
                        data.toString(), "--port", "0"), SecurityConfig.defaults(), ConnectionLimits.DEFAULTS,
                new ClusterSettings("n1", PEERS)))
                .isInstanceOf(ConfigException.class).hasMessageContaining("queues are not created in cluster mode");
        assertThatThrownBy(() -> HikyakuServer.start(serve.resolveConfig("--data-dir", data.toString(), "--port", "0",
                        "--journal", dir.resolve("j").toString()), SecurityConfig.defaults(), ConnectionLimits.DEFAULTS,
                new ClusterSettings("n1", PEERS)))
                .isInstanceOf(ConfigException.class).hasMessageContaining("--journal is not available in cluster mode");
        assertThat(data).doesNotExist(); // refused before the store was opened
    }
}
