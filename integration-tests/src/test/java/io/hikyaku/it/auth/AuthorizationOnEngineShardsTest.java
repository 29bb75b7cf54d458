package io.hikyaku.it.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.hikyaku.engine.EngineShard;
import io.hikyaku.server.ServerConfig;
import org.junit.jupiter.api.Test;

/**
 * Every authorization case of {@link AuthorizationTest} again, with three engine shards: accounts
 * 111111111111 and 222222222222 then live on different shards, so cross-account access, queue
 * policies and AddPermission grants are read from the owning shard's snapshots.
 */
class AuthorizationOnEngineShardsTest extends AuthorizationTest {

    @Override
    protected ServerConfig configure(ServerConfig config) {
        return config.withEngineShards(3);
    }

    @Test
    void theTwoAccountsAreOnDifferentShards() {
        assertThat(EngineShard.of(A, 3)).isNotEqualTo(EngineShard.of(B, 3));
    }
}
