package io.hikyaku.cluster;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClusterConfigTest {

    @Test
    void parsesTheClusterList() {
        ClusterConfig c = ClusterConfig.parse("n2", "n1=127.0.0.1:9601, n2=127.0.0.1:9602,n3=[::1]:9603");
        assertThat(c.nodeId()).isEqualTo("n2");
        assertThat(c.peers()).containsExactly(new ClusterConfig.Peer("n1", "127.0.0.1", 9601),
                new ClusterConfig.Peer("n2", "127.0.0.1", 9602), new ClusterConfig.Peer("n3", "::1", 9603));
        assertThat(c.self().port()).isEqualTo(9602);
        assertThat(c.peers().get(2).address()).isEqualTo("[::1]:9603");
        assertThat(ClusterConfig.parse("solo", "solo=localhost:7000").peers()).hasSize(1);
    }

    @Test
    void refusesWhatIsWrongWithAClearText() {
        assertThatThrownBy(() -> ClusterConfig.parse("n4", "n1=127.0.0.1:9601,n2=127.0.0.1:9602"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'n4' is not in the cluster list (n1, n2)");
        assertThatThrownBy(() -> ClusterConfig.parse("n1", "n1=127.0.0.1:9601,n1=127.0.0.1:9602"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("node id 'n1' appears more than once");
        assertThatThrownBy(() -> ClusterConfig.parse("n1", "n1=127.0.0.1:9601,n2=127.0.0.1:9601"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("address 127.0.0.1:9601 appears more than once");
        assertThatThrownBy(() -> ClusterConfig.parse("n1", "n1=127.0.0.1:70000"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bad port 70000");
        assertThatThrownBy(() -> ClusterConfig.parse("n1", "n1=127.0.0.1:http"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bad port 'http'");
        assertThatThrownBy(() -> ClusterConfig.parse("n1", ""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lists no node");
        assertThatThrownBy(() -> ClusterConfig.parse("n1", "n1=127.0.0.1:9601,"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty entry");
        assertThatThrownBy(() -> ClusterConfig.parse("n1", "n1@127.0.0.1:9601"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not id=host:port");
        assertThatThrownBy(() -> ClusterConfig.parse("n1", "n1=127.0.0.1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no host:port address");
        assertThatThrownBy(() -> ClusterConfig.parse("", "n1=127.0.0.1:9601"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("node id is empty");
        assertThatThrownBy(() -> ClusterConfig.parse("a b", "a b=127.0.0.1:9601"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not valid");
    }
}
