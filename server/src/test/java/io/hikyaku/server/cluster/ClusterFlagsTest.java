package io.hikyaku.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hikyaku.server.StorageMode;
import io.hikyaku.server.config.ConfigException;
import io.hikyaku.server.config.ConfigFile;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code --node-id}/{@code --cluster}, HIKYAKU_NODE_ID/HIKYAKU_CLUSTER and the config file's cluster section. */
class ClusterFlagsTest {

    static final String PEERS = "n1=127.0.0.1:9601,n2=127.0.0.1:9602,n3=127.0.0.1:9603";

    @Test
    void theConfigFilesSectionBecomesThePeerList() {
        ConfigFile file = ConfigFile.parse("""
                cluster:
                  nodeId: n2
                  peers:
                    - {id: n1, address: "127.0.0.1:9601"}
                    - {id: n2, address: "127.0.0.1:9602"}
                    - {id: n3, address: "127.0.0.1:9603"}
                """);
        assertThat(file.cluster()).isEqualTo(new ClusterSettings("n2", PEERS));
        assertThat(file.cluster().validate(StorageMode.ROCKSDB)).containsExactly(
                new ClusterSettings.Member("n1", "127.0.0.1", 9601), new ClusterSettings.Member("n2", "127.0.0.1", 9602),
                new ClusterSettings.Member("n3", "127.0.0.1", 9603));
        assertThat(ConfigFile.parse("server:\n  port: 1\n").cluster()).isEqualTo(ClusterSettings.NONE);
    }

    @Test
    void aMistypedSectionIsAnError() {
        assertThatThrownBy(() -> ConfigFile.parse("cluster:\n  nodeid: n1\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("unknown key 'nodeid'");
        assertThatThrownBy(() -> ConfigFile.parse("cluster:\n  peers: n1=127.0.0.1:1\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("peers: must be a list");
        assertThatThrownBy(() -> ConfigFile.parse("cluster:\n  peers: [{id: n1}]\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("needs both id and address");
        assertThatThrownBy(() -> ConfigFile.parse("cluster:\n  peers: [{id: n1, host: h}]\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("unknown key 'host'");
    }

    @Test
    void fileThenEnvironmentThenFlagsOneSettingAtATime() {
        ClusterSettings file = new ClusterSettings("n1", PEERS);
        ClusterSettings env = ClusterSettings.fromEnvironment(Map.of("HIKYAKU_NODE_ID", "n3", "HIKYAKU_CLUSTER", ""));
        assertThat(env).isEqualTo(new ClusterSettings("n3", null)); // empty: not given
        ClusterSettings flags = new ClusterSettings(null, "n3=127.0.0.1:1,n4=127.0.0.1:2,n5=127.0.0.1:3");
        assertThat(flags.over(env.over(file))).isEqualTo(new ClusterSettings("n3", "n3=127.0.0.1:1,n4=127.0.0.1:2,n5=127.0.0.1:3"));
        assertThat(ClusterSettings.NONE.over(ClusterSettings.NONE).enabled()).isFalse();
    }

    @Test
    void refusals() {
        assertThatThrownBy(() -> new ClusterSettings("n1", PEERS).validate(StorageMode.MEMORY))
                .isInstanceOf(ConfigException.class).hasMessageContaining("--cluster needs --storage rocksdb");
        assertThatThrownBy(() -> new ClusterSettings(null, PEERS).validate(StorageMode.ROCKSDB))
                .hasMessageContaining("--cluster needs --node-id");
        assertThatThrownBy(() -> new ClusterSettings("n9", PEERS).validate(StorageMode.ROCKSDB))
                .hasMessageContaining("--node-id n9 is not among the --cluster peers [n1, n2, n3]");
        assertThatThrownBy(() -> new ClusterSettings("n1", null).validate(StorageMode.ROCKSDB))
                .hasMessageContaining("--node-id (HIKYAKU_NODE_ID, cluster.nodeId) needs --cluster");
        assertThatThrownBy(() -> new ClusterSettings("n1", "n1=127.0.0.1:9601,n1=127.0.0.1:9602").validate(StorageMode.ROCKSDB))
                .hasMessageContaining("'n1' appears twice");
        for (String bad : List.of("n1", "n1=127.0.0.1", "n1=:9601", "=127.0.0.1:9601", "n1=127.0.0.1:", "n1=127.0.0.1:x")) {
            assertThatThrownBy(() -> new ClusterSettings("n1", bad).validate(StorageMode.ROCKSDB)).as(bad)
                    .isInstanceOf(ConfigException.class).hasMessageStartingWith("--cluster: ");
        }
        assertThatThrownBy(() -> new ClusterSettings("n1", "n1=127.0.0.1:70000").validate(StorageMode.ROCKSDB))
                .hasMessageContaining("not 1..65535");
        assertThatThrownBy(() -> new ClusterSettings("n/1", "n/1=127.0.0.1:1").validate(StorageMode.ROCKSDB))
                .hasMessageContaining("must be 1 to 64 letters");
        assertThat(ClusterSettings.NONE.validate(StorageMode.MEMORY)).isEmpty(); // no cluster: nothing changes
        assertThat(new ClusterSettings("a", "a=[::1]:9601").validate(StorageMode.ROCKSDB))
                .containsExactly(new ClusterSettings.Member("a", "::1", 9601));
    }
}
