package io.hikyaku.identity.sigv4;

import io.hikyaku.identity.Credential;
import java.util.Optional;

/** Finds the credential of an access key id: configured long-term keys and live STS sessions. */
@FunctionalInterface
public interface CredentialLookup {
    Optional<Credential> find(String accessKeyId);
}
